"""The turn clock in the page (protocol 5): the server tells each running clock as the time left on it, and the page
counts it down on the device's own clock from when the message came. A phone whose clock is minutes wrong still shows
the time the table gives, and a running clock told again by later messages keeps its end (its bar and its warning)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from start_points import start_point

from sefode.engine import Game

from .conftest import MOBILE, Server
from .helpers import open_solo

CLOCK_S = 60


def _seat0_to_bid(game: Game[Any], state: Any) -> bool:
    return bool(game.awaiting(state) == {0})


@pytest.mark.parametrize("skew_min", [10, -10], ids=["clock-ahead", "clock-behind"])
def test_a_device_whose_clock_is_wrong_shows_the_time_the_table_gives(
    browser: Browser, shared_server: Server, skew_min: int
) -> None:
    """Ana's phone is ten minutes ahead (or behind): her clock still shows the room's minute, counting down, not 0 s
    (nor 11 minutes), and the table does not play for her."""
    point = start_point("fodinha", {"players": 4}, _seat0_to_bid)
    context = browser.new_context(viewport=MOBILE, base_url=shared_server.url, locale="pt-BR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install(time=time.time() + skew_min * 60)  # the device's clock, running from a wrong time
    body = {"game": "fodinha", "bots": 3, "level": "easy", "start": point, "clock_s": CLOCK_S}
    open_solo(page, shared_server.url, "Ana", body)
    clock = page.get_by_test_id("my-clock")
    expect(clock).to_be_visible()
    text = clock.locator(".clock-text")
    expect(text).to_have_text(re.compile(r"^\d+s$"))
    shown = int((text.text_content() or "").strip().rstrip("s"))
    assert 0 < shown <= CLOCK_S, shown
    expect(page.get_by_test_id("bid-0")).to_be_enabled()
    assert errors == []
    context.close()


ON_THIS_CLOCK = """async () => {
  const { onThisClock, CLOCK_JITTER_MS } = await import("/static/js/patch.js");
  const told = (deadlines, deadline) => ({ deadlines, deadline });
  const first = onThisClock(told({ "0": 30000, "1": 20000 }, 30000), 1000);
  // The same clocks told again 400 ms later, the network 150 ms slower: each end kept as it was.
  const again = onThisClock(told({ "0": 29600, "1": 19600 }, 29600), 1550, first.deadlines);
  // Seat 1's clock started again (a new turn), seat 0's still running: only seat 1's end moves.
  const moved = onThisClock(told({ "0": 29000, "1": 30000 }, 29000), 2000, again.deadlines);
  // No clock runs (a pause): nothing to count.
  const paused = onThisClock(told({}, null), 2500, moved.deadlines);
  return { jitter: CLOCK_JITTER_MS, first, again, moved, paused };
}"""


def test_the_page_counts_each_clock_from_when_its_message_came_and_keeps_a_running_clocks_end(
    browser: Browser, shared_server: Server
) -> None:
    """``onThisClock`` (``patch.js``): the time left each message tells, from when it came; the end of a clock told
    again by a later message moves only by the network's jitter, so the end the page holds stays (its bar and its
    last-seconds warning are its own); a clock started again gets its new end."""
    page = browser.new_page()
    page.goto(f"{shared_server.url}/static/index.html")
    got = page.evaluate(ON_THIS_CLOCK)
    assert got["jitter"] == 1000
    assert got["first"] == {"deadlines": {"0": 31_000, "1": 21_000}, "deadline": 31_000}
    assert got["again"] == {"deadlines": {"0": 31_000, "1": 21_000}, "deadline": 31_000}
    assert got["moved"] == {"deadlines": {"0": 31_000, "1": 32_000}, "deadline": 31_000}
    assert got["paused"] == {"deadlines": {}, "deadline": None}
    page.close()
