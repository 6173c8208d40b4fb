"""Bots as programs: a seat played by a local command speaking JSON lines on stdin/stdout (``docs/bots.md``).

The seat kind is ``cmd:<command line>``
(``sefode simulate --seats 'cmd:python examples/bots/random_bot.py --stdio',hard``).
It knows no game: for each decision it writes the seat's view and its legal actions (each with the game's label),
and reads back one of those actions. The program is started at the seat's first decision and kept for the match; at
the end it is told the placements and its stdin is closed.

A program that crashes, stays silent past its budget, or answers something that is not one of the legal actions
loses that decision to the default move (the first legal action); the fault is counted (:attr:`Player.faults`) and
reported by the arena. A program that crashed or hung is started again at the seat's next decision, so it never stalls
a match.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from typing import IO, Any

from sefode.bots.base import Player, Seen
from sefode.engine import Action

PREFIX = "cmd:"
STARTUP_GRACE_S = 5.0
"""Extra time for the first answer of the program (interpreter start-up, imports)."""
RESTART_GRACE_S = 1.0
"""Extra time for the first answer after a restart (a crash or a hang), so that a broken program costs little."""
EXIT_WAIT_S = 1.0
MAX_LINE = 1 << 20
FAULTS = ("crash", "timeout", "illegal")


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


class ProgramPlayer(Player):
    """A seat played by a child process (see the module docstring). ``think_ms`` is its budget per decision."""

    kind = "program"

    def __init__(self, command: str, seed: int, think_ms: float = 1000.0) -> None:
        super().__init__(seed, think_ms)
        self.command = shlex.split(command)
        if not self.command:
            raise ValueError("cmd: needs a command line")
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.fresh = False
        self.starts = 0
        self.decisions = 0
        self.log: list[dict[str, Any]] = []
        """The faults, in order: ``{"decision", "fault", "detail"}``."""

    # ------------------------------------------------------------------ the child process
    def _start(self) -> subprocess.Popen[str] | None:
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as err:
            self._fault("crash", f"cannot start {self.command[0]}: {err}")
            return None
        self.lines = queue.Queue()
        assert proc.stdout is not None
        threading.Thread(target=_pump, args=(proc.stdout, self.lines), daemon=True).start()
        self.proc, self.fresh = proc, True
        self.starts += 1
        return proc

    def _stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(EXIT_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _fault(self, fault: str, detail: str) -> None:
        self.faults[fault] = self.faults.get(fault, 0) + 1
        self.log.append({"decision": self.decisions, "fault": fault, "detail": detail[:200]})

    def _send(self, message: dict[str, Any]) -> bool:
        proc = self.proc
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def _answer(self, budget_s: float) -> str | None:
        """The next line, or None after a crash; raises TimeoutError past the budget."""
        try:
            line = self.lines.get(timeout=max(0.0, budget_s))
        except queue.Empty:
            raise TimeoutError from None
        return line

    # ------------------------------------------------------------------ a decision
    def choose(self, seen: Seen) -> Action:
        legal = seen.legal_actions()
        self.decisions += 1
        options = seen.legal_json()
        default = legal[0]
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self._stop()
            if self._start() is None:
                return default
        request = {
            "type": "decide",
            "game": seen.game.name,
            "seat": seen.seat,
            "decision": self.decisions,
            "budget_ms": self.think_ms,
            "view": seen.view(),
            "legal": options,
        }
        if not self._send(request):
            self._fault("crash", "the program closed its input")
            self._stop()
            return default
        grace = (STARTUP_GRACE_S if self.starts == 1 else RESTART_GRACE_S) if self.fresh else 0.0
        budget = self.think_ms / 1000.0 + grace
        self.fresh = False
        try:
            line = self._answer(budget)
        except TimeoutError:
            self._fault("timeout", f"no answer within {self.think_ms:g} ms")
            self._stop()
            return default
        if line is None:
            code = self.proc.poll() if self.proc is not None else None
            self._fault("crash", f"the program exited (code {code})")
            self._stop()
            return default
        try:
            answer = json.loads(line[:MAX_LINE])
            chosen = answer["action"] if isinstance(answer, dict) else None
        except (ValueError, KeyError):
            chosen = None
        for action, option in zip(legal, options, strict=True):
            if option["action"] == chosen:
                return action
        self._fault("illegal", f"not a legal action: {line.strip()[:120]}")
        return default

    def finish(self, placements: list[int] | None) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self._send({"type": "end", "placements": placements})
        self._stop()
