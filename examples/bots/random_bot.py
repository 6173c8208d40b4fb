"""A starter bot: plays any game, choosing at random among the legal actions (docs/bots.md).

    python examples/bots/random_bot.py --url http://127.0.0.1:8000 --token T --room R [--seat N]
    python examples/bots/random_bot.py --stdio      # as a program: one JSON line in, one out
"""

import argparse
import asyncio
import json
import random
import sys


def stdio(rng: random.Random) -> None:
    for line in sys.stdin:  # {"type": "decide", "view": ..., "legal": [{"action", "label"}, ...], ...}
        request = json.loads(line)
        if request["type"] == "decide":
            print(json.dumps({"action": rng.choice(request["legal"])["action"]}), flush=True)


async def online(args: argparse.Namespace, rng: random.Random) -> None:
    from sefode.client import Client

    async with Client(args.url, args.token) as client:
        await client.join(args.room)
        if args.seat is not None:
            await client.sit(args.seat)
        end = await client.play(lambda state: rng.choice(state.legal).action)
        print(json.dumps({"placements": end.placements if end else None}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    for flag in ("--url", "--token", "--room"):
        parser.add_argument(flag)
    parser.add_argument("--seat", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--stdio", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    stdio(rng) if args.stdio else asyncio.run(online(args, rng))
