"""Awarding medals when a match ends, on SQLite and PostgreSQL: validity, pairs, leavers, idempotence, recovery."""

from __future__ import annotations

import random
from typing import Any

import pytest
import sqlalchemy as sa
from accounts_helpers import finished_match, guests, record, room

from sefode.accounts import queries
from sefode.accounts import tables as a
from sefode.awards import recording
from sefode.awards import tables as w
from sefode.engine import get_game
from sefode.games.fodinha import LEAVE
from sefode.store import Store


def medals_of(store: Store) -> dict[str, list[str]]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(w.medals.c.player_id, w.medals.c.medal)).all()
    out: dict[str, list[str]] = {}
    for pid, medal in rows:
        out.setdefault(str(pid), []).append(str(medal))
    return {k: sorted(v) for k, v in out.items()}


def test_four_humans_and_one_bot_earn_nothing(store: Store) -> None:
    players = guests(store, 4)
    match_id = finished_match(store, room(store), [*players, None], [1, 2, 3, 4, 5])
    result = record(store, match_id)
    assert result is not None and result.newly and not result.valid
    assert medals_of(store) == {}


def test_five_humans_earn_medals(store: Store) -> None:
    players = guests(store, 5)
    match_id = finished_match(store, room(store), players, [4, 1, 3, 2, 5])
    result = record(store, match_id)
    assert result is not None and result.valid
    assert medals_of(store) == {players[1]: ["gold"], players[3]: ["silver"], players[2]: ["bronze"]}


def test_bots_never_receive_medals_nor_count(store: Store) -> None:
    players = guests(store, 5)
    # A bot wins; the five humans make the match valid; the humans placed 2nd and 3rd get silver and bronze.
    match_id = finished_match(store, room(store), [None, *players], [1, 2, 3, 4, 5, 6])
    record(store, match_id)
    assert medals_of(store) == {players[0]: ["silver"], players[1]: ["bronze"]}
    with store.engine.connect() as conn:
        bot_seat = conn.execute(sa.select(w.award_seats).where(w.award_seats.c.seat == 0)).mappings().one()
        assert bot_seat["player_id"] is None and bot_seat["bot"] == "bot"
        # A bot is never an account nor a player: there is no players row behind seat 0.
        assert conn.execute(sa.select(sa.func.count()).select_from(a.accounts)).scalar_one() == 0


def test_medals_in_pairs(store: Store) -> None:
    players = guests(store, 6)
    # Pairs sit at seats (0, 3), (1, 4), (2, 5): pair 1 won, pair 2 second, pair 0 third.
    match_id = finished_match(store, room(store), players, [3, 1, 2, 3, 1, 2], teams=True)
    record(store, match_id)
    medals = medals_of(store)
    assert medals[players[1]] == medals[players[4]] == ["gold"]
    assert medals[players[2]] == medals[players[5]] == ["silver"]
    assert medals[players[0]] == medals[players[3]] == ["bronze"]


def test_a_leaver_keeps_a_secured_bronze(store: Store) -> None:
    """A real Se Fode match: once two players are out, a player still in leaves; the engine places them 3rd and
    the stored match gives them bronze."""
    game = get_game("fodinha")
    for seed in range(60):
        state: Any = game.new_match({"variant": "sefode", "players": 5, "lives": 2}, seed)
        rng = random.Random(seed)
        leaver: int | None = None
        while game.awaiting(state):
            if leaver is None and sum(state.alive) == 3:
                leaver = next(s for s in range(5) if state.alive[s])
                game.apply(state, leaver, LEAVE)
                continue
            seat = min(game.awaiting(state))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if leaver is not None:
            break
    assert leaver is not None
    outcome = game.outcome(state)
    assert outcome is not None and outcome.placements[leaver] == 3
    players = guests(store, 5)
    match_id = finished_match(store, room(store), players, list(outcome.placements), left=[leaver])
    record(store, match_id)
    assert medals_of(store)[players[leaver]] == ["bronze"]


def test_a_late_arrival_does_not_make_a_match_valid(store: Store) -> None:
    players = guests(store, 5)
    match_id = finished_match(store, room(store), players, [1, 2, 3, 4, 5], start_players=4)
    result = record(store, match_id)
    assert result is not None and not result.valid
    assert medals_of(store) == {}


