"""The client's texts: both catalogues hold the same keys (the page's, and each game's), every key the shell uses is in
the page's catalogue and every key a game's module uses is in its own or the page's, and the rules pages' small
Markdown renderer draws headings, paragraphs, lists, tables, bold and italic."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, Route, expect

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


def test_rules_markdown_renderer_draws_headings_lists_tables_and_emphasis(browser: Browser, server: Server) -> None:
    client = open_client(browser, server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
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
            "[regras](/rules/7letras) <script>alert(1)</script>",
        ]
    )
    html = page.evaluate(
        """async (text) => {
          const { renderMarkdown } = await import('/static/js/markdown.js');
          const box = document.createElement('div');
          box.appendChild(renderMarkdown(text));
          return box.innerHTML;
        }""",
        markdown,
    )
    assert isinstance(html, str)
    assert "<h1>Se Fode</h1>" in html and "<h2>Manilhas</h2>" in html
    assert "<p>Um <strong>jogo</strong> de <em>vazas</em> com <em>manilhas</em> e <code>4c</code>. continua" in html
    assert "<ul><li>4c, o <strong>zap de paus</strong></li><li>7h<ul><li>copas</li></ul></li></ul>" in html
    assert "<ol><li>primeiro</li><li>segundo</li></ol>" in html
    assert "<th>carta</th>" in html and '<td style="text-align: right;">2</td>' in html
    assert "<blockquote><p>vale 2</p></blockquote>" in html
    assert '<a href="/rules/7letras" rel="noopener">regras</a>' in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    client.close()


def test_language_switch_turns_the_home_page_to_english_and_back(browser: Browser, server: Server) -> None:
    client = open_client(browser, server.url)
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


def test_rules_page_renders_the_markdown_the_api_serves_for_each_variant(browser: Browser, server: Server) -> None:
    client = open_client(browser, server.url)
    page = client.page
    served: list[str] = []

    def fake_rules(route: Route) -> None:
        url = urlsplit(route.request.url)
        variant = url.path.rsplit("/", 1)[1]
        assert parse_qs(url.query).get("lang") == ["pt-BR"], "the rules page asks in the page's language"
        served.append(variant)
        route.fulfill(
            status=200,
            content_type="text/markdown; charset=utf-8",
            body=f"# Regras {variant}\n\n| carta | força |\n| --- | --- |\n| 4c | **zap** |\n",
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
    browser: Browser, server: Server, artifacts: Path
) -> None:
    client = open_client(browser, server.url)
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
