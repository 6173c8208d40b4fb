"""``sefode bot``: one of Se Fode's own bots, seated on a remote server through ``sefode.client`` (``docs/bots.md``).

The server sends views, never states; the bot rebuilds a state consistent with its seat's view through the game's
``Game.from_view`` hook and decides through a ``Seen`` of that seat, as at the server's own tables (so whatever the
seat cannot see is dealt again at random: nothing it rebuilt beyond its view matters). A game without the hook, or a
choice the server does not list as legal, gets a random legal action, said on stderr.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from typing import Any, TextIO

from sefode.bots.base import Seen
from sefode.bots.players import make_player
from sefode.client import Client, MatchEnd, State
from sefode.engine import EngineError, get_game


async def run_bot(
    url: str,
    token: str,
    room: str,
    *,
    seat: int | None = None,
    level: str = "hard",
    think_ms: float = 300.0,
    seed: int | None = None,
    log: TextIO = sys.stderr,
) -> MatchEnd | None:
    """Join ``room`` (taking ``seat`` if given) and play its next or current match as a ``level`` bot."""
    player = make_player(level, seed if seed is not None else random.randrange(1 << 30), think_ms)
    rng = random.Random(seed)

    def say(message: str) -> None:
        print(f"sefode bot: {message}", file=log, flush=True)

    async with Client(url, token) as client:

        async def decide(state: State) -> dict[str, Any]:
            legal = [option.action for option in state.legal]
            name = (client.room or {}).get("game")
            try:
                game = get_game(name)
                assert state.seat is not None
                rebuilt = game.from_view(state.view, state.seat)
                action = await asyncio.to_thread(player.choose, Seen(game, rebuilt, state.seat))
                chosen = game.action_json(rebuilt, action)
            except NotImplementedError:
                return rng.choice(legal)
            except (EngineError, KeyError, TypeError, ValueError, IndexError) as err:
                say(f"could not rebuild the state from the view ({type(err).__name__}: {err}); a random legal move")
                return rng.choice(legal)
            if chosen not in legal:
                say(f"{json.dumps(chosen)} is not among the server's legal actions; a random legal move")
                return rng.choice(legal)
            return chosen

        await client.join(room)
        if seat is not None:
            await client.sit(seat)
        return await client.play(decide)