def test_idempotent_awarding_when_called_twice(store: Store) -> None:
    players = guests(store, 5)
    match_id = finished_match(store, room(store), players, [1, 2, 3, 4, 5])
    first = record(store, match_id)
    second = record(store, match_id)
    assert first is not None and first.newly and len(first.medals) == 3
    assert second is not None and not second.newly and second.medals == ()
    assert medals_of(store) == {players[0]: ["gold"], players[1]: ["silver"], players[2]: ["bronze"]}
    with store.engine.begin() as conn:
        assert recording.record_pending(conn) == []


def test_idempotent_awarding_unique_key_refuses_a_duplicate_medal(store: Store) -> None:
    players = guests(store, 5)
    match_id = finished_match(store, room(store), players, [1, 2, 3, 4, 5])
    record(store, match_id)
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(
            w.medals.insert().values(match_id=match_id, player_id=players[0], medal="gold", place=1, awarded_at=0)
        )
    assert medals_of(store)[players[0]] == ["gold"]


def test_a_crash_between_steps_never_loses_nor_doubles_an_award(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    players = guests(store, 5)
    match_id = finished_match(store, room(store), players, [1, 2, 3, 4, 5])

    def crash(*args: object) -> None:
        raise RuntimeError("the server died while the match ended")

    # Crash after the match mark and the seats were written, before the medals.
    monkeypatch.setattr(recording, "_insert_medals", crash)
    assert recording.record_match_end(store.engine, match_id) is None  # logged, never raised
    assert medals_of(store) == {}
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(w.award_matches)).scalar_one() == 0
    monkeypatch.undo()
    # Start-up recovery records it, once; a second recovery and a late call change nothing.
    assert recording.recover(store.engine) == [match_id]
    assert recording.recover(store.engine) == []
    late = recording.record_match_end(store.engine, match_id)
    assert late is not None and not late.newly
    assert medals_of(store) == {players[0]: ["gold"], players[1]: ["silver"], players[2]: ["bronze"]}


def test_recovery_records_every_unrecorded_match_in_order(store: Store) -> None:
    players = guests(store, 5)
    room_id = room(store)
    first = finished_match(store, room_id, players, [1, 2, 3, 4, 5], number=1)
    second = finished_match(store, room_id, players, [2, 1, 3, 4, 5], number=2)
    assert recording.recover(store.engine) == [first, second]
    assert medals_of(store)[players[0]] == ["gold", "silver"]


def test_unfinished_match_is_not_recorded(store: Store) -> None:
    players = guests(store, 5)
    room_id = room(store)
    store.create_match("open1", room_id, 1, "fodinha", {"players": 5}, 1, {}, [{"player_id": p} for p in players])
    assert record(store, "open1") is None
    assert record(store, "nosuchmatch") is None
    assert recording.recover(store.engine) == []


def test_profile_lists_history_with_replay_links(store: Store) -> None:
    players = guests(store, 5)
    match_id = finished_match(store, room(store), [*players[:4], None, players[4]], [2, 1, 3, 4, 5, 6])
    record(store, match_id)
    with store.engine.connect() as conn:
        data = queries.profile(conn, players[0])
    assert data is not None
    assert data["medals"] == {"gold": 0, "silver": 1, "bronze": 0}
    (row,) = data["matches"]["rows"]
    assert row["match_id"] == match_id and row["place"] == 2 and row["medal"] == "silver" and row["valid"]
    assert row["history_url"] == f"/api/matches/{match_id}/history"
    assert [p["bot"] for p in row["players"]] == [False, False, False, False, True, False]
    assert row["players"][1]["name"] == "p1"


def test_accounts_migration_downgrades_and_upgrades_again(store: Store) -> None:
    from alembic import command
    from alembic.config import Config

    from sefode.store.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    assert "medals" not in sa.inspect(store.engine).get_table_names()
    store.migrate()
    assert {"accounts", "account_sessions", "medals", "trophies", "tournaments"} <= set(
        sa.inspect(store.engine).get_table_names()
    )
