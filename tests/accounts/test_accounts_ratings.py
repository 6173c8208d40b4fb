"""The per-game rating tables (docs/rulings.md §1.25, issue 8 §2), on SQLite and PostgreSQL: who is rated, teams, ties,
no winner, idempotence, crash recovery, one table per game, and the outcome derived for matches stored before 0003.

Expected ratings are computed here straight with OpenSkill's own Plackett-Luce model, independently of
``sefode.awards.skill``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import sqlalchemy as sa
from accounts_helpers import finished_match, guests, record, room
from openskill.models import PlackettLuce

from sefode.accounts import queries
from sefode.awards import rating_table as stored_ratings
from sefode.awards import recording
from sefode.awards import tables as w
from sefode.store import Store
from sefode.store import tables as s

MODEL = PlackettLuce()


def table(store: Store, game: str = "fodinha") -> dict[str, tuple[float, float, int]]:
    """(mu, sigma, matches) per rated player of ``game``."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.select(w.ratings.c.player_id, w.ratings.c.mu, w.ratings.c.sigma, w.ratings.c.matches).where(
                w.ratings.c.game == game
            )
        ).all()
    return {str(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}


def mark(store: Store, match_id: str) -> dict[str, Any] | None:
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(w.rating_matches).where(w.rating_matches.c.match_id == match_id)).mappings()
        found = row.first()
    return None if found is None else dict(found)


def expected(
    teams: Sequence[Sequence[str]], ranks: Sequence[int], start: dict[str, Any] | None = None
) -> dict[str, tuple[float, float]]:
    """What OpenSkill itself gives ``teams`` ranked ``ranks`` (players from ``start``, else new)."""
    start = start or {}
    model_teams = [[start.get(p) or MODEL.rating() for p in team] for team in teams]
    rated = MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    return {p: (r.mu, r.sigma) for team, new in zip(teams, rated, strict=True) for p, r in zip(team, new, strict=True)}


def assert_table(store: Store, want: dict[str, tuple[float, float]], matches: int = 1, game: str = "fodinha") -> None:
    got = table(store, game)
    assert set(got) == set(want)
    for player, (mu, sigma) in want.items():
        assert got[player][0] == pytest.approx(mu, abs=1e-9)
        assert got[player][1] == pytest.approx(sigma, abs=1e-9)
        assert got[player][2] == matches


def test_two_humans_are_rated_as_openskill_rates_them(store: Store) -> None:
    p = guests(store, 2)
    match_id = finished_match(store, room(store), p, [2, 1])
    result = record(store, match_id)
    assert result is not None and result.newly and not result.valid  # no medals under 5 humans, but rated
    assert result.medals == () and len(result.ratings) == 2
    assert_table(store, expected([[p[1]], [p[0]]], [1, 2]))
    mu = table(store)
    assert mu[p[1]][0] > 25 > mu[p[0]][0]
    got = mark(store, match_id)
    assert got is not None and got["rated"] and got["reason"] is None and got["game"] == "fodinha"


def test_a_second_match_starts_from_the_first_ratings(store: Store) -> None:
    p = guests(store, 3)
    room_id = room(store)
    record(store, finished_match(store, room_id, p, [1, 2, 3], number=1))
    after_one = {pid: MODEL.rating(mu=mu, sigma=sigma) for pid, (mu, sigma, _) in table(store).items()}
    record(store, finished_match(store, room_id, p, [3, 1, 2], number=2))
    assert_table(store, expected([[p[1]], [p[2]], [p[0]]], [1, 2, 3], after_one), matches=2)


def test_one_human_never_changes_a_rating(store: Store) -> None:
    (p,) = guests(store, 1)
    match_id = finished_match(store, room(store), [p, None, None, None], [1, 2, 3, 4])
    result = record(store, match_id)
    assert result is not None and result.ratings == ()
    assert table(store) == {}
    got = mark(store, match_id)
    assert got is not None and not got["rated"] and got["reason"] == "too_few_humans"


