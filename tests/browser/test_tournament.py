"""Browser tests of a 3-match tournament in one room. Five players join an invite-only room through their own pages and
the owner declares the tournament; their pages follow the matches (played through the protocol with each player's
session) and show the standings after each one, then the champion. A visitor (an anonymous browser) sees the medals,
the trophy and the leaderboard, and the replay viewer shows each match's hands as the engine's own replay
(``sefode replay``) reports them."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from sefode.client import Client as SdkClient
from sefode.client import MatchEnd, RoomUpdate, State, create_guest
from sefode.history import replay

from .conftest import DESKTOP, MOBILE, Server, make_server
from .helpers import (
    Client,
    ProtocolSeats,
    api,
    catalogue,
    create_invite_room,
    open_client,
    shoot,
    wait_ready,
)

PT: dict[str, str] = catalogue("pt-BR")
"""The page's catalogue merged with the games' (the replay's bid and trick texts are Fodinha's)."""


def snap(page: Page, folder: Path, name: str) -> None:
    """Screenshots at both sizes (see ``shoot``), and no text left unfilled: no null, undefined or {placeholder}."""
    shoot(page, folder, name)
    text = page.locator("body").inner_text()
    for leftover in ("null", "undefined", "NaN", "{"):
        assert leftover not in text, f"{name}: {leftover!r} in the page text"


NAMES = ["Ana", "Bia", "Caio", "Duda", "Edu"]
MEDALS = {1: "gold", 2: "silver", 3: "bronze"}


def _join_by_invite(client: Client, invite_url: str, name: str, seat: int) -> None:
    page = client.page
    page.goto(invite_url)
    wait_ready(page)
    page.get_by_test_id("nickname").fill(name)
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    page.get_by_test_id(f"sit-{seat}").click()
    expect(page.get_by_test_id(f"seat-row-{seat}")).to_contain_text(name)


def _points(placements: list[int]) -> list[int]:
    """Tournament points of one match: how many players placed below each seat."""
    return [sum(1 for other in placements if other > place) for place in placements]


def test_players_join_an_invite_room_through_their_pages_and_only_the_owner_declares_a_tournament(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """The owner's page and a guest's who joins by the invite link (the other three seats' pages join the same way:
    the five-page tests below have them all follow the matches)."""
    clients = [open_client(browser, shared_server.url, DESKTOP if k == 0 else MOBILE) for k in range(2)]
    page = clients[0].page
    # Ana opens an invite-only room for five: 2 lives, at most 3 cards, short matches.
    invite_url = create_invite_room(page, "Ana", "Copa da vila", players=5)
    _join_by_invite(clients[1], invite_url, NAMES[1], 1)
    # Only the owner, before the first match, may declare the tournament.
    expect(clients[1].page.get_by_test_id("tour-declare")).to_have_count(0)
    page.get_by_test_id("tour-declare-3").click()
    expect(page.get_by_test_id("tour-status")).to_have_text(
        PT["tour.playing"].replace("{played}", "0").replace("{matches}", "3")
    )
    expect(page.get_by_test_id("tour-declare")).to_have_count(0)
    snap(page, artifacts, "01-declared")
    for client in clients:
        assert client.errors == []
        client.close()


SHORT = {"players": 5, "lives": 1, "max_cards": 2}
"""The shortest matches for five: 1 life, at most 2 cards (the replay checks want longer ones)."""


def _open_pages(browser: Browser, server: Server, played: Played, seats: Sequence[int] = range(5)) -> list[Client]:
    """The page of each player of ``seats`` (the owner's first) opens the room with the player's session (set before
    the page's own scripts run); they load side by side."""
    clients: list[Client] = []
    for k in seats:
        token = played.tokens[k]
        client = open_client(browser, server.url, DESKTOP if k == 0 else MOBILE, reduced_motion=True)
        clients.append(client)
        client.context.add_init_script(f"localStorage.setItem('sefode.token', {json.dumps(token)})")
        client.page.goto(f"/room/{played.room_id}", wait_until="commit")
    for client in clients:
        wait_ready(client.page)
    for seat, name in enumerate(NAMES):
        expect(clients[0].page.get_by_test_id(f"seat-row-{seat}")).to_contain_text(name)
    return clients


def _follow_match(clients: list[Client], seats: ProtocolSeats, number: int, artifacts: Path) -> tuple[list[int], str]:
    """The owner starts match ``number`` on the page; every page shows the table, the end with the placements the
    engine's replay of the history gives, then, back in the room, the standings after this match."""
    page = clients[0].page
    page.get_by_test_id("start-match").click()
    for client in clients:
        expect(client.page.get_by_test_id("table")).to_be_visible()
    seats.release()
    for client in clients:
        expect(client.page.get_by_test_id("end-overlay").get_by_test_id("placements")).to_be_visible()
    seats.hold()
    href = page.get_by_test_id("end-overlay").get_by_test_id("download-history").get_attribute("href")
    assert href and href.startswith("/api/matches/") and href.endswith("/history")
    result = replay(json.loads(page.request.get(href).text())).result()
    assert result["error"] is None and result["over"] is True
    placements = [int(p) for p in result["placements"]]
    for client in clients:
        overlay = client.page.get_by_test_id("end-overlay")
        for seat, place in enumerate(placements):
            expect(overlay.get_by_test_id(f"place-{seat}")).to_contain_text(
                PT["end.place_n"].replace("{n}", str(place))
            )
        client.page.get_by_test_id("end-close").click()
        expect(client.page.get_by_test_id("tour-standings")).to_have_attribute("data-played", str(number))
    snap(clients[-1].page, artifacts, f"02-standings-after-{number}")
    return placements, href.split("/")[3]


def _close_last_end(clients: list[Client], played: Played) -> None:
    """Opened after a match, each page shows that match's end first, then the standings after it."""
    for client in clients:
        overlay = client.page.get_by_test_id("end-overlay")
        for seat, place in enumerate(played.placements[-1]):
            expect(overlay.get_by_test_id(f"place-{seat}")).to_contain_text(
                PT["end.place_n"].replace("{n}", str(place))
            )
        client.page.get_by_test_id("end-close").click()
        expect(client.page.get_by_test_id("tour-standings")).to_have_attribute(
            "data-played", str(len(played.placements))
        )


@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 2])
def test_players_pages_follow_a_tournament_match_and_show_the_standings_after_it(
    browser: Browser, shared_server: Server, artifacts: Path, number: int
) -> None:
    """Five players seated in a room declared a 3-match tournament follow match ``number``: the owner's page and a
    phone's (the matches before it are played through the protocol before the pages open; all five pages follow the
    last match in the test below). The seats are played through the protocol (random legal actions from each
    player's own session), so that the matches last no longer than the pages take to draw them; joining by invite and
    declaring through the page is the test above, playing by clicking the other tests' part (test_private_room,
    test_solo, test_bot_mark...)."""
    played = _played(shared_server.url, SHORT, number - 1)
    seats = ProtocolSeats(
        shared_server.url, played.tokens, played.room_id, seed=49 + number, held=True, invite=played.invite
    )
    clients: list[Client] = []
    try:
        clients = _open_pages(browser, shared_server, played, seats=(0, 2))
        if number == 1:
            expect(clients[0].page.get_by_test_id("tour-status")).to_have_text(
                PT["tour.playing"].replace("{played}", "0").replace("{matches}", "3")
            )
        else:
            _close_last_end(clients, played)
        _follow_match(clients, seats, number, artifacts)
    finally:
        seats.stop()
    for client in clients:
        assert client.errors == []
        client.close()


