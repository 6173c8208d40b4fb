"""Whether a game is registered, and why not: what the conformance suite says when a game is not found."""

from __future__ import annotations


def why_missing(name: str) -> str | None:
    """Why ``name`` is not a registered game (None when it is): its plugin's load error, or that nothing declares it."""
    from sefode.engine import ENTRY_POINT_GROUP, LOAD_ERRORS, game_names

    if name in game_names():
        return None
    if name in LOAD_ERRORS:
        return f"the game {name!r} is installed but its plugin failed to load: {LOAD_ERRORS[name]}"
    known = ", ".join(game_names()) or "none"
    return (
        f"no game {name!r} is registered: no installed distribution declares it in the entry-point group "
        f"{ENTRY_POINT_GROUP!r} (install your game in this environment: pip install -e .); registered games: {known}"
    )
