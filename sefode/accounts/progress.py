"""Progress for small groups and solo players: views over the recorded results (``award_matches``/``award_seats``).

Nothing here decides who earns what: medals, tournaments, the leaderboard and the rating tables keep their own rules
(``sefode.awards``). These are counts a player reads on a profile or at the end of a match:

- ``progress(conn, player)``: per game, the matches finished, the wins, the places, and the record against each bot
  level met at the table (matches, and how often the player placed ahead of, level with or behind that bot);
- ``groups(conn, player)``: the groups of people (two or more players, bots aside) the player has played with most,
  each with its running score;
- ``group_score(conn, match_id)``: the running score of the group of one finished match: the matches that exact set
  of people played together in that game, and each one's wins and places.

A win is first place in a match that has a winner. A match counts once it is recorded (``sefode.awards.recording``),
valid for medals or not: a group of three plays as much as a group of five. A deleted account keeps no name here
(``queries.names``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa

from sefode.accounts.queries import game_title, names
from sefode.awards import tables as w
from sefode.store import tables as s

GROUPS_SHOWN = 8
"""Groups listed on a profile (the ones with the most matches)."""


def _mine(conn: sa.Connection, player_id: str) -> list[sa.RowMapping]:
    return list(
        conn.execute(
            sa.select(
                w.award_matches.c.match_id,
                w.award_matches.c.game,
                w.award_matches.c.no_winner,
                w.award_matches.c.ended_at,
                w.award_seats.c.place,
            )
            .select_from(w.award_seats.join(w.award_matches, w.award_matches.c.match_id == w.award_seats.c.match_id))
            .where(w.award_seats.c.player_id == player_id)
        )
        .mappings()
        .all()
    )


def _seats(conn: sa.Connection, match_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each match's recorded seats; a bot's seat with its level (``level``: from the match's stored seats, since the
    recorded results only say "bot")."""
    out: dict[str, list[dict[str, Any]]] = {m: [] for m in match_ids}
    if not match_ids:
        return out
    stored = {
        str(r[0]): list(r[1] or [])
        for r in conn.execute(sa.select(s.matches.c.id, s.matches.c.seats).where(s.matches.c.id.in_(match_ids))).all()
    }
    for row in (
        conn.execute(
            sa.select(w.award_seats).where(w.award_seats.c.match_id.in_(match_ids)).order_by(w.award_seats.c.seat)
        )
        .mappings()
        .all()
    ):
        match_id, seat = str(row["match_id"]), int(row["seat"])
        level = None
        if row["player_id"] is None:
            seats = stored.get(match_id, [])
            occupant = seats[seat] if seat < len(seats) and isinstance(seats[seat], dict) else {}
            level = str(occupant.get("bot") or "normal")
        out[match_id].append({**row, "level": level})
    return out


def _place_of(seats: list[dict[str, Any]], player_id: str) -> int:
    """The player's best place in a match (a player who sat twice, after a leave, counts once, at the better)."""
    return min(int(r["place"]) for r in seats if r["player_id"] == player_id)


def progress(conn: sa.Connection, player_id: str) -> list[dict[str, Any]]:
    """Per game the player finished a match of (most played first): ``{"game", "matches", "wins", "places":
    {place: count}, "bots": [{"level", "matches", "ahead", "level_with", "behind"}]}``."""
    mine = _mine(conn, player_id)
    seats = _seats(conn, sorted({str(r["match_id"]) for r in mine}))
    games: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for row in mine:
        match_id = str(row["match_id"])
        if match_id in seen:
            continue
        seen.add(match_id)
        entry = games.setdefault(
            str(row["game"]),
            {
                "game": str(row["game"]),
                "title": game_title(str(row["game"])),
                "matches": 0,
                "wins": 0,
                "places": Counter(),
                "bots": {},
            },
        )
        place = _place_of(seats[match_id], player_id)
        entry["matches"] += 1
        entry["places"][place] += 1
        if place == 1 and not row["no_winner"]:
            entry["wins"] += 1
        for seat in seats[match_id]:
            level = seat["level"]
            if level is None:
                continue
            bot = entry["bots"].setdefault(
                str(level), {"level": str(level), "matches": 0, "ahead": 0, "level_with": 0, "behind": 0}
            )
            bot["matches"] += 1
            theirs = int(seat["place"])
            bot["ahead" if place < theirs else "behind" if place > theirs else "level_with"] += 1
    out = []
    for entry in sorted(games.values(), key=lambda e: (-e["matches"], e["game"])):
        entry["places"] = {str(p): n for p, n in sorted(entry["places"].items())}
        entry["bots"] = sorted(entry["bots"].values(), key=lambda b: b["level"])
        out.append(entry)
    return out