@pytest.mark.slow
def test_five_players_pages_follow_the_last_tournament_match_and_show_the_final_standings_and_champion(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """The first two matches are played through the protocol before the pages open; they follow the third."""
    played = _played(shared_server.url, SHORT, 2)
    seats = ProtocolSeats(shared_server.url, played.tokens, played.room_id, seed=51, held=True, invite=played.invite)
    clients: list[Client] = []
    try:
        clients = _open_pages(browser, shared_server, played)
        page = clients[0].page
        _close_last_end(clients, played)
        last, match_id = _follow_match(clients, seats, 3, artifacts)
    finally:
        seats.stop()
    placements = [*played.placements, last]
    match_ids = [*played.match_ids, match_id]
    room_id = played.room_id

    # The standings the page shows are the server's, and follow the points rule match by match.
    data: dict[str, Any] = json.loads(page.request.get(f"/api/rooms/{room_id}/tournament").text())
    assert data["status"] == "finished" and data["valid"] is True and data["match_ids"] == match_ids
    seat_of = {str(row["player_id"]): k for k, row in enumerate(data["standings"])}
    ids = {}
    for client, name in zip(clients, NAMES, strict=True):
        me = client.page.evaluate("async () => (await import('/static/js/api.js')).api('GET', '/me')")
        ids[name] = str(me["player_id"])
    expected_points = {name: sum(_points(p)[seat] for p in placements) for seat, name in enumerate(NAMES)}
    for name in NAMES:
        row = data["standings"][seat_of[ids[name]]]
        assert row["points"] == expected_points[name]
        assert row["per_match"] == [_points(p)[NAMES.index(name)] for p in placements]
    table_rows = page.locator("[data-testid=tour-table] tbody tr")
    expect(table_rows).to_have_count(5)
    shown = table_rows.evaluate_all("els => els.map(e => [e.dataset.player, Number(e.dataset.points)])")
    assert shown == [[row["player_id"], row["points"]] for row in data["standings"]]
    expect(page.get_by_test_id("tour-status")).to_have_text(PT["tour.finished"])
    champions = [ids_name for ids_name in NAMES if ids[ids_name] in {c["player_id"] for c in data["champions"]}]
    assert champions and sorted(data["trophies"]) == sorted(ids[n] for n in champions)
    top = max(expected_points.values())
    assert all(expected_points[n] == top for n in champions)
    expect(page.get_by_test_id("tour-champion")).to_contain_text(champions[0])
    snap(page, artifacts, "03-champion")

    for client in clients:
        assert client.errors == []
        client.close()


@dataclass
class Finished:
    """A 3-match tournament of five guests played to its end through the protocol on a server of its own."""

    server: Server
    ids: dict[str, str]
    placements: list[list[int]]
    match_ids: list[str]
    champions: list[str]


@dataclass
class Played:
    """A room for five declared a 3-match tournament, every seat taken, and the matches played so far."""

    room_id: str
    invite: str
    tokens: list[str]
    ids: dict[str, str]
    placements: list[list[int]]
    match_ids: list[str]


async def _play_tournament(url: str, options: dict[str, Any], play: int) -> Played:
    """Five guests sit in an invite-only room for five declared a 3-match tournament; the owner starts a match when
    the last one is over, ``play`` of them; every seat plays random legal actions. Returns with the room waiting."""
    guests = [await create_guest(url, name) for name in NAMES]
    owner_token = guests[0][0]
    body = {"name": "Copa da vila", "options": options, "visibility": "invite"}
    room = await asyncio.to_thread(api, f"{url}/api/rooms", "POST", owner_token, body)
    room_id, invite = str(room["room_id"]), str(room["invite_token"])
    await asyncio.to_thread(api, f"{url}/api/rooms/{room_id}/tournament", "POST", owner_token, {"matches": 3})
    rng = random.Random(5)

    def decide(state: State) -> dict[str, Any]:
        return dict(rng.choice(state.legal).action)

    async def seat(token: str, k: int) -> None:
        async with SdkClient(url, token) as client:
            await client.join(room_id, invite=invite)
            await client.sit(k)
            await client.play(decide, until_match_end=False)

    players = [asyncio.create_task(seat(token, k)) for k, (token, _) in enumerate(guests) if k]
    ends: list[MatchEnd] = []
    started = 0
    try:
        async with SdkClient(url, owner_token) as owner:
            await owner.join(room_id)
            await owner.sit(0)
            async for event in owner.events():
                for task in players:
                    if task.done():
                        task.result()
                if isinstance(event, State) and event.my_turn:
                    await owner.act(decide(event), event)
                elif isinstance(event, MatchEnd):
                    ends.append(event)
                if isinstance(event, (RoomUpdate, MatchEnd)):
                    room = owner.room or {}
                    seated = all(s.get("player_id") for s in room.get("seats", []))
                    if seated and room.get("status") == "waiting" and started == len(ends):
                        if started == play:
                            break
                        started += 1
                        await owner.start()
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    ids = {name: player_id for name, (_, player_id) in zip(NAMES, guests, strict=True)}
    tokens = [token for token, _ in guests]
    return Played(room_id, invite, tokens, ids, [list(e.placements) for e in ends], [e.match_id for e in ends])


def _played(url: str, options: dict[str, Any], play: int) -> Played:
    """``_play_tournament`` on an event loop of its own thread (Playwright's sync API may hold this thread's)."""
    out: list[Played] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(asyncio.wait_for(_play_tournament(url, options, play), 120)))
        except BaseException as err:
            failed.append(err)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return out[0]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:
    """The whole tournament (2 lives, at most 3 cards: every match has a hand of two cards), on a fresh server: the
    trophy board then holds only its champions."""
    servers = make_server(tmp_path_factory.mktemp("tournament"))
    server = next(servers)
    try:
        played = _played(server.url, {"players": 5, "lives": 2, "max_cards": 3}, 3)
        data: dict[str, Any] = api(f"{server.url}/api/rooms/{played.room_id}/tournament", "GET")
        assert data["status"] == "finished" and data["match_ids"] == played.match_ids
        champion_ids = {str(c["player_id"]) for c in data["champions"]}
        champions = [name for name in NAMES if played.ids[name] in champion_ids]
        assert champions
        yield Finished(server, played.ids, played.placements, played.match_ids, champions)
    finally:
        servers.close()


