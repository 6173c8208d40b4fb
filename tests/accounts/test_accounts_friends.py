"""Friends (issue 23), on SQLite and PostgreSQL: requests, acceptance and mutual adds, refusals that change nothing,
the limits on friends, requests and blocks, blocking ending everything between two accounts, invitations, the record
between two friends (``sefode.accounts.friends``) and account deletion leaving nothing of it behind."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from accounts_helpers import finished_match, record, room

from sefode.accounts import friends, service
from sefode.accounts import tables as a
from sefode.accounts.service import AccountError
from sefode.store import Store


def _account(store: Store, username: str, name: str | None = None) -> str:
    with store.engine.begin() as conn:
        return service.register(conn, username, "correct horse", name=name).player_id


def _panel(store: Store, player: str) -> dict[str, Any]:
    with store.engine.begin() as conn:
        return friends.overview(conn, player)


def _refused(store: Store, code: str, fn: Any, *args: Any) -> None:
    with pytest.raises(AccountError) as err, store.engine.begin() as conn:
        fn(conn, *args)
    assert err.value.code == code, err.value.message


def _ids(items: list[dict[str, Any]]) -> list[str]:
    return [str(i["player_id"]) for i in items]


def _rows(store: Store, player: str) -> int:
    """Rows of the friends tables that name ``player`` anywhere."""
    with store.engine.connect() as conn:
        total = 0
        for table, cols in (
            (a.friends, ("player_id", "friend_id")),
            (a.friend_requests, ("from_id", "to_id")),
            (a.blocks, ("player_id", "blocked_id")),
            (a.room_invites, ("from_id", "to_id")),
        ):
            where = sa.or_(*(table.c[c] == player for c in cols))
            total += int(conn.execute(sa.select(sa.func.count()).select_from(table).where(where)).scalar_one())
        return total


def test_a_request_accepted_makes_both_friends_and_a_mutual_add_needs_no_acceptance(store: Store) -> None:
    ana, bia, caio = _account(store, "ana"), _account(store, "bia"), _account(store, "caio")
    with store.engine.begin() as conn:
        assert friends.request(conn, ana, friends.find_account(conn, "BIA")) == "requested"  # any case
    assert _ids(_panel(store, ana)["outgoing"]) == [bia] and _ids(_panel(store, bia)["incoming"]) == [ana]
    assert _panel(store, caio) == {"friends": [], "incoming": [], "outgoing": [], "blocked": [], "invites": []}
    _refused(store, "friends/no_request", friends.accept, caio, ana)  # nobody asked Caio
    with store.engine.begin() as conn:
        friends.accept(conn, bia, ana)
    assert _ids(_panel(store, ana)["friends"]) == [bia] and _ids(_panel(store, bia)["friends"]) == [ana]
    assert _panel(store, ana)["outgoing"] == [] and _panel(store, bia)["incoming"] == []

    with store.engine.begin() as conn:
        assert friends.request(conn, caio, ana) == "requested"
        assert friends.request(conn, ana, caio) == "friends"  # she had been asked: a mutual add
    assert _ids(_panel(store, ana)["friends"]) == [bia, caio]
    with store.engine.begin() as conn:
        friends.remove(conn, caio, ana)
    assert _ids(_panel(store, ana)["friends"]) == [bia] and _panel(store, caio)["friends"] == []


def test_a_friend_is_found_by_username_or_by_a_nickname_only_one_account_has(store: Store) -> None:
    ana = _account(store, "ana", name="Ana")
    bia = _account(store, "bia_m", name="Bia")
    _account(store, "duda1", name="Duda")
    _account(store, "duda2", name="duda")
    with store.engine.begin() as conn:
        assert friends.find_account(conn, "bia") == bia  # her nickname, any case
        assert friends.find_account(conn, " Bia_M ") == bia
    _refused(store, "friends/ambiguous_name", friends.find_account, "Duda")
    _refused(store, "friends/unknown_player", friends.find_account, "nobody")
    for bad in ("", "   ", 3, None, "x" * 65):
        _refused(store, "friends/bad_name", friends.find_account, bad)
    guest_token, guest = store.create_player("Gil")
    assert guest_token
    _refused(store, "friends/not_an_account", friends.target, {"player_id": guest})
    _refused(store, "friends/unknown_player", friends.target, {"player_id": "nope"})
    _refused(store, "friends/account_only", friends.request, guest, ana)  # a guest keeps no friends
    _refused(store, "friends/account_only", friends.overview, guest)


def test_bad_requests_are_refused_and_change_nothing(store: Store) -> None:
    ana, bia, caio = _account(store, "ana"), _account(store, "bia"), _account(store, "caio")
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
        friends.block(conn, caio, ana)
    before = {p: _panel(store, p) for p in (ana, bia, caio)}
    _refused(store, "friends/self", friends.request, ana, ana)
    _refused(store, "friends/already_requested", friends.request, ana, bia)
    _refused(store, "friends/unavailable", friends.request, ana, caio)  # Caio blocked her
    _refused(store, "friends/blocked", friends.request, caio, ana)  # he blocked her: unblock first
    _refused(store, "friends/not_friends", friends.remove, ana, bia)
    _refused(store, "friends/not_friends", friends.record, ana, bia)
    _refused(store, "friends/not_friends", friends.invite, ana, bia, room(store))
    _refused(store, "friends/self", friends.block, ana, ana)
    _refused(store, "friends/already_blocked", friends.block, caio, ana)
    _refused(store, "friends/unknown_player", friends.block, ana, "nobody")
    _refused(store, "friends/not_blocked", friends.unblock, ana, caio)
    _refused(store, "friends/no_request", friends.decline, caio, bia)
    _refused(store, "friends/no_invite", friends.dismiss, bia, "nope")
    assert {p: _panel(store, p) for p in (ana, bia, caio)} == before
    with store.engine.begin() as conn:
        friends.accept(conn, bia, ana)
    _refused(store, "friends/already_friends", friends.request, ana, bia)
    _refused(store, "friends/already_friends", friends.request, bia, ana)


def test_the_counts_of_requests_blocks_and_invitations_are_capped(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bia, caio, duda = (_account(store, n) for n in ("ana", "bia", "caio", "duda"))
    monkeypatch.setattr(friends, "MAX_PENDING", 1)
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
    _refused(store, "friends/too_many_requests", friends.request, ana, caio)
    assert _ids(_panel(store, ana)["outgoing"]) == [bia]
    monkeypatch.setattr(friends, "MAX_BLOCKS", 1)
    with store.engine.begin() as conn:
        friends.block(conn, duda, caio)
    _refused(store, "friends/too_many_blocks", friends.block, duda, ana)
    assert _ids(_panel(store, duda)["blocked"]) == [caio]
    monkeypatch.setattr(friends, "MAX_INVITES", 2)
    with store.engine.begin() as conn:
        friends.accept(conn, bia, ana)
    rooms = [room(store) for _ in range(3)]
    for room_id in rooms:
        with store.engine.begin() as conn:
            friends.invite(conn, ana, bia, room_id)
    assert sorted(i["room_id"] for i in _panel(store, bia)["invites"]) == sorted(rooms[1:])  # the oldest went


def test_a_full_friends_list_refuses_a_new_friend_on_either_side(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bia, caio, duda = (_account(store, n) for n in ("ana", "bia", "caio", "duda"))
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
        friends.accept(conn, bia, ana)
        friends.request(conn, ana, caio)
        friends.request(conn, duda, ana)
    monkeypatch.setattr(friends, "MAX_FRIENDS", 1)
    _refused(store, "friends/too_many", friends.accept, ana, duda)  # her own list is full
    _refused(store, "friends/too_many", friends.request, ana, duda)  # a mutual add, the same
    _refused(store, "friends/their_list_full", friends.accept, caio, ana)  # hers is full: Caio is told so
    assert _ids(_panel(store, ana)["friends"]) == [bia]
    assert _ids(_panel(store, caio)["incoming"]) == [ana] and _ids(_panel(store, ana)["incoming"]) == [duda]


def test_blocking_ends_friendship_requests_and_invitations_between_the_two(store: Store) -> None:
    ana, bia = _account(store, "ana"), _account(store, "bia")
    room_id = room(store)
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
        friends.accept(conn, bia, ana)
        friends.invite(conn, ana, bia, room_id)
        friends.invite(conn, bia, ana, room_id)
    assert len(_panel(store, bia)["invites"]) == 1
    with store.engine.begin() as conn:
        friends.block(conn, bia, ana)
    assert _panel(store, ana)["friends"] == [] and _panel(store, bia)["friends"] == []
    assert _panel(store, ana)["invites"] == [] and _panel(store, bia)["invites"] == []
    assert _ids(_panel(store, bia)["blocked"]) == [ana]
    assert friends.all_blocks(store.engine) == {bia: {ana}}
    with store.engine.begin() as conn:
        friends.unblock(conn, bia, ana)
    assert friends.all_blocks(store.engine) == {} and _panel(store, bia)["blocked"] == []


def test_an_invitation_shows_the_rooms_link_and_only_its_receiver_dismisses_it(store: Store) -> None:
    ana, bia = _account(store, "ana", name="Ana"), _account(store, "bia")
    room_id = room(store)
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
        friends.accept(conn, bia, ana)
        first = friends.invite(conn, ana, bia, room_id)
        assert friends.invite(conn, ana, bia, room_id) == first  # asked again: the same one, refreshed
        token = conn.execute(sa.text("SELECT invite_token FROM rooms WHERE id = :r"), {"r": room_id}).scalar_one()
    (shown,) = _panel(store, bia)["invites"]
    assert shown["id"] == first and shown["room_id"] == room_id and shown["room_name"] == "Mesa"
    assert shown["from"] == {"player_id": ana, "name": "Ana"} and shown["link"] == f"/invite/{token}"
    assert _panel(store, ana)["invites"] == []  # the sender does not see it as theirs
    _refused(store, "friends/no_invite", friends.dismiss, ana, first)
    with store.engine.begin() as conn:
        friends.dismiss(conn, bia, first)
    assert _panel(store, bia)["invites"] == []


def test_the_record_between_two_friends_counts_their_matches_per_game_and_who_placed_ahead(store: Store) -> None:
    ana, bia, caio = _account(store, "ana"), _account(store, "bia"), _account(store, "caio")
    room_id = room(store)
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
        friends.accept(conn, bia, ana)
    # placements are per seat: 1 is first
    played: list[tuple[list[str | None], list[int], str]] = [
        ([ana, bia, None], [1, 2, 3], "fodinha"),
        ([ana, bia, caio], [3, 1, 2], "fodinha"),
        ([bia, None, ana], [2, 3, 1], "fodinha"),
        ([ana, caio, None], [1, 2, 3], "fodinha"),  # without Bia: not theirs
        ([ana, bia, None], [1, 1, 3], "king"),
    ]
    for i, (players, places, game) in enumerate(played):
        assert record(store, finished_match(store, room_id, players, places, number=i + 1, game=game)) is not None
    with store.engine.begin() as conn:
        mine = friends.record(conn, ana, bia)
        hers = friends.record(conn, bia, ana)
    assert mine["matches"] == 4 and mine["friend"]["player_id"] == bia
    by_game = {g["game"]: g for g in mine["games"]}
    assert (by_game["fodinha"]["matches"], by_game["fodinha"]["you_ahead"], by_game["fodinha"]["friend_ahead"]) == (
        3,
        2,
        1,
    )
    assert (by_game["king"]["matches"], by_game["king"]["level"]) == (1, 1)
    theirs = {g["game"]: g for g in hers["games"]}
    assert (theirs["fodinha"]["you_ahead"], theirs["fodinha"]["friend_ahead"]) == (1, 2)
    _refused(store, "friends/not_friends", friends.record, caio, ana)  # nobody else reads it


def test_deleting_an_account_removes_its_friends_requests_blocks_and_invitations(store: Store) -> None:
    ana, bia, caio, duda = (_account(store, n) for n in ("ana", "bia", "caio", "duda"))
    room_id = room(store)
    with store.engine.begin() as conn:
        friends.request(conn, ana, bia)
        friends.accept(conn, bia, ana)
        friends.invite(conn, ana, bia, room_id)
        friends.invite(conn, bia, ana, room_id)
        friends.request(conn, ana, caio)
        friends.request(conn, duda, ana)
        friends.block(conn, ana, duda)
        friends.block(conn, caio, ana)
        friends.request(conn, bia, caio)  # theirs, not Ana's: it stays
    assert _rows(store, ana) > 0
    with store.engine.begin() as conn:
        service.delete_account(conn, ana, "correct horse")
    assert _rows(store, ana) == 0
    assert _panel(store, bia)["friends"] == [] and _panel(store, bia)["invites"] == []
    assert _ids(_panel(store, bia)["outgoing"]) == [caio]
    assert _panel(store, caio)["blocked"] == [] and _panel(store, duda)["outgoing"] == []
    assert friends.all_blocks(store.engine) == {}


def test_a_nickname_is_found_in_any_case_in_every_alphabet_on_both_databases(store: Store) -> None:
    """SQLite's own lower() folds ASCII letters only: "ágata öz" did not find "Ágata Öz" there; PostgreSQL's did."""
    agata = _account(store, "agata_s", name="Ágata Öz")
    joao = _account(store, "joao1", name="JOÃO")
    with store.engine.begin() as conn:
        assert friends.find_account(conn, "ágata öz") == agata
        assert friends.find_account(conn, "ÁGATA ÖZ") == agata
        assert friends.find_account(conn, "joão") == joao
    _refused(store, "friends/unknown_player", friends.find_account, "agata oz")  # accents still count
