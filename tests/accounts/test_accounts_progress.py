"""Progress for small groups and solo players (``sefode.accounts.progress``): per-game counts and the record against
each bot level on the profile, the groups a player plays with, and a group's running score at the end of a match.
These are views: medals and ratings are not touched (their own tests)."""

from __future__ import annotations

from accounts_helpers import finished_match, guests, record, room

from sefode.accounts import progress, service
from sefode.store import Store


def _recorded(store: Store, room_id: str, players: list[str | None], placements: list[int], **kw: object) -> str:
    match_id = finished_match(store, room_id, players, placements, **kw)  # type: ignore[arg-type]
    record(store, match_id)
    return match_id


def test_profile_progress_counts_matches_wins_places_and_the_record_against_each_bot_level(store: Store) -> None:
    (ana,) = guests(store, 1, "ana")
    room_id = room(store)
    # Ana alone against two bots (normal, as finished_match seats them): first, then second, then third.
    _recorded(store, room_id, [ana, None, None], [1, 2, 3])
    _recorded(store, room_id, [ana, None, None], [2, 1, 3])
    _recorded(store, room_id, [ana, None, None], [3, 1, 2])
    # A match with no winner: first place but no win.
    _recorded(store, room_id, [ana, None, None], [1, 1, 1], no_winner=True)
    # Another game.
    _recorded(store, room_id, [ana, None], [1, 2], game="king")
    with store.engine.connect() as conn:
        rows = progress.progress(conn, ana)
    assert [r["game"] for r in rows] == ["fodinha", "king"]
    fodinha = rows[0]
    assert fodinha["matches"] == 4 and fodinha["wins"] == 1
    assert fodinha["places"] == {"1": 2, "2": 1, "3": 1}
    (bots,) = fodinha["bots"]
    # 4 matches x 2 bots = 8 meetings: ahead of both (1st), of one (2nd), of none (3rd), level with both.
    assert bots == {"level": "normal", "matches": 8, "ahead": 3, "level_with": 2, "behind": 3}
    assert rows[1]["wins"] == 1 and rows[1]["bots"][0]["ahead"] == 1


def test_a_group_running_score_counts_only_matches_of_exactly_that_group_in_that_game(store: Store) -> None:
    ana, bia, caio, duda = guests(store, 4)
    room_id = room(store)
    first = _recorded(store, room_id, [ana, bia, caio, None], [1, 2, 3, 4])
    _recorded(store, room_id, [ana, bia, caio, None], [2, 1, 3, 4])
    last = _recorded(store, room_id, [ana, bia, caio], [1, 3, 2])
    # Not the same group: Duda was there too, or Caio was not; or another game.
    _recorded(store, room_id, [ana, bia, caio, duda], [4, 3, 2, 1])
    _recorded(store, room_id, [ana, bia, None], [2, 1, 3])
    _recorded(store, room_id, [ana, bia, caio], [3, 2, 1], game="king")
    with store.engine.connect() as conn:
        score = progress.group_score(conn, last)
        again = progress.group_score(conn, first)
    assert score is not None and again is not None
    assert score == {**again, "match_id": last}, "every match of the group gives the same running score"
    assert score["game"] == "fodinha" and score["matches"] == 3
    table = {p["player_id"]: p for p in score["players"]}
    assert table[ana]["wins"] == 2 and table[bia]["wins"] == 1 and table[caio]["wins"] == 0
    assert table[ana]["mean_place"] == round((1 + 2 + 1) / 3, 2)
    assert [p["player_id"] for p in score["players"]] == [ana, bia, caio]


def test_no_group_score_for_a_solo_match_or_an_unknown_one(store: Store) -> None:
    (ana,) = guests(store, 1)
    solo = _recorded(store, room(store), [ana, None, None], [1, 2, 3])
    with store.engine.connect() as conn:
        assert progress.group_score(conn, solo) is None
        assert progress.group_score(conn, "nosuchmatch") is None


def test_groups_on_a_profile_are_the_most_played_first(store: Store) -> None:
    ana, bia, caio = guests(store, 3)
    room_id = room(store)
    for _ in range(3):
        _recorded(store, room_id, [ana, bia, None], [1, 2, 3])
    _recorded(store, room_id, [ana, caio, None], [2, 1, 3])
    with store.engine.connect() as conn:
        listed = progress.groups(conn, ana)
    assert [(g["matches"], sorted(p["player_id"] for p in g["players"])) for g in listed] == [
        (3, sorted([ana, bia])),
        (1, sorted([ana, caio])),
    ]


def test_a_deleted_account_keeps_no_name_or_id_in_a_group_score(store: Store) -> None:
    ana, bia = guests(store, 2)
    with store.engine.begin() as conn:
        service.register(conn, "bia_acc", "a long password 123", bia)
    match_id = _recorded(store, room(store), [ana, bia], [2, 1])
    with store.engine.begin() as conn:
        service.delete_account(conn, bia, "a long password 123")
    with store.engine.connect() as conn:
        score = progress.group_score(conn, match_id)
    assert score is not None
    gone = [p for p in score["players"] if p["anonymous"]]
    assert len(gone) == 1 and gone[0]["name"] is None and gone[0]["player_id"] is None
    assert bia not in str(score)


def test_the_profile_and_the_group_route_carry_progress_over_http(store: Store) -> None:
    from starlette.testclient import TestClient

    from sefode.server.app import create_app

    app = create_app(store.url, bot_delay_s=0.0, disconnect_grace_s=0.0, bot_think_ms=1.0, log=False)
    with TestClient(app) as client:
        # Written once the server is up: the helpers' bare room record is not one the server loads at start.
        ana, bia = guests(store, 2)
        match_id = _recorded(store, room(store), [ana, bia, None], [1, 2, 3])
        profile = client.get(f"/api/players/{ana}").json()
        assert profile["progress"][0]["wins"] == 1 and profile["progress"][0]["bots"][0]["level"] == "normal"
        assert profile["groups"][0]["matches"] == 1
        group = client.get(f"/api/matches/{match_id}/group")
        assert group.status_code == 200 and group.json()["group"]["players"][0]["player_id"] == ana
        assert client.get("/api/matches/nosuchmatch/group").json() == {"group": None}
        assert client.get(f"/api/matches/{'x' * 40}/group").json() == {"group": None}
