"""The client's texts: both catalogues hold the same keys (the page's, and each game's), every key the shell uses is in
the page's catalogue and every key a game's module uses is in its own or the page's, and the rules pages (rendered
by the server with markdown-it-py) are drawn with headings, paragraphs, lists, tables, bold and italic, raw HTML
escaped."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, Route, expect

from sefode.server.reactions import REACTIONS
from sefode.server.routes.games import render_markdown

from .conftest import Server
from .helpers import open_client, shoot, wait_ready

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "sefode" / "web" / "static"
GAMES = sorted(p.parent for p in ROOT.glob("sefode/games/*/i18n"))
# Keys built from a template in the code, with every value the template can take.
TEMPLATES = {
    "level.": ["easy", "normal", "hard"],
    "rank.": list("4567QJKA23") + list("89T"),
    "suit.": list("chsd"),
    "tab.": ["score", "chat", "log", "room"],
    "create.visibility_": ["public", "password", "invite"],
    "reaction.": list(REACTIONS),
    "reaction_label.": list(REACTIONS),
    "rematch.vote_": ["accepted", "declined", "waiting"],
    "mod.action.": [
        *("mute", "unmute", "kick", "ban", "unban"),
        *("close_room", "rename_room", "rename_player", "close_report"),
    ],
}


def _load(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


def _catalogue(name: str) -> dict[str, str]:
    return _load(STATIC / "i18n" / f"{name}.json")


def _keys_in(paths: list[Path]) -> set[str]:
    keys: set[str] = set()
    for path in paths:
        source = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\bt\(\s*\"([a-z0-9_./]+)\"", source))
        for key in re.findall(r"\btn\(\s*\"([a-z0-9_.]+)\"", source):
            keys |= {f"{key}.one", f"{key}.other"}
        keys |= set(re.findall(r"\bi18n: \"([a-z0-9_.]+)\"", source))
        # A module's own panes name their tab with a catalogue key.
        keys |= set(re.findall(r"\btitle: \"([a-z0-9_.]+)\"", source))
        for prefix in re.findall(r"\bt\(`([a-z0-9_.]+)\$\{", source):
            game = prefix.split(".")[0]
            if prefix not in TEMPLATES and (ROOT / "sefode" / "games" / game / "i18n").is_dir():
                # A game's keys made from its own data (a card's name by its id): its catalogue has that family of
                # keys, and the game's own tests check the family is complete (tests/test_guimenon_pages.py).
                own = _load(ROOT / "sefode" / "games" / game / "i18n" / "pt-BR.json")
                family = [k for k in own if k.startswith(prefix)]
                assert family, f"{path.name}: no key of the family {prefix}… in {game}'s catalogue"
                continue
            assert prefix in TEMPLATES, f"{path.name}: template key {prefix}… has no list of values in this test"
            keys |= {prefix + value for value in TEMPLATES[prefix]}
    return keys


def _used_keys() -> set[str]:
    keys = _keys_in(sorted((STATIC / "js").glob("*.js")))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([a-z0-9_.]+)"', html))
    return keys


def _same_keys(pt: dict[str, str], en: dict[str, str]) -> None:
    assert set(pt) == set(en)
    for key in pt:
        assert set(re.findall(r"\{(\w+)\}", pt[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_catalogues_pt_br_and_en_have_the_same_keys() -> None:
    _same_keys(_catalogue("pt-BR"), _catalogue("en"))
    assert GAMES, "the built-in games bring their own catalogues"
    for game in GAMES:
        _same_keys(_load(game / "i18n" / "pt-BR.json"), _load(game / "i18n" / "en.json"))


def test_every_text_the_client_uses_is_in_the_catalogues() -> None:
    used = _used_keys()
    assert len(used) > 150
    missing = sorted(used - set(_catalogue("pt-BR")))
    assert missing == []
    # A game's module may use the page's keys and its own game's, never another game's.
    for game in GAMES:
        module = sorted((game / "client").glob("**/*.js"))
        assert module, f"{game.name} has a browser module"
        used = _keys_in(module)
        assert len(used) > 10, f"{game.name}: the key scan found too few keys"
        known = set(_catalogue("pt-BR")) | set(_load(game / "i18n" / "pt-BR.json"))
        assert sorted(used - known) == [], game.name


def test_page_shell_has_no_hard_coded_text_outside_the_catalogues() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    body = re.sub(r"<noscript>.*?</noscript>", "", html.split("<body>", 1)[1], flags=re.S)
    text = re.sub(r"<[^>]+>", " ", body)
    assert text.split() == []


def test_rules_html_from_the_server_is_drawn_with_headings_lists_tables_and_emphasis(
    browser: Browser, shared_server: Server
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    markdown = "\n".join(
        [
            "# Se Fode",
            "",
            "Um **jogo** de *vazas* com _manilhas_ e `4c`.",
            "continua no mesmo parágrafo.",
            "",
            "## Manilhas",
            "",
            "- 4c, o **zap",
            "  de paus**",
            "- 7h",
            "  - copas",
            "",
            "1. primeiro",
            "2. segundo",
            "",
            "| carta | força |",
            "| --- | ---: |",
            "| 4c | 1 |",
            "| 7h | 2 |",
            "",
            "> vale 2",
            "",
            "[regras](/rules/7letras) [x](javascript:alert(1)) <script>alert(1)</script> <img src=x onerror=alert(1)>",
        ]
    )
    served = render_markdown(markdown)  # the server's renderer (markdown-it-py)

    def fake_rules(route: Route) -> None:
        assert parse_qs(urlsplit(route.request.url).query).get("format") == ["html"]
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=served)

    page.route("**/api/rules/*", fake_rules)
    page.goto("/rules/sefode")
    wait_ready(page)
    body = page.get_by_test_id("rules-body")
    expect(body.locator("h1")).to_have_text("Se Fode")
    html = body.evaluate("el => el.innerHTML")
    assert isinstance(html, str)
    assert "<h1>Se Fode</h1>" in html and "<h2>Manilhas</h2>" in html
    assert "<p>Um <strong>jogo</strong> de <em>vazas</em> com <em>manilhas</em> e <code>4c</code>." in html
    assert "<strong>zap\nde paus</strong>" in html or "<strong>zap de paus</strong>" in html
    assert body.locator("ul > li > ul > li").inner_text() == "copas"
    assert body.locator("ol > li").all_inner_texts() == ["primeiro", "segundo"]
    compact = html.replace(": ", ":").replace(";", "")
    # A column's alignment is a class (the page's CSP refuses inline styles).
    assert "<th>carta</th>" in html and '<td class="align-right">2</td>' in compact and "style=" not in html
    assert body.locator("blockquote p").inner_text() == "vale 2"
    link = body.locator("a", has_text="regras")
    assert link.get_attribute("href") == "/rules/7letras" and link.get_attribute("rel") == "noopener"
    assert body.locator("a[href^='javascript']").count() == 0
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert body.locator("img").count() == 0
    assert client.errors == []
    client.close()


def test_language_switch_turns_the_home_page_to_english_and_back(browser: Browser, shared_server: Server) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    pt, en = _catalogue("pt-BR"), _catalogue("en")
    assert page.get_by_test_id("solo-start").inner_text() == pt["home.solo_start"]
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.get_by_test_id("solo-start").inner_text() == en["home.solo_start"]
    page.reload()
    wait_ready(page)
    assert page.get_by_test_id("solo-start").inner_text() == en["home.solo_start"]
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function("() => document.documentElement.lang === 'pt-BR'")
    assert page.get_by_test_id("solo-start").inner_text() == pt["home.solo_start"]
    assert client.errors == []
    client.close()


def test_rules_page_renders_the_markdown_the_api_serves_for_each_variant(
    browser: Browser, shared_server: Server
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    served: list[str] = []

    def fake_rules(route: Route) -> None:
        url = urlsplit(route.request.url)
        variant = url.path.rsplit("/", 1)[1]
        assert parse_qs(url.query).get("lang") == ["pt-BR"], "the rules page asks in the page's language"
        assert parse_qs(url.query).get("format") == ["html"], "the rules page asks for the server's HTML"
        served.append(variant)
        route.fulfill(
            status=200,
            content_type="text/html; charset=utf-8",
            body=f"<h1>Regras {variant}</h1>\n<table><thead><tr><th>carta</th><th>força</th></tr></thead>"
            "<tbody><tr><td>4c</td><td><strong>zap</strong></td></tr></tbody></table>\n",
        )

    page.route("**/api/rules/*", fake_rules)
    page.goto("/rules/sefode")
    wait_ready(page)
    body = page.get_by_test_id("rules-body")
    expect(body.locator("h1")).to_have_text("Regras sefode")
    expect(body.locator("td strong")).to_have_text("zap")
    page.get_by_test_id("rules-tab-7letras").click()
    expect(body.locator("h1")).to_have_text("Regras 7letras")
    assert page.url.endswith("/rules/7letras")
    assert served == ["sefode", "7letras"]
    client.close()


def test_rules_pages_of_both_variants_render_without_markdown_left_over(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    for variant in ("sefode", "7letras"):
        page.goto(f"/rules/{variant}")
        wait_ready(page)
        body = page.get_by_test_id("rules-body")
        expect(body.locator("h1")).to_have_count(1)
        assert body.locator("li").count() > 5
        text = body.inner_text()
        assert "**" not in text and "| ---" not in text
        shoot(page, artifacts, f"rules-{variant}")
    assert client.errors == []
    client.close()


def test_rules_page_follows_the_language_switch(browser: Browser, shared_server: Server) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/rules/sefode")
    wait_ready(page)
    body = page.get_by_test_id("rules-body")
    expect(body.locator("h1")).to_have_count(1)
    pt_title = body.locator("h1").inner_text()
    assert body.get_attribute("lang") == "pt-BR"
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    expect(body.locator("h1")).to_have_count(1)
    expect(page.get_by_test_id("rules-body")).to_have_attribute("lang", "en")
    en_title = page.get_by_test_id("rules-body").locator("h1").inner_text()
    source = (ROOT / "sefode/games/fodinha/rules/sefode.en.md").read_text(encoding="utf-8")
    english = source.splitlines()[0].lstrip("# ")
    assert en_title == english and en_title != pt_title
    assert client.errors == []
    client.close()
