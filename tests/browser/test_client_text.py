"""The client's texts: both catalogues hold the same keys, every key the client uses exists, and the rules pages'
small Markdown renderer draws headings, paragraphs, lists, tables, bold and italic."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Route, expect

from .conftest import Server
from .helpers import open_client, shoot, wait_ready

STATIC = Path(__file__).resolve().parents[2] / "sefode" / "web" / "static"
# Keys built from a template in the code, with every value the template can take.
TEMPLATES = {
    "variant.": ["sefode", "7letras"],
    "level.": ["easy", "normal", "hard"],
    "rank.": list("4567QJKA23"),
    "suit.": list("chsd"),
    "tab.": ["score", "tricks", "chat", "log", "room"],
    "create.visibility_": ["public", "password", "invite"],
}


def _catalogue(name: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


def _used_keys() -> set[str]:
    keys: set[str] = set()
    for path in (STATIC / "js").glob("*.js"):
        source = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\bt\(\s*\"([a-z0-9_./]+)\"", source))
        for key in re.findall(r"\btn\(\s*\"([a-z0-9_.]+)\"", source):
            keys |= {f"{key}.one", f"{key}.other"}
        keys |= set(re.findall(r"\bi18n: \"([a-z0-9_.]+)\"", source))
        for prefix in re.findall(r"\bt\(`([a-z0-9_.]+)\$\{", source):
            assert prefix in TEMPLATES, f"{path.name}: template key {prefix}… has no list of values in this test"
            keys |= {prefix + value for value in TEMPLATES[prefix]}
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([a-z0-9_.]+)"', html))
    return keys


def test_catalogues_pt_br_and_en_have_the_same_keys() -> None:
    pt, en = _catalogue("pt-BR"), _catalogue("en")
    assert set(pt) == set(en)
    for key in pt:
        assert set(re.findall(r"\{(\w+)\}", pt[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_every_text_the_client_uses_is_in_the_catalogues() -> None:
    used = _used_keys()
    assert len(used) > 150
    missing = sorted(used - set(_catalogue("pt-BR")))
    assert missing == []


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
        variant = route.request.url.rsplit("/", 1)[1]
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
