"""Stored tournaments on SQLite and PostgreSQL: points, both tie-breaks, trophies, abandonment, standings."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import sqlalchemy as sa
from accounts_helpers import finished_match, guests, record, room

from sefode.accounts import queries
from sefode.accounts.service import AccountError
from sefode.awards import recording
from sefode.awards import tables as w
from sefode.store import Store


def play(store: Store, room_id: str, players: Sequence[str | None], rounds: Sequence[Sequence[int]]) -> list[str]:
    ids = []
    for number, placements in enumerate(rounds, start=1):
        match_id = finished_match(store, room_id, players, placements, number=number)
        record(store, match_id)
        ids.append(match_id)
    return ids


def declare(store: Store, room_id: str, matches: int) -> str:
    with store.engine.begin() as conn:
        return recording.create_tournament(conn, room_id, matches, now=0)


def standings(store: Store, tournament_id: str) -> dict[str, object]:
    with store.engine.connect() as conn:
        data = queries.tournament_json(conn, tournament_id)
    assert data is not None
    return data


def trophies_of(store: Store) -> list[str]:
    with store.engine.connect() as conn:
        return sorted(str(r[0]) for r in conn.execute(sa.select(w.trophies.c.player_id)).all())


def test_tournament_points_and_standings_between_matches(store: Store) -> None:
    players = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 3)
    play(store, room_id, players, [[1, 2, 3, 4, 5]])
    data = standings(store, tid)
    assert data["status"] == "playing" and data["played"] == 1 and data["matches"] == 3
    rows = data["standings"]
    assert isinstance(rows, list)
    assert [(r["player_id"], r["points"]) for r in rows] == [(p, 4 - i) for i, p in enumerate(players)]
    assert data["champions"] == [] and trophies_of(store) == []


def test_tournament_tie_break_more_first_places(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 3)
    # p0: 4 + 0 + 4 = 8 with two 1st places; p1: 3 + 3 + 2 = 8 with none.
    play(store, room_id, p, [[1, 2, 3, 4, 5], [5, 2, 1, 3, 4], [1, 3, 4, 2, 5]])
    data = standings(store, tid)
    rows = data["standings"]
    assert isinstance(rows, list)
    by = {r["player_id"]: r for r in rows}
    assert by[p[0]]["points"] == by[p[1]]["points"] == 8
    assert by[p[0]]["rank"] == 1 and by[p[1]]["rank"] == 2
    assert data["status"] == "finished" and data["valid"] is True
    assert trophies_of(store) == [p[0]]


def test_tournament_tie_break_better_place_in_the_last_match(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 3)
    # p0: 4 + 2 + 3 = 9 and p1: 3 + 4 + 2 = 9, one 1st place each; p0 was 2nd in the last match, p1 3rd.
    play(store, room_id, p, [[1, 2, 3, 4, 5], [3, 1, 2, 4, 5], [2, 3, 4, 1, 5]])
    rows = standings(store, tid)["standings"]
    assert isinstance(rows, list)
    by = {r["player_id"]: r for r in rows}
    assert by[p[0]]["points"] == by[p[1]]["points"] == 9
    assert by[p[0]]["firsts"] == by[p[1]]["firsts"] == 1
    assert (by[p[0]]["rank"], by[p[1]]["rank"]) == (1, 2)
    assert trophies_of(store) == [p[0]]


def test_tournament_tie_after_both_tie_breaks_shares_the_title(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 3)
    play(store, room_id, p, [[1, 3, 2, 4, 5], [3, 1, 2, 4, 5], [1, 1, 3, 4, 5]])
    data = standings(store, tid)
    champions = data["champions"]
    assert isinstance(champions, list)
    assert sorted(c["player_id"] for c in champions) == sorted(p[:2])
    assert trophies_of(store) == sorted(p[:2])


def test_trophy_only_for_a_valid_tournament(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 3)
    ids = [finished_match(store, room_id, p, [1, 2, 3, 4, 5], number=1)]
    ids.append(finished_match(store, room_id, [*p[:4], None], [1, 2, 3, 4, 5], number=2))  # 4 humans + 1 bot
    ids.append(finished_match(store, room_id, p, [1, 2, 3, 4, 5], number=3))
    for match_id in ids:
        record(store, match_id)
    data = standings(store, tid)
    assert data["status"] == "finished" and data["valid"] is False
    champions = data["champions"]
    assert isinstance(champions, list) and [c["player_id"] for c in champions] == [p[0]]
    assert trophies_of(store) == []


def test_tournament_room_emptied_before_the_last_match_has_no_champion(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 5)
    play(store, room_id, p, [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    with store.engine.begin() as conn:
        assert recording.abandon_tournament(conn, room_id) == tid
    data = standings(store, tid)
    assert data["status"] == "abandoned" and data["champions"] == [] and data["played"] == 2
    # A later match in that room is no longer part of the tournament.
    later = finished_match(store, room_id, p, [1, 2, 3, 4, 5], number=3)
    result = record(store, later)
    assert result is not None and result.tournament_id is None
    assert trophies_of(store) == []


def test_tournament_length_is_3_or_5_and_one_at_a_time(store: Store) -> None:
    room_id = room(store)
    with store.engine.begin() as conn, pytest.raises(AccountError) as bad:
        recording.create_tournament(conn, room_id, 4)
    assert bad.value.code == "tournament/bad_length"
    declare(store, room_id, 5)
    with store.engine.begin() as conn, pytest.raises(AccountError) as twice:
        recording.create_tournament(conn, room_id, 3)
    assert twice.value.code == "tournament/exists"


def test_tournament_trophies_are_idempotent_when_the_last_match_is_recorded_again(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    declare(store, room_id, 3)
    ids = play(store, room_id, p, [[1, 2, 3, 4, 5]] * 3)
    assert record(store, ids[-1]) is not None
    assert recording.recover(store.engine) == []
    assert trophies_of(store) == [p[0]]


def test_room_emptied_ends_the_tournament_only_when_no_human_is_seated(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tid = declare(store, room_id, 3)
    play(store, room_id, p, [[1, 2, 3, 4, 5]])
    assert (
        recording.room_emptied(store.engine, room_id, [p[0], None]) is None
    )
    assert standings(store, tid)["status"] == "playing"
    assert (
        recording.room_emptied(store.engine, room_id, [None, None]) == tid
    )
    data = standings(store, tid)
    assert data["status"] == "abandoned" and data["champions"] == [] and data["played"] == 1
