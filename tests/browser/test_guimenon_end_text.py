"""The end-of-match card's words follow docs/rulings.md §4.9: more Locations controlled wins (1 against none counts);
the total Stars only when both control as many Locations; else a draw. ``endText`` of the Guimenon module, called in
the page with boards of each kind, in the catalogue's player words."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from .conftest import Server
from .helpers import open_client, wait_ready

END_TEXT = """async (view) => {
  const games = await import('/static/js/games.js');
  const mod = await games.gameModule(await games.gameSpec('guimenon'));
  return mod.endText(view, (s) => ['Ana', 'Bia'][s]);
}"""


def board(control: list[int | None], stars: list[tuple[int, int]]) -> dict[str, Any]:
    return {"control": control, "board": [{"stars": list(s)} for s in stars]}


def test_end_text_one_location_against_none_is_a_win_by_locations(browser: Browser, shared_server: Server) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    one_to_none = page.evaluate(END_TEXT, board([0, None, None], [(3, 3), (0, 0), (0, 0)]))
    assert one_to_none == "Ana venceu controlando mais Locais: 1 dos 3.", "1 Location against none wins, on equal Stars"
    two = page.evaluate(END_TEXT, board([1, 1, 0], [(2, 5), (0, 4), (9, 0)]))
    assert two == "Bia venceu controlando mais Locais: 2 dos 3.", "2 Locations win, whatever the Stars (11 to 9)"
    stars = page.evaluate(END_TEXT, board([0, 1, None], [(7, 0), (0, 3), (1, 1)]))
    assert stars.startswith("Ana venceu pelo total de Estrelas (8★ a 4★)"), "1 each: the total Stars"
    draw = page.evaluate(END_TEXT, board([None, None, None], [(2, 2), (0, 0), (1, 1)]))
    assert draw.startswith("Empate:") and "3★" in draw
    assert client.errors == []
    client.close()