def test_a_late_arrival_does_not_make_the_second_human(store: Store) -> None:
    p = guests(store, 2)
    match_id = finished_match(store, room(store), [p[0], None, None, p[1]], [2, 1, 3, 4], start_players=3)
    record(store, match_id)
    assert table(store) == {}
    assert (mark(store, match_id) or {})["reason"] == "too_few_humans"


def test_a_late_arrival_is_rated_when_two_humans_started(store: Store) -> None:
    p = guests(store, 3)
    match_id = finished_match(store, room(store), [p[0], p[1], None, p[2]], [3, 4, 1, 2], start_players=3)
    record(store, match_id)
    # The bot (1st) is not rated; the humans are ranked among themselves: p2 (2nd), p0 (3rd), p1 (4th).
    assert_table(store, expected([[p[2]], [p[0]], [p[1]]], [2, 3, 4]))


def test_bots_are_never_rated(store: Store) -> None:
    p = guests(store, 2)
    match_id = finished_match(store, room(store), [None, p[0], None, p[1], None], [1, 4, 2, 3, 5])
    result = record(store, match_id)
    assert result is not None
    assert {c.player for c in result.ratings} == set(p)
    assert_table(store, expected([[p[1]], [p[0]]], [3, 4]))
    with store.engine.connect() as conn:
        changed = conn.execute(sa.select(w.rating_changes.c.player_id)).scalars().all()
    assert sorted(changed) == sorted(p)


def test_a_no_winner_match_changes_nothing_but_is_finished(store: Store) -> None:
    p = guests(store, 5)
    room_id = room(store)
    tournament = None
    with store.engine.begin() as conn:
        tournament = recording.create_tournament(conn, room_id, 3, now=0)
    match_id = finished_match(store, room_id, p, [5, 5, 5, 5, 5], no_winner=True)
    result = record(store, match_id)
    assert result is not None and result.newly and result.valid  # 5 humans: it counts as a finished match
    assert result.medals == () and result.ratings == ()
    assert table(store) == {}
    got = mark(store, match_id)
    assert got is not None and not got["rated"] and got["reason"] == "no_winner"
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(w.medals)).scalar_one() == 0
        row = conn.execute(sa.select(w.award_matches).where(w.award_matches.c.match_id == match_id)).mappings().one()
        assert row["no_winner"] and row["tournament_id"] == tournament and row["tournament_number"] == 1
        profile = queries.profile(conn, p[0])
        standing = queries.tournament_json(conn, tournament)
    assert profile is not None and profile["matches"]["total"] == 1
    assert profile["matches"]["rows"][0]["no_winner"] is True and profile["ratings"] == []
    assert standing is not None and standing["played"] == 1
    assert all(row["points"] == 0 for row in standing["standings"])  # nobody placed below anybody


def test_pairs_are_rated_as_teams(store: Store) -> None:
    p = guests(store, 4)
    # Pairs (0, 2) and (1, 3): the pair at seats 1 and 3 won.
    match_id = finished_match(store, room(store), p, [2, 1, 2, 1], teams=True)
    record(store, match_id)
    want = expected([[p[1], p[3]], [p[0], p[2]]], [1, 2])
    assert_table(store, want)
    got = table(store)
    assert got[p[1]][:2] == got[p[3]][:2] and got[p[0]][:2] == got[p[2]][:2]


def test_units_come_from_the_outcome_not_from_options(store: Store) -> None:
    """Teams of three, as a game's outcome declares them: no option says so (``teams`` stays False)."""
    p = guests(store, 6)
    units = [[0, 2, 4], [1, 3, 5]]
    match_id = finished_match(store, room(store), p, [1, 2, 1, 2, 1, 2], units=units)
    record(store, match_id)
    assert_table(store, expected([[p[0], p[2], p[4]], [p[1], p[3], p[5]]], [1, 2]))
    with store.engine.connect() as conn:
        seat_units = conn.execute(sa.select(w.award_seats.c.seat, w.award_seats.c.unit)).all()
    assert dict((int(x), int(y)) for x, y in seat_units) == {0: 0, 1: 1, 2: 0, 3: 1, 4: 0, 5: 1}


