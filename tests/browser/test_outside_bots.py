"""Browser test (issue 15: "a room owner chooses whether outside bots may sit"). The owner creates a room on the
home page with the "let other players' bots sit" box ticked (found by its accessible label; it is off by default),
and a bot account, through ``sefode.client`` with its token, takes a seat, marked as a bot; in a room made with the
box left unticked the same bot is refused with ``room/no_bots`` and a message saying why. The room's summary says
which it is. Nothing is mocked."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from sefode.client import Client as SdkClient
from sefode.client import RoomUpdate, ServerError

from .conftest import MOBILE, Server
from .helpers import api, catalogue, open_client, shoot, snap, unique, wait_ready

PT: dict[str, str] = catalogue("pt-BR")
WIDE: ViewportSize = {"width": 1366, "height": 800}
WAIT_S = 60


def _bot_sits(url: str, token: str, room_id: str, seat: int) -> RoomUpdate | ServerError:
    """The bot joins and asks for ``seat``: the room with the seat taken, or the refusal (in its own event loop)."""

    async def run() -> RoomUpdate | ServerError:
        async with SdkClient(url, token) as client:
            await client.join(room_id)
            await client.sit(seat)
            async for event in client.events():
                if isinstance(event, ServerError):
                    return event
                if isinstance(event, RoomUpdate) and event.room["seats"][seat]["player_id"] is not None:
                    return event
        raise AssertionError("the connection closed before an answer")

    with ThreadPoolExecutor(1) as pool:  # the page's driver owns this thread's loop
        return pool.submit(asyncio.run, asyncio.wait_for(run(), WAIT_S)).result()


def _create_room(page: Page, name: str, outside_bots: bool) -> str:
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-players").select_option("2")
    box = page.get_by_label(PT["create.outside_bots"])
    expect(box).not_to_be_checked()  # off by default
    expect(box).to_have_accessible_description(PT["create.outside_bots_hint"])
    if outside_bots:
        box.check()
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    return page.url.rsplit("/room/", 1)[1].split("?")[0]


def test_the_owner_lets_outside_bots_sit_or_not_from_the_create_form(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    server = shared_server
    guest = api(f"{server.url}/api/session", "POST", body={"name": "Bia"})
    maker = api(
        f"{server.url}/api/account/register",
        "POST",
        guest["token"],
        {"username": unique("bia"), "password": "correct horse"},
    )
    bot = api(f"{server.url}/api/account/bots", "POST", maker["token"], {"name": "Robô"})

    client = open_client(browser, server.url, MOBILE)
    page = client.page
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Ana")
    form = page.get_by_test_id("create-form")
    form.get_by_label(PT["create.outside_bots"]).check()
    shoot(page, artifacts, "create-form", (MOBILE, WIDE))
    for size in (MOBILE, WIDE):
        page.set_viewport_size(size)
        snap(form, artifacts / f"create-form-only-{size['width']}x{size['height']}.png")
    page.set_viewport_size(MOBILE)

    open_id = _create_room(page, "Com robôs", outside_bots=True)
    expect(page.get_by_test_id("room-summary")).to_contain_text(PT["room.outside_bots_yes"])
    seated = _bot_sits(server.url, bot["token"], open_id, 1)
    assert isinstance(seated, RoomUpdate), seated
    assert seated.room["outside_bots"] is True and seated.room["seats"][1]["bot_account"] is True
    row = page.get_by_test_id("seat-row-1")
    expect(row.get_by_test_id("seat-bot-mark-1")).to_have_text(PT["seat.bot_mark"], timeout=WAIT_S * 1000)
    expect(row).to_contain_text("Robô")
    shoot(page, artifacts, "room-with-bot", (MOBILE, WIDE))

    closed_id = _create_room(page, "Sem robôs", outside_bots=False)
    expect(page.get_by_test_id("room-summary")).to_contain_text(PT["room.outside_bots_no"])
    refused = _bot_sits(server.url, bot["token"], closed_id, 1)
    assert isinstance(refused, ServerError), refused
    assert refused.code == "room/no_bots"
    assert refused.message == "the owner of this room does not let outside bots sit"
    expect(page.get_by_test_id("seat-row-1").get_by_test_id("seat-bot-mark-1")).to_have_count(0)
    assert client.errors == []
    client.close()
