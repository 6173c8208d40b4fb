"""Accounts on SQLite and PostgreSQL: guests, registering, logging in (rate-limited), sessions, nickname, deleting,
and the leaderboard order."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from accounts_helpers import finished_match, guest, guests, record, room

from sefode.accounts import queries, service
from sefode.accounts import tables as a
from sefode.accounts.service import AccountError
from sefode.store import Store
from sefode.store.db import now_ms


def register(store: Store, username: str, password: str, player_id: str | None = None) -> service.Session:
    with store.engine.begin() as conn:
        return service.register(conn, username, password, player_id)


def login(
    store: Store, username: str, password: str, client: str = "10.0.0.1", now: int | None = None
) -> service.Session:
    """Log in as the HTTP route does: failures are committed even though the call raises."""
    with store.engine.connect() as conn:
        try:
            session = service.login(conn, username, password, client, now)
        except AccountError:
            conn.commit()
            raise
        conn.commit()
        return session


def who(store: Store, token: str) -> str | None:
    with store.engine.connect() as conn:
        return service.player_for_token(conn, token)


def test_guest_plays_without_sign_up(store: Store) -> None:
    token, player_id = guest(store, "Ana")
    assert who(store, token) == player_id
    with store.engine.connect() as conn:
        data = queries.profile(conn, player_id)
    assert data is not None and data["registered"] is False and data["name"] == "Ana"


def test_guest_medals_carried_into_registration(store: Store) -> None:
    token, ana = guest(store, "Ana")
    others = guests(store, 4)
    record(store, finished_match(store, room(store), [ana, *others], [1, 2, 3, 4, 5]))
    session = register(store, "ana_k", "correct horse battery")
    assert session.player_id != ana  # a registration without a guest session is a new player
    # The guest registers from the browser holding their guest token: same player, medals kept.
    with store.engine.begin() as conn:
        conn.execute(a.accounts.delete().where(a.accounts.c.player_id == session.player_id))
    mine = register(store, "ana_guest", "correct horse battery", ana)
    assert mine.player_id == ana
    # Another browser logs in and sees what the guest earned.
    elsewhere = login(store, "ANA_GUEST", "correct horse battery")
    assert elsewhere.player_id == ana and who(store, elsewhere.token) == ana
    assert who(store, token) is None  # registering retired the guest token: whoever else held it gets nothing
    with store.engine.connect() as conn:
        data = queries.profile(conn, ana)
    assert data is not None and data["registered"] and data["medals"]["gold"] == 1
    assert len(data["matches"]["rows"]) == 1


def test_register_refuses_taken_usernames_bad_passwords_and_twice(store: Store) -> None:
    _, ana = guest(store, "Ana")
    register(store, "Ana", "password one", ana)
    with pytest.raises(AccountError) as taken:
        register(store, "ana", "password two")
    assert taken.value.code == "account/username_taken"
    with pytest.raises(AccountError) as again:
        register(store, "ana2", "password two", ana)
    assert again.value.code == "account/already_registered"
    with pytest.raises(AccountError) as short:
        register(store, "bia", "short")
    assert short.value.code == "account/bad_password"
    with pytest.raises(AccountError) as spaces:
        register(store, "bia santos", "long enough")
    assert spaces.value.code == "account/bad_username"


@pytest.mark.production_hashing
def test_password_is_stored_as_an_argon2_hash(store: Store) -> None:
    register(store, "caio", "my secret words")
    with store.engine.connect() as conn:
        stored = conn.execute(sa.select(a.accounts.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$") and "my secret words" not in stored
    assert login(store, "caio", "my secret words").player_id


def test_failed_login_never_reveals_whether_the_user_exists(store: Store) -> None:
    register(store, "duda", "the right one!")
    with pytest.raises(AccountError) as wrong_password:
        login(store, "duda", "the wrong one")
    with pytest.raises(AccountError) as no_user:
        login(store, "nobody_here", "the wrong one")
    assert (wrong_password.value.code, wrong_password.value.status, wrong_password.value.message) == (
        no_user.value.code,
        no_user.value.status,
        no_user.value.message,
    )


def test_rate_limited_login(store: Store) -> None:
    register(store, "edu", "the right one!")
    now = now_ms()
    for _ in range(service.MAX_FAILURES_PER_USERNAME):
        with pytest.raises(AccountError) as failed:
            login(store, "edu", "guess", now=now)
        assert failed.value.code == "auth/bad_credentials"
    # Limited now from that address, even with the right password...
    with pytest.raises(AccountError) as limited:
        login(store, "edu", "the right one!", now=now + 1)
    assert (limited.value.code, limited.value.status) == ("auth/rate_limited", 429)
    # ...but not from another address: someone else's wrong guesses never lock the owner out.
    assert login(store, "edu", "the right one!", client="10.9.9.9", now=now + 1).player_id
    # A username that does not exist is limited in exactly the same way.
    for _ in range(service.MAX_FAILURES_PER_USERNAME):
        with pytest.raises(AccountError):
            login(store, "ghost", "guess", client="10.0.0.2", now=now)
    with pytest.raises(AccountError) as ghost:
        login(store, "ghost", "guess", client="10.0.0.2", now=now + 1)
    assert ghost.value.code == "auth/rate_limited"
    # Once the window has passed, the right password works again.
    session = login(store, "edu", "the right one!", now=now + service.LOGIN_WINDOW_MS + 1)
    assert who(store, session.token) == session.player_id


def test_rate_limited_login_per_client_address(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "MAX_FAILURES_PER_CLIENT", 6)  # the rule, with a smaller limit to keep it quick
    register(store, "fernanda", "the right one!")
    now = now_ms()
    for i in range(service.MAX_FAILURES_PER_CLIENT):
        with pytest.raises(AccountError):
            login(store, f"user{i}", "guess", client="10.1.1.1", now=now)
    with pytest.raises(AccountError) as limited:
        login(store, "fernanda", "the right one!", client="10.1.1.1", now=now + 1)
    assert limited.value.code == "auth/rate_limited"
    assert login(store, "fernanda", "the right one!", client="10.2.2.2", now=now + 1).player_id


def test_log_out_everywhere_ends_every_session(store: Store) -> None:
    token, gui = guest(store, "Gui")
    register(store, "gui", "some password", gui)
    one = login(store, "gui", "some password")
    two = login(store, "gui", "some password", client="10.0.0.7")
    assert who(store, one.token) == who(store, two.token) == gui
    assert who(store, token) is None  # registering retired the guest token
    with store.engine.begin() as conn:
        service.logout(conn, one.token)
    assert who(store, one.token) is None and who(store, two.token) == gui
    with store.engine.begin() as conn:
        service.logout_everywhere(conn, gui)
    assert who(store, two.token) is None and who(store, token) is None
    assert login(store, "gui", "some password").player_id == gui


def test_server_store_accepts_account_sessions(store: Store) -> None:
    """The server resolves WebSocket and HTTP tokens with Store.player_by_token: an account session counts."""
    _, hel = guest(store, "Hel")
    register(store, "hel", "some password", hel)
    session = login(store, "hel", "some password")
    assert store.player_by_token(session.token) == (hel, "Hel")
    with store.engine.begin() as conn:
        service.logout(conn, session.token)
    assert store.player_by_token(session.token) is None


def test_change_nickname(store: Store) -> None:
    _, ivo = guest(store, "Ivo")
    with store.engine.begin() as conn:
        assert service.rename(conn, ivo, "  Ivo Rei ") == "Ivo Rei"
        with pytest.raises(AccountError):
            service.rename(conn, ivo, "x" * 25)
    assert store.player_names([ivo]) == {ivo: "Ivo Rei"}


def test_delete_account_past_matches_show_an_anonymous_name(store: Store) -> None:
    token, jo = guest(store, "Jo")
    others = guests(store, 4)
    match_id = finished_match(store, room(store), [jo, *others], [1, 2, 3, 4, 5])
    record(store, match_id)
    register(store, "joana", "some password", jo)
    session = login(store, "joana", "some password")
    assert store.put_player_data(jo, "somegame", "deck", ["a", "b"], 50)  # a saved deck, kept across registering
    with store.engine.begin() as conn, pytest.raises(AccountError):
        service.delete_account(conn, jo, "wrong password")
    assert store.player_data(jo, "somegame")[0][:2] == ("deck", ["a", "b"])
    with store.engine.begin() as conn:
        service.delete_account(conn, jo, "some password")
    assert who(store, token) is None and who(store, session.token) is None
    assert store.player_data(jo, "somegame") == []  # what the player kept of a game goes with the account
    with pytest.raises(AccountError):
        login(store, "joana", "some password")
    with store.engine.connect() as conn:
        other = queries.profile(conn, others[0])
        board = queries.leaderboard(conn)
    assert other is not None
    seat0 = other["matches"]["rows"][0]["players"][0]
    assert seat0["anonymous"] is True and seat0["name"] is None
    assert jo not in [r["player_id"] for r in board["rows"]]
    # The username is free again.
    assert register(store, "joana", "another password").player_id != jo


def test_leaderboard_order(store: Store) -> None:
    p = guests(store, 6, prefix="L")
    r = room(store)
    # L0: 1 gold; L1: 2 silver; L2: 1 gold 1 bronze; L3: 1 silver 1 bronze; L4: nothing... bronze twice? see below.
    record(store, finished_match(store, r, p[:5], [1, 2, 3, 4, 5], number=1))  # L0 gold, L1 silver, L2 bronze
    record(store, finished_match(store, r, p[1:], [4, 1, 2, 3, 5], number=2))  # L2 gold, L3 silver, L4 bronze
    record(store, finished_match(store, r, p[:5], [5, 2, 4, 3, 1], number=3))  # L4 gold, L1 silver, L3 bronze
    with store.engine.connect() as conn:
        board = queries.leaderboard(conn, per_page=2, page=1)
        me = queries.leaderboard(conn, per_page=2, me=p[3])
    # Gold first: L2 (1g 0s 1b) > L4 (1g 0s 1b)? equal -> shared rank; L0 (1g) below them; L1 (2s) ; L3 (1s 1b).
    assert board["total"] == 5 and board["pages"] == 3
    with store.engine.connect() as conn:
        full = queries.leaderboard(conn, per_page=10)
    order = [(row["name"], row["rank"], row["gold"], row["silver"], row["bronze"]) for row in full["rows"]]
    assert order == [
        ("L2", 1, 1, 0, 1),
        ("L4", 1, 1, 0, 1),
        ("L0", 3, 1, 0, 0),
        ("L1", 4, 0, 2, 0),
        ("L3", 5, 0, 1, 1),
    ]
    assert [row["name"] for row in board["rows"]] == ["L2", "L4"]
    assert me["page"] == 3 and me["me"] == {"player_id": p[3], "position": 5}
    assert [row["you"] for row in me["rows"]] == [True]