def test_a_visitor_sees_the_tournaments_medals_trophy_and_the_champions_profile(
    browser: Browser, finished: Finished, artifacts: Path
) -> None:
    ids, placements, match_ids, champions = finished.ids, finished.placements, finished.match_ids, finished.champions
    # A visitor: no session at all. The leaderboard holds every medal won in the three valid matches.
    visitor = open_client(browser, finished.server.url, MOBILE)
    vpage = visitor.page
    vpage.goto("/")
    wait_ready(vpage)
    vpage.get_by_test_id("nav-leaderboard").click()
    expect(vpage.get_by_test_id("lb-table")).to_be_visible()
    expect(vpage.get_by_test_id("lb-show-me")).to_have_count(0)
    for seat, name in enumerate(NAMES):
        won = {medal: sum(1 for p in placements if MEDALS.get(p[seat]) == medal) for medal in MEDALS.values()}
        row = vpage.get_by_test_id(f"lb-row-{ids[name]}")
        if not any(won.values()):
            expect(row).to_have_count(0)
            continue
        cells = row.locator("td").all_inner_texts()
        assert cells[1] == name
        assert [int(c) for c in cells[2:5]] == [won["gold"], won["silver"], won["bronze"]], name
        trophies = 1 if name in champions else 0
        assert cells[5].strip() == (str(trophies) if trophies else "·")
    snap(vpage, artifacts, "04-visitor-leaderboard")
    vpage.get_by_test_id("lb-tab-trophies").click()
    expect(vpage.locator("[data-testid=lb-table] tbody tr")).to_have_count(len(champions))
    champion = champions[0]
    expect(vpage.get_by_test_id(f"lb-row-{ids[champion]}")).to_contain_text(champion)

    # The champion's profile: the trophy, the three matches with their places, each opening the replay.
    vpage.get_by_test_id(f"lb-row-{ids[champion]}").get_by_role("link").click()
    expect(vpage.get_by_test_id("profile-name")).to_contain_text(champion)
    expect(vpage.locator("[data-testid=profile-trophies] li")).to_have_count(1)
    expect(vpage.locator("[data-testid=profile-matches] > li")).to_have_count(3)
    seat = NAMES.index(champion)
    for k, match_id in enumerate(match_ids):
        expect(vpage.get_by_test_id(f"match-place-{match_id}")).to_have_text(
            PT["prof.place_n"].replace("{n}", str(placements[k][seat]))
        )
    snap(vpage, artifacts, "05-champion-profile")
    assert visitor.errors == []
    visitor.close()