def _people(seats: list[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(sorted({str(r["player_id"]) for r in seats if r["player_id"] is not None}))


def _score(
    conn: sa.Connection, game: str, people: tuple[str, ...], rows: list[tuple[str, bool, list[dict[str, Any]]]]
) -> dict[str, Any]:
    """The running score of ``people`` over ``rows`` (match id, no winner, its seats): matches, and per person wins
    and places; the people ordered by wins, then by their mean place."""
    who = names(conn, list(people))
    table = []
    for pid in people:
        places = [_place_of(seats, pid) for _, _, seats in rows]
        wins = sum(1 for (_, no_winner, _), place in zip(rows, places, strict=True) if place == 1 and not no_winner)
        table.append(
            {
                "player_id": None if who[pid]["anonymous"] else pid,
                "name": who[pid]["name"],
                "anonymous": who[pid]["anonymous"],
                "wins": wins,
                "mean_place": round(sum(places) / len(places), 2) if places else None,
            }
        )
    table.sort(key=lambda p: (-p["wins"], p["mean_place"] if p["mean_place"] is not None else 99))
    return {"game": game, "title": game_title(game), "matches": len(rows), "players": table}


def groups(conn: sa.Connection, player_id: str, shown: int = GROUPS_SHOWN) -> list[dict[str, Any]]:
    """The groups (two or more people, per game) the player played with most, each with its running score."""
    mine = _mine(conn, player_id)
    ids = sorted({str(r["match_id"]) for r in mine})
    seats = _seats(conn, ids)
    by_group: dict[tuple[str, tuple[str, ...]], list[tuple[str, bool, list[dict[str, Any]]]]] = {}
    done: set[str] = set()
    for row in sorted(mine, key=lambda r: (int(r["ended_at"]), str(r["match_id"]))):
        match_id = str(row["match_id"])
        if match_id in done:
            continue
        done.add(match_id)
        people = _people(seats[match_id])
        if len(people) < 2:
            continue
        by_group.setdefault((str(row["game"]), people), []).append((match_id, bool(row["no_winner"]), seats[match_id]))
    best = sorted(by_group.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:shown]
    return [_score(conn, game, people, rows) for (game, people), rows in best]


def group_score(conn: sa.Connection, match_id: str) -> dict[str, Any] | None:
    """The running score of the group that played ``match_id`` (None: no such recorded match, or fewer than two
    people at it): every recorded match of the same game whose people were exactly the same."""
    head = conn.execute(sa.select(w.award_matches.c.game).where(w.award_matches.c.match_id == match_id)).first()
    if head is None:
        return None
    game = str(head[0])
    people = _people(_seats(conn, [match_id])[match_id])
    if len(people) < 2:
        return None
    # Matches of this game where every one of them sat; then those with no one else.
    candidates = [
        str(r[0])
        for r in conn.execute(
            sa.select(w.award_seats.c.match_id)
            .select_from(w.award_seats.join(w.award_matches, w.award_matches.c.match_id == w.award_seats.c.match_id))
            .where(w.award_matches.c.game == game, w.award_seats.c.player_id.in_(people))
            .group_by(w.award_seats.c.match_id)
            .having(sa.func.count(sa.distinct(w.award_seats.c.player_id)) == len(people))
        ).all()
    ]
    seats = _seats(conn, candidates)
    heads = {
        str(r[0]): (int(r[1]), bool(r[2]))
        for r in conn.execute(
            sa.select(w.award_matches.c.match_id, w.award_matches.c.ended_at, w.award_matches.c.no_winner).where(
                w.award_matches.c.match_id.in_(candidates)
            )
        ).all()
    }
    rows = [
        (m, heads[m][1], seats[m])
        for m in sorted(candidates, key=lambda m: (heads[m][0], m))
        if _people(seats[m]) == people
    ]
    return {"match_id": match_id, **_score(conn, game, people, rows)}