def test_a_pair_with_a_bot_is_left_out(store: Store) -> None:
    p = guests(store, 5)
    players = [p[0], p[1], p[2], p[3], p[4], None]
    # Pairs (0, 3), (1, 4), (2, 5); the bot's pair (2, 5) won, pair (1, 4) 2nd, pair (0, 3) 3rd.
    match_id = finished_match(store, room(store), players, [3, 2, 1, 3, 2, 1], teams=True)
    record(store, match_id)
    assert_table(store, expected([[p[1], p[4]], [p[0], p[3]]], [2, 3]))
    assert p[2] not in table(store)


def test_shared_places_are_ties(store: Store) -> None:
    p = guests(store, 3)
    record(store, finished_match(store, room(store), p, [1, 2, 2]))
    assert_table(store, expected([[p[0]], [p[1]], [p[2]]], [1, 2, 2]))
    got = table(store)
    assert got[p[1]] == pytest.approx(got[p[2]])


def test_a_leaver_is_rated_at_the_forfeit_place_apart_from_the_partner(store: Store) -> None:
    p = guests(store, 4)
    # Pairs (0, 2) and (1, 3). Seat 2 left; a bot finished it. Their pair won (seat 0 keeps 1st); the leaver got
    # the worst place open when they left (4th); the other pair shared 2nd.
    match_id = finished_match(store, room(store), p, [1, 2, 4, 2], teams=True, left=[2])
    record(store, match_id)
    assert_table(store, expected([[p[0]], [p[1], p[3]], [p[2]]], [1, 2, 4]))


def test_every_game_keeps_its_own_table(store: Store) -> None:
    p = guests(store, 2)
    room_id = room(store)
    record(store, finished_match(store, room_id, p, [1, 2], number=1, game="fodinha"))
    record(store, finished_match(store, room_id, p, [2, 1], number=2, game="othergame"))
    assert_table(store, expected([[p[0]], [p[1]]], [1, 2]), game="fodinha")
    assert_table(store, expected([[p[1]], [p[0]]], [1, 2]), game="othergame")
    with store.engine.connect() as conn:
        board = queries.rating_table(conn, "fodinha", me=p[1])
        mine = queries.player_ratings(conn, p[1])
    assert [row["player_id"] for row in board["rows"]] == [p[0], p[1]]
    assert [row["rank"] for row in board["rows"]] == [1, 2]
    assert board["me"] == {"player_id": p[1], "position": 2} and board["rows"][1]["you"]
    assert board["rows"][0]["rating"] == pytest.approx(board["rows"][0]["mu"] - 3 * board["rows"][0]["sigma"], abs=0.01)
    assert [r["game"] for r in mine] == ["fodinha", "othergame"] and mine[0]["title"] == "game.fodinha.title"
    assert mine[1]["title"] is None  # not a registered game


def test_rating_idempotent_when_called_twice(store: Store) -> None:
    p = guests(store, 3)
    match_id = finished_match(store, room(store), p, [1, 2, 3])
    first = record(store, match_id)
    once = table(store)
    second = record(store, match_id)
    assert first is not None and len(first.ratings) == 3
    assert second is not None and not second.newly and second.ratings == ()
    assert table(store) == once
    with store.engine.begin() as conn:
        assert recording.record_pending(conn) == []
        match = recording.finished_match(conn, match_id)
        assert match is not None and stored_ratings.rate_match(conn, match) == []
    assert table(store) == once


