"""Hand histories, format ``sefode-history/1``: the game's PGN.

A history is a JSON object::

    {"format": "sefode-history/1", "game": "fodinha",
     "options": {...}, "seed": 11, "dealer": 0, "deals": [...],
     "actions": [{"seat": 1, "bid": 0}, {"seat": 2, "play": "Ks"}, ...]}

``dealer`` and ``deals`` are the game's *setup* (see ``Game.history_setup``); every other key the
game does not know is refused. Replaying applies each action through the checked path, so the first
rejected action is reported with its index.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sefode.engine import EngineError, Game, apply_entry, get_game, guard_reason
from sefode.text import depth_exceeds, printable

FORMAT = "sefode-history/1"
TOP_KEYS = {"format", "game", "options", "seed", "actions", "result", "seats"}
"""``seats`` (optional, the server's export): who held each seat, ``{"seat", "kind": "human"|"bot"|"bot_account"}``
with the level of a table's bot and the name of a bot account; never read by the replay."""


class HistoryError(ValueError):
    """A history file that cannot be read (not the actions in it)."""


@dataclass
class Replay:
    game: Game[Any] | None
    state: Any
    error: dict[str, Any] | None

    def result(self) -> dict[str, Any]:
        """The replay output: ``over``, ``placements``, ``error`` and the game's own report; and ``guard``, why, when
        the guard against endless play ended the match (it reached the game's ``max_decisions``)."""
        out: dict[str, Any] = {"over": False, "placements": None, "error": self.error}
        if self.game is not None and self.state is not None:
            outcome = self.game.outcome(self.state)
            guard = guard_reason(self.game, self.state, len(self.game.history_actions(self.state)))
            if guard is not None and self.error is None:
                outcome = self.game.unfinished_outcome(self.state)
                out["guard"] = guard
            out["over"] = outcome is not None
            out["placements"] = list(outcome.placements) if outcome else None
            out.update(self.game.report(self.state))
        else:
            out["hands"] = []
        return out


MAX_MESSAGE = 500
"""An error message is cut to this many characters: a huge value from the file is never echoed whole."""


def _printable(message: str) -> str:
    """``message`` as valid Unicode (a lone surrogate from the file becomes an escape), at most MAX_MESSAGE long."""
    text = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _error(message: str, index: int | None, code: str) -> dict[str, Any]:
    return {"message": _printable(message), "index": index, "code": code}


def replay(data: object) -> Replay:
    """Replay a parsed history. Never raises on bad input: the error is in the result."""
    if not isinstance(data, Mapping):
        return Replay(None, None, _error("a history must be a JSON object", None, "history/invalid"))
    if data.get("format") != FORMAT:
        given = printable(data.get("format"), 60)
        return Replay(None, None, _error(f"'format' must be {FORMAT!r}, not {given}", None, "history/format"))
    try:
        game = get_game(data.get("game"))
    except EngineError as err:
        return Replay(None, None, _error(str(err), None, err.code))
    setup = {k: v for k, v in data.items() if k not in TOP_KEYS}
    options = data.get("options", {})
    seed = data.get("seed")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        return Replay(game, None, _error("'actions' must be a list", None, "history/invalid"))
    try:
        if not isinstance(options, Mapping):
            raise HistoryError("'options' must be a JSON object")
        state = game.new_match(options, seed, setup)  # type: ignore[arg-type]
    except (EngineError, HistoryError) as err:
        code = err.code if isinstance(err, EngineError) else "history/invalid"
        return Replay(game, None, _error(str(err), None, code))
    entries = ((entry.get("seat") if isinstance(entry, Mapping) else None, entry) for entry in actions)
    try:
        for _ in replay_actions(game, state, entries):
            pass
    except ReplayError as err:
        return Replay(game, state, _error(str(err), err.index, err.code))
    return Replay(game, state, None)


class ReplayError(ValueError):
    """An action of a replayed list that the engine refused; ``index`` is its position."""

    def __init__(self, message: str, index: int, code: str) -> None:
        super().__init__(message)
        self.index = index
        self.code = code


def replay_actions(
    game: Game[Any], state: Any, entries: Iterable[tuple[object, object]]
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Apply ``(seat, action JSON)`` pairs in order through the checked path; yield each seat and its events.

    The one replay loop: ``sefode replay``, a room rebuilt from the store, and a finished match's history all
    go through it. Raises :class:`ReplayError` at the first refused action (nothing after it is applied).
    """
    for index, (seat, entry) in enumerate(entries):
        if not isinstance(entry, Mapping) or ("seat" not in entry and seat is None):
            raise ReplayError(f"action {index} must be an object with a 'seat'", index, "history/invalid")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ReplayError(f"action {index}: 'seat' must be a whole number, not {seat!r}", index, "history/invalid")
        try:
            events = apply_entry(game, state, seat, entry)
        except EngineError as err:
            raise ReplayError(f"action {index}: {err}", index, err.code) from None
        yield seat, events


def rebuild(
    game: Game[Any],
    options: Mapping[str, Any],
    seed: int,
    setup: Mapping[str, Any] | None,
    entries: Iterable[tuple[object, object]],
) -> Any:
    """A match state rebuilt from its start and its accepted actions (for a stored match)."""
    state = game.new_match(options, seed, setup)
    for _ in replay_actions(game, state, entries):
        pass
    return state


MAX_DEPTH = 64
"""A history nests far less deeply than this; a deeper file is refused before it is parsed."""


class FileError(HistoryError):
    """A history file that cannot be read as JSON; ``code`` says why, the message is short and printable."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(_printable(message))
        self.code = code


def read_file(path: str | Path) -> Any:
    """The JSON document in a history file, for every command that reads one (``sefode replay``, ``sefode
    analyse``). FileError on anything else: unreadable, not UTF-8, not JSON, nesting deeper than ``MAX_DEPTH``, an
    integer too long to convert; never RecursionError, and the message never echoes the file's content."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise FileError(f"cannot read {path}: {err}", "history/unreadable") from None
    if depth_exceeds(text, MAX_DEPTH):
        raise FileError(f"{path} nests deeper than {MAX_DEPTH} levels", "history/not_json")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise FileError(f"{path} is not JSON: {err}", "history/not_json") from None
    except (ValueError, RecursionError) as err:  # e.g. an integer of more than 4300 digits
        raise FileError(f"{path} is not a usable JSON document: {err}", "history/not_json") from None


def replay_file(path: str | Path) -> Replay:
    """Replay a history file. Never raises on a bad file: unreadable, not JSON, too deep, a huge number, a string
    that is not valid Unicode... each gives an error in the result (``sefode replay`` exits 2 with it)."""
    try:
        data = read_file(path)
    except FileError as err:
        return Replay(None, None, _error(str(err), None, err.code))
    try:
        return replay(data)
    except (RecursionError, ValueError, TypeError, OverflowError, MemoryError) as err:
        return Replay(None, None, _error(f"{path} cannot be replayed: {err}", None, "history/invalid"))


def export(game: Game[Any], state: Any, *, reveal_seed: bool = True) -> dict[str, Any]:
    """The history of a match, replayable with ``sefode replay`` (``sefode simulate --export`` writes these).

    The seed is the secret behind every deal; export it (``reveal_seed``) only once the match is over.
    """
    out: dict[str, Any] = {"format": FORMAT, "game": game.name, "options": game.options(state)}
    if reveal_seed:
        out["seed"] = game.match_seed(state)
    out.update(game.history_setup(state))
    out["actions"] = game.history_actions(state)
    return out
