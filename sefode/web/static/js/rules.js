// Rules pages: every game's pages (`rules` in /api/games; a game with variants has one per variant), fetched from
// GET /api/rules/{page}?lang=… as Markdown and rendered by our own small renderer.
import { api } from "./api.js";
import { h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";
import { gameTitle, loadGames, matchTitle } from "./games.js";
import { renderMarkdown } from "./markdown.js";

/** Every rules page with its title: [{page, title, game}]. */
async function rulesPages() {
  let games = [];
  try {
    games = await loadGames();
  } catch {
    games = [];
  }
  const out = [];
  for (const spec of games) {
    for (const page of spec.rules || []) {
      const variant = (spec.variants || []).find((v) => v.rules === page);
      out.push({ page, game: spec.name, title: variant ? matchTitle(spec, { variant: variant.id }) : gameTitle(spec) });
    }
  }
  return out;
}

export async function renderRules(ctx, wanted) {
  const pages = await rulesPages();
  const page = wanted || (pages.length ? pages[0].page : "");
  const tabs = h(
    "nav",
    { class: "tabs", "aria-label": t("rules.title") },
    pages.map((p) =>
      h("a", { href: `/rules/${encodeURIComponent(p.page)}`, "data-link": true, class: p.page === page ? "active" : "", testid: `rules-tab-${p.page}` }, p.title),
    ),
  );
  const body = h("article", { class: "rules markdown", testid: "rules-body" }, h("p", { class: "muted" }, t("common.loading")));
  ctx.app.append(h("section", { class: "page rules-page" }, h("h1", {}, t("rules.title")), tabs, body));
  if (!page) {
    body.replaceChildren(h("p", { class: "error" }, t("rules.unavailable")));
    return;
  }
  try {
    const data = await api("GET", `/rules/${encodeURIComponent(page)}?lang=${encodeURIComponent(currentLang())}`);
    const text = typeof data === "string" ? data : data.markdown || data.text || "";
    body.replaceChildren(renderMarkdown(text));
  } catch (error) {
    body.replaceChildren(h("p", { class: "error" }, t("rules.unavailable"), " ", errorText(error)));
  }
}
