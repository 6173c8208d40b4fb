"""Bot accounts in the awards, on SQLite and PostgreSQL (docs/rulings.md §1, issue 15): a bot account is seated as a
bot.

It is never one of the "5+ humans" of a valid match, earns no medal, no rating and no trophy, never appears on the
leaderboard or a rating table, and its profile and the standings say it is a bot.
"""

from __future__ import annotations

import sqlalchemy as sa
from accounts_helpers import finished_match, guests, record, room

from sefode.accounts import bots, queries, service
from sefode.awards import Board, recording
from sefode.awards import tables as w
from sefode.store import Store


def _bot_account(store: Store) -> str:
    with store.engine.begin() as conn:
        owner = service.register(conn, "dona", "correct horse battery")
        return str(bots.create_bot(conn, owner.player_id, "Robô")["bot_id"])


def _medals(store: Store) -> dict[str, set[str]]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(w.medals.c.player_id, w.medals.c.medal)).all()
    out: dict[str, set[str]] = {}
    for pid, medal in rows:
        out.setdefault(str(pid), set()).add(str(medal))
    return out


def test_four_humans_and_a_bot_account_are_not_a_valid_match(store: Store) -> None:
    bot = _bot_account(store)
    players = guests(store, 4)
    match_id = finished_match(store, room(store), [bot, *players], [1, 2, 3, 4, 5])
    result = record(store, match_id)
    assert result is not None and result.newly and not result.valid
    assert _medals(store) == {}
    with store.engine.connect() as conn:
        humans = conn.execute(
            sa.select(w.award_matches.c.humans).where(w.award_matches.c.match_id == match_id)
        ).scalar_one()
        seat0 = (
            conn.execute(
                sa.select(w.award_seats).where(w.award_seats.c.match_id == match_id, w.award_seats.c.seat == 0)
            )
            .mappings()
            .one()
        )
        rated = set(conn.execute(sa.select(w.rating_changes.c.player_id)).scalars())
    assert humans == 4
    assert seat0["player_id"] is None and seat0["bot"] == "bot"
    assert bot not in rated and rated == set(players)


def test_a_winning_bot_account_earns_nothing_and_is_never_on_a_board(store: Store) -> None:
    bot = _bot_account(store)
    players = guests(store, 5)
    match_id = finished_match(store, room(store), [bot, *players], [1, 2, 3, 4, 5, 6])
    result = record(store, match_id)
    assert result is not None and result.valid
    # The bot account won: no gold for anyone, silver and bronze for the humans placed 2nd and 3rd.
    assert _medals(store) == {players[0]: {"silver"}, players[1]: {"bronze"}}
    with store.engine.connect() as conn:
        medal_board = queries.leaderboard(conn, Board.MEDALS, per_page=100)
        rating_board = queries.rating_table(conn, "fodinha", per_page=100)
        bot_profile = queries.profile(conn, bot)
        human_profile = queries.profile(conn, players[0])
    assert bot not in {r["player_id"] for r in medal_board["rows"]}
    assert bot not in {r["player_id"] for r in rating_board["rows"]} and rating_board["rows"]
    assert bot_profile is not None and bot_profile["bot"] is True and bot_profile["registered"] is False
    assert bot_profile["ratings"] == [] and set(bot_profile["medals"].values()) == {0}
    assert human_profile is not None and human_profile["bot"] is False
    # In a human's match history the bot account's seat is a bot.
    row = human_profile["matches"]["rows"][0]
    seat0 = next(p for p in row["players"] if p["seat"] == 0)
    assert seat0["bot"] is True and seat0["player_id"] is None


def test_a_bot_account_champion_is_a_bot_in_the_standings_and_gets_no_trophy(store: Store) -> None:
    bot = _bot_account(store)
    players = guests(store, 5)
    room_id = room(store)
    with store.engine.begin() as conn:
        tid = recording.create_tournament(conn, room_id, 3, now=0)
    for number in (1, 2, 3):
        record(store, finished_match(store, room_id, [bot, *players], [1, 2, 3, 4, 5, 6], number=number))
    with store.engine.connect() as conn:
        data = queries.tournament_json(conn, tid)
        trophies = set(conn.execute(sa.select(w.trophies.c.player_id)).scalars())
    assert data is not None and data["status"] == "finished"
    first = data["standings"][0]
    assert first["bot"] is True and first["player_id"] is None and first["name"] is None
    # A bot may be the champion (tournament.py), shown as a bot; only a human champion gets a trophy.
    assert data["champions"] == [{"player_id": None, "name": None, "bot": True}]
    assert data["trophies"] == [] and trophies == set()
