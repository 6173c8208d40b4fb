// Rules pages: every game's pages (`rules` in /api/games; a game with variants has one per variant), fetched from
// GET /api/rules/{page}?lang=…&format=html, rendered on the server by markdown-it-py (raw HTML escaped). The page
// builds its DOM from that HTML with DOMParser, copying only plain document elements and a few attributes into new
// elements (never innerHTML, never an inline style: a table column's alignment comes as a class, `align-right`).
import { api } from "./api.js";
import { h } from "./dom.js";
import { currentLang, errorText, t } from "./i18n.js";
import { gameTitle, loadGames, matchTitle } from "./games.js";

/** Elements a rules page may hold; anything else is dropped (its text kept). */
const ALLOWED = new Set("a b blockquote br code del em h1 h2 h3 h4 h5 h6 hr i li ol p pre s strong sub sup table tbody td th thead tr ul".split(" "));
const ATTRS = { a: ["href", "title"], td: ["class"], th: ["class"], ol: ["start"] };

/** A safe copy of parsed HTML: allowed elements and attributes only, links to http(s) or this site only. */
function clean(node, doc) {
  if (node.nodeType === Node.TEXT_NODE) return doc.createTextNode(node.textContent);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const tag = node.tagName.toLowerCase();
  const children = [...node.childNodes].map((c) => clean(c, doc)).filter(Boolean);
  if (!ALLOWED.has(tag)) {
    if (tag === "script" || tag === "style") return null;
    const frag = doc.createDocumentFragment();
    frag.append(...children);
    return frag;
  }
  // A new element with the allowed attributes only: copying the parsed one (importNode) would bring its other
  // attributes into this page, even for a moment (an inline style is a CSP violation the browser reports).
  const el = doc.createElement(tag);
  for (const attr of [...node.attributes]) {
    const keep = (ATTRS[tag] || []).includes(attr.name);
    const value = attr.value.trim();
    const safe = attr.name === "href" ? /^(https?:|\/|#)/i.test(value) : attr.name === "class" ? /^align-(left|right|center)$/.test(value) : true;
    if (keep && safe) el.setAttribute(attr.name, value);
  }
  if (tag === "a") el.setAttribute("rel", "noopener");
  if (tag === "a" && /^\/(?!\/)/.test(el.getAttribute("href") || "")) el.setAttribute("data-link", "");
  el.append(...children);
  if (tag === "table") {
    const wrap = doc.createElement("div");
    wrap.className = "table-scroll";
    wrap.tabIndex = 0; // a wide table scrolls sideways: reachable with the keyboard too
    wrap.append(el);
    return wrap;
  }
  return el;
}

/** The server's HTML for a rules page as DOM nodes of this document. */
export function rulesHtml(html) {
  const parsed = new DOMParser().parseFromString(String(html), "text/html");
  const frag = document.createDocumentFragment();
  for (const child of [...parsed.body.childNodes]) {
    const node = clean(child, document);
    if (node) frag.append(node);
  }
  return frag;
}

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
    const data = await api("GET", `/rules/${encodeURIComponent(page)}?lang=${encodeURIComponent(currentLang())}&format=html`);
    const html = typeof data === "string" ? data : data.html || "";
    body.replaceChildren(rulesHtml(html));
    body.lang = currentLang();
  } catch (error) {
    body.replaceChildren(h("p", { class: "error" }, t("rules.unavailable"), " ", errorText(error)));
  }
}