def test_a_visitor_opens_each_tournament_match_from_the_champions_profile_and_sees_the_engines_replay(
    browser: Browser, finished: Finished, artifacts: Path
) -> None:
    match_ids, champion = finished.match_ids, finished.champions[0]
    visitor = open_client(browser, finished.server.url, MOBILE)
    vpage = visitor.page
    vpage.goto(f"/players/{finished.ids[champion]}")
    wait_ready(vpage)
    expect(vpage.get_by_test_id("profile-name")).to_contain_text(champion)
    total_compared = 0
    # Each match's replay shows the hands the engine's replay reports: every hand open (one-card hands included),
    # every trick's cards in order with its winner, every dealt card face up.
    for k, match_id in enumerate(match_ids):
        if k:
            vpage.go_back()
            expect(vpage.get_by_test_id("profile-matches")).to_be_visible()
        vpage.get_by_test_id(f"replay-{match_id}").click()
        expect(vpage.get_by_test_id("replay-hand")).to_be_visible()
        raw = vpage.request.get(f"/api/matches/{match_id}/history").text()
        history = json.loads(raw)
        # The 63-bit seed is shown exactly (not rounded as a JavaScript number would be), in the "verifiable
        # shuffle" disclosure (no player word on the header's line).
        expect(vpage.get_by_test_id("fair-seed")).to_have_text(str(history["seed"]))
        result = replay(history).result()
        assert result["error"] is None and result["over"] is True
        hands = result["hands"]
        view = vpage.get_by_test_id("replay-page")
        expect(view).to_have_attribute("data-hands", str(len(hands)))
        expect(view).to_have_attribute("data-error", "")
        compared = one_card = 0
        for hand in hands:
            vpage.get_by_test_id(f"replay-hand-{hand['number']}").click()
            expect(vpage.get_by_test_id("replay-hand")).to_have_attribute("data-hand", str(hand["number"]))
            tricks = vpage.locator("[data-testid^=replay-trick-]").evaluate_all(
                "els => els.map(e => [e.dataset.plays, e.dataset.winner])"
            )
            want = [
                [
                    " ".join(f"{s}:{c}" for s, c in trick["plays"]),
                    "null" if trick["winner"] is None else str(trick["winner"]),
                ]
                for trick in hand["tricks"]
            ]
            assert tricks == want, f"match {k + 1}, hand {hand['number']}"
            for s, bid in enumerate(hand["bids"]):
                if bid is not None and bid >= 0:
                    expect(vpage.get_by_test_id(f"replay-bid-{s}")).to_contain_text(
                        PT["replay.bid"].replace("{n}", str(bid))
                    )
            # Every dealt card is shown face up, the played ones included; in one-card hands too.
            for s in range(5):
                dealt = hand["dealt"][s]
                cards = vpage.get_by_test_id(f"replay-dealt-{s}").locator("[data-card]")
                if dealt is None:
                    expect(cards).to_have_count(0)
                    continue
                assert cards.evaluate_all("els => els.map(e => e.dataset.card)") == dealt
                assert sorted(dealt) == sorted(c for trick in hand["tricks"] for p, c in trick["plays"] if p == s)
            if hand["cards"] == 1:
                one_card += 1
                continue
            compared += 1
            if compared == 1:
                # Stepping back hides the last trick again; stepping forward shows it.
                last = vpage.get_by_test_id(f"replay-trick-{len(want)}")
                vpage.get_by_test_id("replay-prev-trick").click()
                expect(last).to_contain_text(PT["replay.trick_hidden"])
                expect(last.locator("[data-card]")).to_have_count(0)
                vpage.get_by_test_id("replay-next-trick").click()
                expect(last.locator("[data-card]")).to_have_count(len(hand["tricks"][-1]["plays"]))
                if k == 0:
                    snap(vpage, artifacts, "06-replay")
        # With 2 lives nobody is out after the one-card first hand, so hand 2 of every match has 2 cards.
        assert compared >= 1 and one_card >= 1
        total_compared += compared

    assert total_compared >= 3
    assert visitor.errors == []
    visitor.close()


