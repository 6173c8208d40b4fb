"""Issue 28, the operating guide (docs/operating.md): it names every setting the code reads and every flag, shows the
deployment files as they are in ``examples/deploy/``, and those files are accepted by ``nginx -t`` and
``systemd-analyze verify``."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from sefode.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "operating.md"
SITE = ROOT / "examples" / "deploy" / "nginx-sefode.conf"
UNIT = ROOT / "examples" / "deploy" / "sefode.service"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SETTING = re.compile(r"\"((?:SEFODE_[A-Z0-9_]+)|DATABASE_URL)\"")


def _settings_in_code() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "sefode").rglob("*.py"):
        found |= set(SETTING.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_environment_variable_the_server_reads_is_documented_with_its_default() -> None:
    doc = DOC.read_text(encoding="utf-8")
    settings = _settings_in_code()
    assert {"DATABASE_URL", "SEFODE_METRICS_TOKEN", "SEFODE_BOT_DELAY_S", "SEFODE_HEAD_TIMEOUT_S"} <= settings
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([A-Z_0-9]+)` \| ([^|]+) \|", doc, re.MULTILINE)}
    missing = sorted(s for s in settings if s not in rows)
    assert not missing, f"not in the settings table of docs/operating.md: {missing}"
    assert all(rows[s].strip() for s in settings)


def test_every_flag_of_serve_backup_and_restore_is_documented() -> None:
    doc = DOC.read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    flags = {
        option
        for name in ("serve", "backup", "restore")
        for action in commands[name]._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    assert {"--host", "--port", "--public-url", "--database"} <= flags
    missing = sorted(f for f in flags if f"`{f}`" not in doc)
    assert not missing, missing


def test_the_guide_shows_the_deployment_files_as_they_are() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for path in (SITE, UNIT):
        assert path.read_text(encoding="utf-8").rstrip() in doc, path.name


def test_the_nginx_site_passes_nginx_t(tmp_path: Path) -> None:
    """The site, with a throw-away certificate in place of certbot's, inside a main configuration of the test's own
    (as the cluster tests run nginx: Debian's package, its own prefix)."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    request = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
    subprocess.run(
        [*request, "-keyout", str(key), "-out", str(cert), "-subj", "/CN=cartas.example.org"],
        check=True,
        capture_output=True,
    )
    site = SITE.read_text(encoding="utf-8")
    live = "/etc/letsencrypt/live/cartas.example.org/"
    assert f"{live}fullchain.pem" in site and f"{live}privkey.pem" in site
    site = site.replace(f"{live}fullchain.pem", str(cert)).replace(f"{live}privkey.pem", str(key))
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "".join(f"    {kind}_temp_path {tmp_path}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi"))
    temp += "".join(f"    {kind}_temp_path {tmp_path}/{kind};\n" for kind in ("uwsgi", "scgi"))
    main = (
        f"{user}worker_processes 1;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log warn;\n"
        f"events {{ worker_connections 64; }}\n"
        f"http {{\n    access_log off;\n{temp}    include {tmp_path}/site.conf;\n}}\n"
    )
    (tmp_path / "nginx.conf").write_text(main, encoding="utf-8")
    done = subprocess.run(
        [NGINX, "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """The unit as shipped, but for where sefode is installed (this environment's) and the service user (which this
    machine does not have)."""
    unit = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/sefode/bin/sefode serve --host 127.0.0.1 --port 8000" in unit
    sefode = Path(sys.executable).parent / "sefode"
    unit = unit.replace("/opt/sefode/bin/sefode", str(sefode))
    unit = re.sub(r"^(User|Group)=.*$", "", unit, flags=re.MULTILINE)
    path = tmp_path / "sefode.service"
    path.write_text(unit, encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "sefode.service" not in done.stderr, done.stderr  # no warning about the unit itself