def test_rating_unique_keys_refuse_a_duplicate(store: Store) -> None:
    p = guests(store, 2)
    match_id = finished_match(store, room(store), p, [1, 2])
    record(store, match_id)
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(w.rating_matches.insert().values(match_id=match_id, game="fodinha", rated=True, recorded_at=0))
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(
            w.ratings.insert().values(
                game="fodinha", player_id=p[0], mu=1.0, sigma=1.0, rating=0.0, matches=1, updated_at=0
            )
        )
    assert table(store)[p[0]][2] == 1


@pytest.mark.parametrize("step", ["_insert_changes", "current_skills"])
def test_a_crash_while_rating_loses_nothing_and_doubles_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    p = guests(store, 5)
    match_id = finished_match(store, room(store), p, [1, 2, 3, 4, 5])

    def crash(*args: object) -> None:
        raise RuntimeError("the server died while rating")

    monkeypatch.setattr(stored_ratings, step, crash)
    assert recording.record_match_end(store.engine, match_id) is None  # logged, never raised
    # One transaction: the medals written before the crash are rolled back with it.
    with store.engine.connect() as conn:
        for t in (w.award_matches, w.medals, w.rating_matches, w.ratings, w.rating_changes):
            assert conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one() == 0
    monkeypatch.undo()
    assert recording.recover(store.engine) == [match_id]
    assert recording.recover(store.engine) == []
    late = recording.record_match_end(store.engine, match_id)
    assert late is not None and not late.newly
    assert_table(store, expected([[x] for x in p], [1, 2, 3, 4, 5]))


def test_recovery_rates_matches_awarded_before_ratings_existed_in_order(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = guests(store, 2)
    room_id = room(store)
    first = finished_match(store, room_id, p, [1, 2], number=1)
    second = finished_match(store, room_id, p, [1, 2], number=2)
    monkeypatch.setattr(stored_ratings, "rate_match", lambda *args, **kwargs: [])  # an older server: medals only
    assert recording.recover(store.engine) == [first, second]
    assert table(store) == {}
    monkeypatch.undo()
    assert recording.recover(store.engine) == [first, second]
    one = expected([[p[0]], [p[1]]], [1, 2])
    two = expected([[p[0]], [p[1]]], [1, 2], {k: MODEL.rating(mu=mu, sigma=sg) for k, (mu, sg) in one.items()})
    assert_table(store, two, matches=2)
    assert recording.recover(store.engine) == []


def test_matches_stored_before_0003_get_their_outcome_once(store: Store) -> None:
    """0004_ratings derives the outcome (pairs of the old ``teams`` option) of matches finished before 0003, so
    that awards read the outcome alone."""
    from alembic import command
    from alembic.config import Config

    from sefode.store.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # The matches are stored with today's schema (the store writes columns of later revisions), then the outcome is
    # taken away and the schema goes back to 0003: as the server stored matches before 0003, placements only.
    p = guests(store, 6)
    match_id = finished_match(store, room(store), p, [3, 1, 2, 3, 1, 2], teams=True)
    plain = finished_match(store, room(store), p[:5], [1, 2, 3, 4, 5])
    with store.engine.begin() as conn:
        conn.execute(s.matches.update().values(outcome=sa.null()))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003_outcome")
    assert "ratings" not in sa.inspect(store.engine).get_table_names()
    store.migrate()
    with store.engine.connect() as conn:
        outcomes = dict(conn.execute(sa.select(s.matches.c.id, s.matches.c.outcome)).all())
    assert outcomes[match_id] == {
        "placements": [3, 1, 2, 3, 1, 2],
        "units": [[0, 3], [1, 4], [2, 5]],
        "no_winner": False,
        "scores": None,
    }
    assert outcomes[plain]["units"] == [[0], [1], [2], [3], [4]]
    result = record(store, match_id)
    assert result is not None
    medals = {m.player: str(m.medal) for m in result.medals}
    assert medals == {p[1]: "gold", p[4]: "gold", p[2]: "silver", p[5]: "silver", p[0]: "bronze", p[3]: "bronze"}
    assert_table(store, expected([[p[1], p[4]], [p[2], p[5]], [p[0], p[3]]], [1, 2, 3]))
