"""Fixtures for the browser tests: a real ``sefode serve`` subprocess on a free port with its own SQLite file,
and Debian's chromium driven by Playwright (Playwright's own browser download is not used)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from db_template import fresh_sqlite
from playwright.sync_api import Browser, Playwright, ViewportSize, expect, sync_playwright
from ports import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("SEFODE_CHROMIUM", "/usr/bin/chromium-headless-shell"))
"""Debian's build of Chromium's headless shell (package chromium-headless-shell, from the same sources as its
chromium): the same Blink, V8 and layout, without the desktop browser around them. Playwright's own default for
headless Chromium; on this suite it costs about 40% less CPU than the full browser in headless mode (docs/testing.md).
``SEFODE_CHROMIUM=/usr/bin/chromium`` runs the tests in the full browser."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
MOBILE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
EXPECT_TIMEOUT_MS = 20_000
"""How long an ``expect`` waits for its condition. Playwright's default, 5 s, is shorter than a server answer can take
when the whole suite shares 2 loaded cores (a Guimenon placement shown as pending took longer in a CI run); an
``expect`` returns as soon as its condition holds, so a passing test is no slower for it."""
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


def _sefode_command() -> list[str]:
    exe = Path(sys.executable).with_name("sefode")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "sefode"]


class Server:
    """One ``sefode serve`` process; ``kill()`` sends SIGKILL and ``start()`` brings it back on the same port and DB."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = workdir / "sefode.sqlite3"
        self.log_path = workdir / "server.log"
        self.env = {**os.environ, **env, "DATABASE_URL": f"sqlite:///{self.database}"}
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [*_sefode_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        log.close()
        self.wait_healthy()

    def wait_healthy(self, timeout_s: float = 90.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"sefode serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"sefode serve did not answer /api/health in {timeout_s}s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flushing; what was stored is all that survives."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""


def make_server(tmp_path: Path, **env: str) -> Generator[Server, None, None]:
    defaults = {
        "SEFODE_BOT_DELAY_S": "0.05",
        "SEFODE_BOT_THINK_MS": "20",
        "SEFODE_DISCONNECT_GRACE_S": "60",
        "SEFODE_TEST_HOOKS": "1",  # a test may start a solo table at a given point (tests/start_points.py)
    }
    server = Server(tmp_path, {**defaults, **env})
    fresh_sqlite(server.database)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A fresh server and an empty database for one test: for tests that kill or restart the server, or that count
    what the whole database holds (the leaderboard's ranks, the lobby's rooms)."""
    yield from make_server(tmp_path)


SHARED_LIMITS = '{"sessions_burst": 1e9, "rooms_burst": 1e9}'
"""The shared server serves every test of a worker from 127.0.0.1: the per-address session and room creation limits
would refuse the later tests' guests. The other limits (messages, connections, login and password failures) stay."""


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the whole session of a worker (with pytest-xdist, one per worker), started once. For tests that
    neither stop it nor depend on what other tests left in its database: each test makes its own guests, rooms and
    matches, uses unique usernames, and looks only at those (never "the lobby is empty", "Ana is 22nd"). Tests that
    kill or restart the server, change its settings or need an empty database use ``server``."""
    yield from make_server(tmp_path_factory.mktemp("shared-server"), SEFODE_LIMITS=SHARED_LIMITS)


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/test-setup.sh (apt-get install -y chromium-headless-shell)")
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    browser = playwright_instance.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    name: str = request.node.name
    folder = ARTIFACTS / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
