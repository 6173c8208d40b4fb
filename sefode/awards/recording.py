"""Recording a finished match: medals, tournament progress and trophies, the game's rating table, idempotently.

``record_match_result(conn, match_id)`` reads the finished match from the server's ``matches`` row (its seats and
its stored ``Outcome``: placements, units, no winner; never the game's options, so nothing here knows a game) and,
in the caller's transaction, writes:

1. ``award_matches`` (one row per match: the "already recorded" mark, primary key ``match_id``);
2. ``award_seats`` (who sat where and their place: profile history and tournament standings);
3. ``medals`` (primary key ``(match_id, player_id)``);
4. for the last match of a tournament: the tournament's end and its ``trophies`` (key ``(tournament, player)``);
5. the game's rating table (``sefode.awards.rating_table``: ``rating_matches``, ``ratings``, ``rating_changes``).

A match that ended with no winner gives no medals (every player scores 0 tournament points) and changes no
rating, but is recorded as finished like any other.

All in one transaction: a crash between two steps rolls every step back, and the next call (the server's
start-up recovery, ``record_pending``) records the match once. A second call for a recorded match changes
nothing, and the unique keys refuse a duplicate even from a concurrent writer.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from sefode.awards import (
    MedalAward,
    RatingChange,
    SeatResult,
    Standings,
    TournamentStatus,
    check_length,
    is_valid_match,
    match_medals,
    rating_table,
    tournament_standings,
)
from sefode.awards import tables as w
from sefode.awards.medals import humans_at_start
from sefode.engine import Outcome
from sefode.store import tables as s
from sefode.store.db import now_ms
from sefode.store.seats import StoredSeat, bot_ids, stored_seats
from sefode.wire import Refused

log = logging.getLogger("sefode.accounts")


@dataclass(frozen=True, slots=True)
class Recorded:
    match_id: str
    newly: bool
    """False when the match had been recorded before (nothing was written)."""
    valid: bool
    medals: tuple[MedalAward, ...] = ()
    tournament_id: str | None = None
    tournament_status: str | None = None
    trophies: tuple[str, ...] = field(default=())
    ratings: tuple[RatingChange, ...] = ()
    """The rating changes this call made (empty when the match changed no rating, or was recorded before)."""


def _is_join(action: object) -> bool:
    """A platform join (``{"join": true}``, ``sefode.engine.PLATFORM_ACTIONS``): a late arrival took the next seat."""
    return isinstance(action, dict) and [k for k in action if k != "seat"] == ["join"] and action["join"] is True


# The statements of a match's recording, built once (a statement built per call costs more to build and to look up
# in SQLAlchemy's compiled cache than to run).
_JOINS = sa.select(s.actions.c.action).where(
    s.actions.c.match_id == sa.bindparam("match_id"),
    sa.cast(s.actions.c.action, sa.Text).like('%"join"%'),  # a cheap first cut; _is_join decides
)
_FINISHED = sa.select(
    s.matches.c.room_id,
    s.matches.c.game,
    s.matches.c.seats,
    s.matches.c.outcome,
    s.matches.c.started_at,
    s.matches.c.ended_at,
).where(s.matches.c.id == sa.bindparam("match_id"))
_RECORDED = sa.select(w.award_matches).where(w.award_matches.c.match_id == sa.bindparam("match_id"))
_TOURNAMENT_STATUS = sa.select(w.tournaments.c.status).where(w.tournaments.c.id == sa.bindparam("tournament_id"))
_OPEN_TOURNAMENT = (
    sa.select(w.tournaments)
    .where(
        w.tournaments.c.room_id == sa.bindparam("room_id"),
        w.tournaments.c.status == str(TournamentStatus.PLAYING),
        w.tournaments.c.created_at <= sa.bindparam("started_at"),
    )
    .order_by(w.tournaments.c.created_at.desc())
)
_TOURNAMENT_MATCHES = (
    sa.select(w.award_matches.c.match_id)
    .where(w.award_matches.c.tournament_id == sa.bindparam("tournament_id"))
    .order_by(w.award_matches.c.tournament_number)
)
_ROOM_TOURNAMENT = (
    sa.select(w.tournaments)
    .where(w.tournaments.c.room_id == sa.bindparam("room_id"))
    .order_by(w.tournaments.c.created_at.desc())
)
_INSERT_MATCH = w.award_matches.insert()
_INSERT_SEATS = w.award_seats.insert()
_INSERT_MEDALS = w.medals.insert()


def seats_at_start(conn: sa.Connection, match_id: str, seats: int) -> int:
    """How many seats the match had when it started: its seats less the late arrivals, who take the next seat
    with a platform join each (the stored actions say how many)."""
    rows = conn.execute(_JOINS, {"match_id": match_id})
    return seats - sum(1 for (action,) in rows if _is_join(action))


def seat_results(
    seats: Sequence[StoredSeat], outcome: Outcome, start: int, bots: frozenset[str] | set[str] = frozenset()
) -> list[SeatResult]:
    """The seats of a finished match as the award rules see them, from the stored seating and ``Outcome`` alone.

    A seat is human when it holds a player id that is not one of ``bots`` (bot accounts, ``sefode.accounts.bots``:
    never human, docs/rulings.md §1; ``bot`` is set for seats filled by the table's bots). Its unit is the index of
    the unit holding it in ``outcome.units`` (every seat alone when the game has none): teams are never
    re-derived. Seats numbered ``start`` and beyond joined late."""
    units = outcome.unit_list()
    unit_of = {seat: i for i, unit in enumerate(units) for seat in unit}
    out: list[SeatResult] = []
    for seat, place in enumerate(outcome.placements):
        player = seats[seat].player_id if seat < len(seats) else None
        human = bool(player) and player not in bots
        out.append(
            SeatResult(
                seat=seat,
                player=str(player) if human else f"bot:{seat}",
                place=int(place),
                human=human,
                unit=unit_of.get(seat, len(units) + seat),  # a seat no unit names: alone
                seated_at_start=seat < start,
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """What awards and ratings read of a finished match."""

    match_id: str
    room_id: str
    game: str
    started_at: int
    ended_at: int | None
    outcome: Outcome
    seats: list[SeatResult]


def _bot_accounts(conn: sa.Connection, seats: Sequence[StoredSeat]) -> set[str]:
    return bot_ids(conn, [seat.player_id for seat in seats if seat.player_id])


def finished_match(conn: sa.Connection, match_id: str) -> FinishedMatch | None:
    """A finished match from the server's ``matches`` row (seats and ``outcome``; never its options), or None."""
    row = conn.execute(_FINISHED, {"match_id": match_id}).mappings().first()
    if row is None or row["outcome"] is None:
        return None  # not finished (matches finished before 0003 got their outcome in 0004_ratings)
    outcome = Outcome.from_json(row["outcome"])
    start = seats_at_start(conn, match_id, len(outcome.placements))
    seated = stored_seats(row["seats"])
    return FinishedMatch(
        match_id=match_id,
        room_id=str(row["room_id"]),
        game=str(row["game"]),
        started_at=int(row["started_at"]),
        ended_at=None if row["ended_at"] is None else int(row["ended_at"]),
        outcome=outcome,
        seats=seat_results(seated, outcome, start, _bot_accounts(conn, seated)),
    )


def _stored_seats(conn: sa.Connection, match_ids: Sequence[str]) -> dict[str, list[SeatResult]]:
    rows = conn.execute(
        sa.select(w.award_seats).where(w.award_seats.c.match_id.in_(list(match_ids))).order_by(w.award_seats.c.seat)
    ).mappings()
    out: dict[str, list[SeatResult]] = {m: [] for m in match_ids}
    for r in rows:
        player = r["player_id"]
        out[str(r["match_id"])].append(
            SeatResult(
                seat=int(r["seat"]),
                player=str(player) if player is not None else f"bot:{r['seat']}",
                place=int(r["place"]),
                human=player is not None,
                unit=int(r["unit"]),
                seated_at_start=bool(r["seated_at_start"]),
            )
        )
    return out


def _already(conn: sa.Connection, match_id: str) -> Recorded | None:
    row = conn.execute(_RECORDED, {"match_id": match_id}).mappings().first()
    if row is None:
        return None
    status = None
    if row["tournament_id"] is not None:
        status = conn.execute(_TOURNAMENT_STATUS, {"tournament_id": row["tournament_id"]}).scalar_one_or_none()
    return Recorded(
        match_id=match_id,
        newly=False,
        valid=bool(row["valid"]),
        tournament_id=row["tournament_id"],
        tournament_status=None if status is None else str(status),
    )


def _insert_match(conn: sa.Connection, values: dict[str, Any]) -> None:
    conn.execute(_INSERT_MATCH, values)


def _insert_seats(conn: sa.Connection, match_id: str, seats: Sequence[SeatResult]) -> None:
    conn.execute(
        _INSERT_SEATS,
        [
            {
                "match_id": match_id,
                "seat": r.seat,
                "player_id": r.player if r.human else None,
                "bot": None if r.human else "bot",
                "unit": r.scoring_unit,
                "place": r.place,
                "seated_at_start": r.seated_at_start,
            }
            for r in seats
        ],
    )


def _insert_medals(conn: sa.Connection, match_id: str, awards: Sequence[MedalAward], stamp: int) -> None:
    if awards:
        conn.execute(
            _INSERT_MEDALS,
            [
                {
                    "match_id": match_id,
                    "player_id": m.player,
                    "medal": str(m.medal),
                    "place": m.place,
                    "awarded_at": stamp,
                }
                for m in awards
            ],
        )


def _open_tournament(conn: sa.Connection, room_id: str, started_at: int) -> dict[str, Any] | None:
    row = conn.execute(_OPEN_TOURNAMENT, {"room_id": room_id, "started_at": started_at}).mappings().first()
    return None if row is None else dict(row)


def tournament_match_ids(conn: sa.Connection, tournament_id: str) -> list[str]:
    rows = conn.execute(_TOURNAMENT_MATCHES, {"tournament_id": tournament_id})
    return [str(r[0]) for r in rows]


def compute_standings(conn: sa.Connection, tournament: dict[str, Any]) -> Standings:
    ids = tournament_match_ids(conn, str(tournament["id"]))
    seats = _stored_seats(conn, ids)
    return tournament_standings(
        int(tournament["matches_declared"]),
        [seats[m] for m in ids],
        abandoned=tournament["status"] == str(TournamentStatus.ABANDONED),
    )


def _finish_tournament(conn: sa.Connection, tournament: dict[str, Any], stamp: int) -> Standings:
    standings = compute_standings(conn, tournament)
    if standings.trophy_winners:
        conn.execute(
            w.trophies.insert(),
            [
                {"tournament_id": tournament["id"], "player_id": p, "awarded_at": stamp}
                for p in standings.trophy_winners
            ],
        )
    conn.execute(
        w.tournaments.update()
        .where(w.tournaments.c.id == tournament["id"])
        .values(status=str(standings.status), valid=standings.valid, ended_at=stamp)
    )
    return standings


def record_match_result(conn: sa.Connection, match_id: str, now: int | None = None) -> Recorded | None:
    """Record a finished match once (see the module docstring): medals and tournaments, then the game's rating
    table. None when there is no such finished match."""
    done = _already(conn, match_id)
    if done is not None:
        if not rating_table.is_rated(conn, match_id):  # awarded before ratings existed, or by an older server
            match = finished_match(conn, match_id)
            if match is not None:
                rating_table.rate_match(conn, match, now)
        return done
    match = finished_match(conn, match_id)
    if match is None:
        return None
    stamp = now_ms() if now is None else now
    seats = match.seats
    no_winner = match.outcome.no_winner
    valid = is_valid_match(seats)
    tournament = _open_tournament(conn, match.room_id, match.started_at)
    number = None
    if tournament is not None:
        number = len(tournament_match_ids(conn, str(tournament["id"]))) + 1
    _insert_match(
        conn,
        {
            "match_id": match_id,
            "room_id": match.room_id,
            "game": match.game,
            "valid": valid,
            "no_winner": no_winner,
            "humans": humans_at_start(seats),
            "tournament_id": None if tournament is None else tournament["id"],
            "tournament_number": number,
            "ended_at": match.ended_at or stamp,
            "recorded_at": stamp,
        },
    )
    _insert_seats(conn, match_id, seats)
    awards = match_medals(seats, no_winner)
    _insert_medals(conn, match_id, awards, stamp)
    status = None
    trophies: tuple[str, ...] = ()
    if tournament is not None:
        status = str(TournamentStatus.PLAYING)
        if number == int(tournament["matches_declared"]):
            standings = _finish_tournament(conn, tournament, stamp)
            status = str(standings.status)
            trophies = standings.trophy_winners
    changes = rating_table.rate_match(conn, match, stamp)
    return Recorded(
        match_id=match_id,
        newly=True,
        valid=valid,
        medals=tuple(awards),
        tournament_id=None if tournament is None else str(tournament["id"]),
        tournament_status=status,
        trophies=trophies,
        ratings=tuple(changes),
    )


def record_pending(conn: sa.Connection, now: int | None = None) -> list[str]:
    """Start-up recovery: record every finished match that is not recorded yet, or not rated yet (oldest first,
    so that ratings follow the order the matches ended in). Returns the ids of the matches newly recorded or
    rated."""
    awarded = sa.select(w.award_matches.c.match_id)
    rated = sa.select(w.rating_matches.c.match_id)
    rows = conn.execute(
        sa.select(s.matches.c.id)
        .where(
            s.matches.c.outcome.is_not(None),
            s.matches.c.ended_at.is_not(None),
            sa.or_(s.matches.c.id.not_in(awarded), s.matches.c.id.not_in(rated)),
        )
        .order_by(s.matches.c.ended_at, s.matches.c.number)
    )
    out: list[str] = []
    for (match_id,) in rows.all():
        result = record_match_result(conn, str(match_id), now)
        if result is not None:
            out.append(str(match_id))
    return out


def record_match_end(engine: sa.Engine, match_id: str) -> Recorded | None:
    """What the server calls when a match ends (in its store thread): record it in its own transaction. Never
    raises: on failure the match stays unrecorded and ``recover`` records it at the next start-up."""
    try:
        with engine.begin() as conn:
            return record_match_result(conn, match_id)
    except Exception:
        log.exception("awards.record_failed match=%s", match_id)
        return None


def recover(engine: sa.Engine) -> list[str]:
    """What the server calls at start-up, after migrating: record matches that ended while awarding failed or the
    server stopped. Never raises."""
    try:
        with engine.begin() as conn:
            return record_pending(conn)
    except Exception:
        log.exception("awards.recover_failed")
        return []


# --------------------------------------------------------------------------------------------- tournaments


def create_tournament(conn: sa.Connection, room_id: str, matches: object, now: int | None = None) -> str:
    """Declare the room a tournament of 3 or 5 matches. Refused while another tournament of the room is on."""
    try:
        declared = check_length(matches)
    except ValueError as err:
        raise Refused("tournament/bad_length", str(err)) from None
    stamp = now_ms() if now is None else now
    if _open_tournament(conn, room_id, stamp) is not None:
        raise Refused("tournament/exists", "this room already plays a tournament", 409)
    tournament_id = secrets.token_hex(8)
    conn.execute(
        w.tournaments.insert().values(
            id=tournament_id,
            room_id=room_id,
            matches_declared=declared,
            status=str(TournamentStatus.PLAYING),
            valid=None,
            created_at=stamp,
            ended_at=None,
        )
    )
    return tournament_id


def abandon_tournament(conn: sa.Connection, room_id: str, now: int | None = None) -> str | None:
    """The room emptied: its tournament, if one is on, ends without a champion. Returns its id."""
    stamp = now_ms() if now is None else now
    tournament = _open_tournament(conn, room_id, stamp)
    if tournament is None:
        return None
    standings = compute_standings(conn, {**tournament, "status": str(TournamentStatus.ABANDONED)})
    conn.execute(
        w.tournaments.update()
        .where(w.tournaments.c.id == tournament["id"])
        .values(status=str(TournamentStatus.ABANDONED), valid=standings.valid, ended_at=stamp)
    )
    return str(tournament["id"])


def room_emptied(engine: sa.Engine, room_id: str, seated: Sequence[str | None]) -> str | None:
    """What the server calls when a room's seating loses a human (``Room.stand``): when no human is seated any more,
    the room's tournament, if one is on, ends without a champion. Returns its id. Never raises."""
    if any(seated):
        return None
    try:
        with engine.begin() as conn:
            return abandon_tournament(conn, room_id)
    except Exception:
        log.exception("awards.abandon_failed room=%s", room_id)
        return None


def tournament_row(conn: sa.Connection, tournament_id: str) -> dict[str, Any] | None:
    row = conn.execute(sa.select(w.tournaments).where(w.tournaments.c.id == tournament_id)).mappings().first()
    return None if row is None else dict(row)


def room_tournament(conn: sa.Connection, room_id: str) -> dict[str, Any] | None:
    """The room's latest tournament (playing or over), or None."""
    row = conn.execute(_ROOM_TOURNAMENT, {"room_id": room_id}).mappings().first()
    return None if row is None else dict(row)
