"""What recording a finished match costs the server: CPU per ``record_match_end`` (medals, tournament, ratings).

The server calls ``sefode.awards.recording.record_match_end`` in its store thread once per match that ends; at one
action per second in each of 1,000 rooms that is a dozen times a second. This stores ``--matches`` finished Se Fode
matches of four guests (each with ``--actions`` stored actions, as the server stores them), records ``--warmup`` of
them, then times the others: CPU time (``time.process_time``) per match recorded, on a fresh SQLite file (or
``--url``, an empty database the benchmark may migrate and fill).

    .venv/bin/python bench/record.py
"""

from __future__ import annotations

import argparse
import json
import secrets
import tempfile
import time
from pathlib import Path

from sefode.awards.recording import record_match_end
from sefode.store import Store


def finished_matches(store: Store, count: int, actions: int) -> list[str]:
    """``count`` finished 4-seat Se Fode matches of the same four guests in one room, stored as the server does."""
    players = [store.create_player(f"p{i}")[1] for i in range(4)]
    room_id = secrets.token_hex(4)
    store.save_room(room_id, {"name": "Mesa"}, "public", secrets.token_hex(8))
    seats = [{"player_id": p, "bot": None, "left": False} for p in players]
    options = {"variant": "sefode", "players": 4, "decks": 1, "teams": False, "lives": 5}
    out = []
    for number in range(1, count + 1):
        match_id = secrets.token_hex(8)
        store.create_match(match_id, room_id, number, "fodinha", options, number, {"dealer": 0}, seats)
        for idx in range(actions - 1):
            store.add_action(match_id, idx, idx % 4, {"bid": 0}, "human")
        placements = [(number + s) % 4 for s in range(4)]
        outcome = {"placements": placements, "units": [[s] for s in range(4)], "no_winner": False, "scores": None}
        store.add_action(match_id, actions - 1, 0, {"bid": 0}, "human", seats, outcome)
        out.append(match_id)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20, help="matches recorded before timing (default 20)")
    parser.add_argument("--actions", type=int, default=60, help="stored actions per match (default 60)")
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.url or f"sqlite:///{Path(tmp) / 'record.sqlite3'}")
        store.migrate()
        ids = finished_matches(store, args.matches, args.actions)
        for match_id in ids[: args.warmup]:
            record_match_end(store.engine, match_id)
        timed = ids[args.warmup :]
        began = time.process_time()
        recorded = sum(record_match_end(store.engine, match_id) is not None for match_id in timed)
        spent = time.process_time() - began
        store.close()
    assert recorded == len(timed), "every match is recorded"
    print(json.dumps({"matches": len(timed), "cpu_ms_per_match": round(1000 * spent / len(timed), 3)}))


if __name__ == "__main__":
    main()
