"""The end-of-match card links to the history of the match that ended, before its ``match_end`` comes too.

Seen in a loaded run of the tournament pages: a match shown as over by its last state, whose ``match_end`` had not come
yet, got the download link (and the names kept for the replay page) of the room's ``last_match``, which was still the
match before it; the replay of that link gave other places than the card showed."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from .conftest import Server

DRAW = """async ({ matchEnded, lastMatch }) => {
  const { createEndOverlay } = await import('/static/js/room-overlay.js');
  const state = { match_id: 'm-three', seat: 0, view: { over: true } };
  const url = '/api/matches/m-three/history';
  const ended = matchEnded ? { match_id: 'm-three', placements: [2, 1], history_url: url } : null;
  const model = {
    state,
    room: { id: 'r', seats: [{ player_id: 'p0' }, { player_id: 'p1' }], last_match: lastMatch, match: null },
    spec: { name: 'fodinha' },
    mod: null,
    mySeat: () => 0,
    seatedHere: () => true,
    matchEndFor: () => ended,
    endResult: () => ({ placements: [2, 1] }),
  };
  const overlay = createEndOverlay({
    model,
    main: document.createElement('main'),
    send: () => {},
    social: { bar: () => null, attach: () => {} },
    coach: { panel: () => null },
    gameCtx: () => ({}),
    onClose: () => {},
  });
  document.body.append(overlay.element);
  overlay.draw();
  const href = overlay.element.querySelector('[data-testid=download-history]').getAttribute('href');
  overlay.element.remove();
  return href;
}"""


def _href(browser: Browser, server: Server, ended: bool, last_match: dict[str, Any] | None) -> str:
    page = browser.new_page()
    try:
        page.goto(f"{server.url}/")
        page.wait_for_selector("body[data-ready='1']")
        return str(page.evaluate(DRAW, {"matchEnded": ended, "lastMatch": last_match}))
    finally:
        page.close()


def test_the_end_card_links_to_the_match_that_ended_even_before_its_match_end(
    browser: Browser, shared_server: Server
) -> None:
    before = {"id": "m-two", "history_url": "/api/matches/m-two/history"}
    # The last state says the match is over; match_end has not come, and the room's last match is the one before.
    assert _href(browser, shared_server, False, before) == "/api/matches/m-three/history"
    # Once the room's last match is this one, or match_end came, their link is used.
    this = {"id": "m-three", "history_url": "/api/matches/m-three/history"}
    assert _href(browser, shared_server, False, this) == "/api/matches/m-three/history"
    assert _href(browser, shared_server, True, before) == "/api/matches/m-three/history"
