"""Rematch and reactions in the page, with two players in an invite room: a decline holds the rematch back and is
shown; both pressing "Revanche" starts the next match with the same seats; a reaction and a chat message show as a
bubble at the sender's seat on the other player's page, and the unread chat count shows on the phone during play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from .conftest import DESKTOP, MOBILE, Server
from .helpers import Client, catalogue, create_invite_room, open_client, play_until_over, shoot, start_at, wait_ready

PT = catalogue("pt-BR")
SIZES: tuple[ViewportSize, ...] = (MOBILE, {"width": 1366, "height": 800})
SEED = 2
"""The first match's deal (as in test_private_room: with one life each it ends within a hand or two)."""


def _join_by_invite(client: Client, invite_url: str, name: str) -> None:
    page = client.page
    page.goto(invite_url)
    wait_ready(page)
    page.get_by_test_id("nickname").fill(name)
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()


@pytest.mark.slow
def test_rematch_vote_decline_then_accept_and_reactions_at_the_senders_seat(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(5)
    ana = open_client(browser, shared_server.url, MOBILE)
    bia = open_client(browser, shared_server.url, DESKTOP)
    for client in (ana, bia):
        client.page.emulate_media(reduced_motion="reduce")
    start_at(ana.page, {"seed": SEED, "actions": []})
    invite_url = create_invite_room(ana.page, "Ana", "Mesa da revanche", players=2, lives=1)
    _join_by_invite(bia, invite_url, "Bia")
    bia.page.get_by_test_id("sit-1").click()
    expect(ana.page.get_by_test_id("seat-row-1")).to_contain_text("Bia")
    ana.page.get_by_test_id("start-match").click()
    for client in (ana, bia):
        expect(client.page.get_by_test_id("table")).to_be_visible()

    # A reaction from Ana shows at Ana's seat (seat 0) on Bia's page, and on her own.
    ana.page.get_by_test_id("reactions-open").click()
    expect(ana.page.get_by_test_id("reaction-picker")).to_be_visible()
    expect(ana.page.get_by_test_id("react-sefodeu")).to_be_focused()  # the picker takes the keyboard
    ana.page.get_by_test_id("react-sefodeu").click()
    bubble = bia.page.get_by_test_id("seat-0").get_by_test_id("bubble-0")
    expect(bubble).to_have_text(PT["reaction.sefodeu"])
    expect(ana.page.get_by_test_id("seat-0").get_by_test_id("bubble-0")).to_have_text(PT["reaction.sefodeu"])
    expect(bia.page.get_by_test_id("seat-1").get_by_test_id("bubble-1")).to_have_count(0)
    shoot(bia.page, artifacts, "01-reaction-bubble", SIZES)

    # Bia's chat message: a bubble at Bia's seat on Ana's phone, and the unread count beside the table.
    bia.page.get_by_test_id("tab-chat").click()
    bia.page.get_by_test_id("chat-input").fill("agora vai")
    bia.page.get_by_test_id("chat-send").click()
    expect(ana.page.get_by_test_id("seat-1").get_by_test_id("bubble-1")).to_have_text("agora vai")
    expect(ana.page.get_by_test_id("chat-unread")).to_have_text("1")
    expect(ana.page.get_by_test_id("chat-unread-head")).to_have_text(f"{PT['tab.chat']}1")
    expect(ana.page.get_by_test_id("chat-unread-head")).to_be_in_viewport()
    shoot(ana.page, artifacts, "02-chat-bubble", SIZES)

    # Ana turns reactions off: Bia's reaction no longer shows on her page (it still does on Bia's).
    ana.page.get_by_test_id("reactions-toggle").click()
    expect(ana.page.get_by_test_id("reactions-toggle")).to_have_attribute("aria-pressed", "false")
    expect(ana.page.get_by_test_id("reactions-open")).to_have_count(0)
    bia.page.get_by_test_id("reactions-open").click()
    bia.page.get_by_test_id("react-clap").click()
    expect(bia.page.get_by_test_id("seat-1").get_by_test_id("bubble-1")).to_have_text(PT["reaction.clap"])
    bia.page.get_by_test_id("chat-input").fill("viu?")
    bia.page.get_by_test_id("chat-send").click()
    expect(ana.page.get_by_test_id("chat-unread")).to_have_text("2")  # the reaction came before this message
    expect(ana.page.locator("[data-kind=reaction]")).to_have_count(0)
    ana.page.get_by_test_id("reactions-toggle").click()
    expect(ana.page.get_by_test_id("reactions-open")).to_be_visible()

    play_until_over([ana, bia], rng)

    # The group's running score (issue 23, progress for small groups): Ana and Bia, one match together so far.
    for client in (ana, bia):
        group = client.page.get_by_test_id("end-group")
        expect(group).to_contain_text(PT["prof.group_matches.one"].replace("{count}", "1"))
        expect(group.locator("li")).to_have_count(2)
    # The end-of-match card offers the rematch to both; Ana accepts, Bia declines: no match starts.
    for client in (ana, bia):
        expect(client.page.get_by_test_id("rematch")).to_be_visible()
        expect(client.page.get_by_test_id("rematch-accept")).to_have_text(PT["rematch.accept"])
    ana.page.get_by_test_id("rematch-accept").click()
    expect(bia.page.get_by_test_id("rematch-voter-0")).to_have_attribute("data-vote", "accepted")
    expect(ana.page.get_by_test_id("rematch-accept")).to_be_disabled()
    bia.page.get_by_test_id("reactions-open").click()
    bia.page.get_by_test_id("react-gg").click()
    expect(ana.page.get_by_test_id("end-overlay").get_by_test_id("bubble-1")).to_have_text(PT["reaction.gg"])
    shoot(ana.page, artifacts, "03-end-card-rematch-votes", SIZES)
    bia.page.get_by_test_id("rematch-decline").click()
    declined = PT["rematch.declined_by"].replace("{names}", "Bia")
    expect(ana.page.get_by_test_id("rematch-status")).to_have_text(declined)
    expect(ana.page.get_by_test_id("rematch-voter-1")).to_have_attribute("data-vote", "declined")
    expect(bia.page.get_by_test_id("rematch-status")).to_have_text(declined)
    expect(ana.page.get_by_test_id("room-status")).to_have_text(PT["room.status_waiting"])
    shoot(bia.page, artifacts, "04-end-card-declined", SIZES)

    # Ana closes the card: the vote is in the room's panel too. Bia changes her mind: the rematch starts.
    ana.page.get_by_test_id("end-close").click()
    expect(ana.page.get_by_test_id("seating-rematch")).to_be_visible()
    bia.page.get_by_test_id("rematch-accept").click()
    for client in (ana, bia):
        expect(client.page.get_by_test_id("room-status")).to_have_text(PT["room.status_playing"])
        expect(client.page.get_by_test_id("end-overlay")).to_be_hidden()
        expect(client.page.get_by_test_id("seat-0")).to_contain_text("Ana")
        expect(client.page.get_by_test_id("seat-1")).to_contain_text("Bia")
    expect(ana.page.get_by_test_id("seating-rematch")).to_have_count(0)
    for client in (ana, bia):
        assert client.errors == []