def test_tournament_standings_say_ended_without_a_champion_when_abandoned(browser: Browser, server: Server) -> None:
    client = open_client(browser, server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    data = {
        "id": "t1",
        "room_id": "r1",
        "matches": 5,
        "played": 2,
        "status": "abandoned",
        "valid": True,
        "match_ids": ["m1", "m2"],
        "standings": [
            {
                "rank": 1,
                "player_id": "p1",
                "name": "Ana",
                "anonymous": False,
                "bot": False,
                "points": 7,
                "firsts": 1,
                "last_place": 2,
                "per_match": [4, 3, None, None, None],
            },
            {
                "rank": 2,
                "player_id": None,
                "name": None,
                "anonymous": False,
                "bot": True,
                "points": 5,
                "firsts": 1,
                "last_place": 1,
                "per_match": [1, 4, None, None, None],
            },
            {
                "rank": 3,
                "player_id": "p3",
                "name": None,
                "anonymous": True,
                "bot": False,
                "points": 0,
                "firsts": 0,
                "last_place": None,
                "per_match": [0, None, None, None, None],
            },
        ],
        "champions": [],
        "trophies": [],
    }
    text = page.evaluate(
        """async (data) => {
          const { standingsEl } = await import('/static/js/tournament.js');
          const el = standingsEl(data);
          document.getElementById('app').replaceChildren(el);
          return el.innerText;
        }""",
        data,
    )
    assert PT["tour.abandoned"] in text
    expect(page.get_by_test_id("tour-champion")).to_have_count(0)
    rows = page.locator("[data-testid=tour-table] tbody tr")
    expect(rows).to_have_count(3)
    assert rows.nth(0).locator("td").all_inner_texts() == ["1", "Ana", "7", "1", "2º", "4", "3", "—", "—", "—"]
    assert rows.nth(1).locator("td").all_inner_texts()[1] == PT["tour.bot"]
    assert rows.nth(2).locator("td").all_inner_texts()[1:5] == [PT["acct.anonymous"], "0", "0", "—"]
    assert client.errors == []
    client.close()
