// Guimenon's deck builder: browse the pool (filters by cost, Type and kind), build a deck with a live check of the
// deck rules (12+ cards, 1 copy of each, Beings and Items only), see the Moon curve, keep decks on the server
// (the platform's player data: GET/PUT/DELETE /api/me/games/guimenon/data/<key>, guests included) and share a deck
// by a short code. Served from the game's package at /games/guimenon/client/builder.html.
import { api, ensureSession, loadSession, savedName } from "/static/js/api.js";

const root = document.getElementById("builder");
const params = new URLSearchParams(location.search);
const lang = params.get("lang") === "en" ? "en" : "pt-BR";
document.documentElement.lang = lang;
let words = {};
const t = (key) => (key in words ? words[key] : key);
const fill = (text, values) => Object.entries(values).reduce((s, [k, v]) => s.replace(`{${k}}`, String(v)), text);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "testid") node.dataset.testid = value;
    else if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "style") Object.assign(node.style, value); // CSSOM: the page's CSP refuses style attributes
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "value") node.value = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** A deck as a short code: one bit per card of the pool, in base 36 ("G1-…"). */
export function deckCode(ids, pool) {
  let bits = 0n;
  pool.cards.forEach((card, i) => { if (ids.includes(card.id)) bits |= 1n << BigInt(i); });
  return `G1-${bits.toString(36)}`;
}

export function decodeDeck(code, pool) {
  const match = /^G1-([0-9a-z]+)$/.exec((code || "").trim().toLowerCase().replace(/^g1-/, "G1-"));
  if (!match) return null;
  let bits = 0n;
  for (const ch of match[1]) bits = bits * 36n + BigInt(parseInt(ch, 36));
  const ids = pool.cards.filter((_, i) => (bits >> BigInt(i)) & 1n).map((c) => c.id);
  return bits >> BigInt(pool.cards.length) ? null : ids;
}

function slug(name) {
  const base = name.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 36);
  return base || "deck";
}

async function main() {
  const [pool, catalogue] = await Promise.all([
    fetch("./cards.json").then((r) => r.json()),
    fetch(`/games/guimenon/i18n/${lang}.json`).then((r) => r.json()),
  ]);
  words = catalogue;
  document.title = t("guimenon.builder.title");
  const byId = new Map(pool.cards.map((c) => [c.id, c]));
  const state = { deck: [], filters: { cost: "", type: "", kind: "" }, saved: [], name: "" };

  const nick = el("input", { testid: "builder-nickname", value: savedName(), placeholder: t("guimenon.builder.nickname") });
  const select = (testid, options, onchange) => el("select", { testid, onchange },
    options.map(([value, label]) => el("option", { value, text: label })));
  const costs = [...new Set(pool.cards.map((c) => c.cost))].sort((a, b) => a - b);
  const filters = el("div", { class: "gm-actions" },
    el("label", {}, t("guimenon.builder.cost"), " ",
      select("builder-cost", [["", t("guimenon.builder.all")], ...costs.map((c) => [String(c), String(c)])],
        (e) => { state.filters.cost = e.target.value; draw(); })),
    el("label", {}, t("guimenon.builder.type"), " ",
      select("builder-type", [["", t("guimenon.builder.all")], ...pool.types.map((x) => [x, t(`guimenon.type.${x}`)])],
        (e) => { state.filters.type = e.target.value; draw(); })),
    el("label", {}, t("guimenon.builder.kind"), " ",
      select("builder-kind", [["", t("guimenon.builder.all")], ["ser", t("guimenon.kind.ser")], ["item", t("guimenon.kind.item")]],
        (e) => { state.filters.kind = e.target.value; draw(); })),
    el("label", {}, t("guimenon.builder.start_from"), " ",
      select("builder-ready", [["", "—"], ...pool.decks.map((d) => [d.id, t(`guimenon.deck.${d.id}`)])], (e) => {
        const ready = pool.decks.find((d) => d.id === e.target.value);
        if (ready) { state.deck = [...ready.cards]; state.name = t(`guimenon.deck.${ready.id}`); }
        draw();
      })));
  const poolBox = el("div", { class: "gm-hand", testid: "builder-pool" });
  const deckBox = el("div", { class: "gm-hand", testid: "builder-deck" });
  const status = el("p", { testid: "builder-status" });
  const curve = el("div", { class: "gm-curve", testid: "builder-curve" });
  const name = el("input", { testid: "builder-name", placeholder: t("guimenon.builder.name"),
    oninput: (e) => { state.name = e.target.value; } });
  const code = el("input", { testid: "builder-code", readonly: true });
  const importBox = el("input", { testid: "builder-import-code", placeholder: "G1-…" });
  const savedBox = el("ul", { testid: "builder-saved" });
  const message = el("p", { testid: "builder-message" });

  const frame = (card, onclick, testid) => el("div", {
    class: `gm-card ${card.kind === "ser" ? "gm-being" : "gm-item"} gm-playable`, testid, onclick,
    title: t(`guimenon.card.${card.id}.text`), "data-card": card.id,
  },
  el("div", { class: "gm-cardtop" }, el("span", { class: "gm-cost", text: String(card.cost) }),
    el("span", { class: "gm-cardname", text: t(`guimenon.card.${card.id}`) }),
    card.kind === "ser" ? el("span", { class: "gm-star", text: `${card.stars}★` }) : null),
  el("div", { class: "gm-types", text: card.types.map((x) => t(`guimenon.type.${x}`)).join(" · ") }),
  el("div", { class: "gm-text", text: t(`guimenon.card.${card.id}.text`) }));

  async function refreshSaved() {
    try {
      const data = await api("GET", "/me/games/guimenon/data");
      state.saved = data.items || [];
    } catch {
      state.saved = [];
    }
    draw();
  }

  async function save() {
    message.textContent = "";
    try {
      await ensureSession(nick.value.trim());
      const deckName = (state.name || "").trim() || "Deck";
      await api("PUT", `/me/games/guimenon/data/${slug(deckName)}`, { value: { name: deckName, cards: state.deck } });
      await refreshSaved();
    } catch (error) {
      message.textContent = error.message;
    }
  }

  function draw() {
    const f = state.filters;
    poolBox.replaceChildren(...pool.cards
      .filter((c) => (f.cost === "" || String(c.cost) === f.cost) && (f.type === "" || c.types.includes(f.type))
        && (f.kind === "" || c.kind === f.kind) && !state.deck.includes(c.id))
      .sort((a, b) => a.cost - b.cost || a.id.localeCompare(b.id))
      .map((c) => frame(c, () => { state.deck.push(c.id); draw(); }, `builder-pool-${c.id}`)));
    const cards = state.deck.map((id) => byId.get(id)).filter(Boolean).sort((a, b) => a.cost - b.cost || a.id.localeCompare(b.id));
    deckBox.replaceChildren(...cards.map((c) => frame(c, () => {
      state.deck = state.deck.filter((x) => x !== c.id);
      draw();
    }, `builder-deck-${c.id}`)));
    const missing = pool.min_deck - cards.length;
    status.textContent = missing > 0
      ? fill(t("guimenon.builder.short"), { count: cards.length, missing, min: pool.min_deck })
      : fill(t("guimenon.builder.valid"), { count: cards.length });
    status.dataset.valid = missing > 0 ? "0" : "1";
    const most = Math.max(1, ...costs.map((c) => cards.filter((x) => x.cost === c).length));
    curve.replaceChildren(...costs.map((c) => {
      const n = cards.filter((x) => x.cost === c).length;
      return el("div", { class: "gm-bar", testid: `builder-curve-${c}`, "data-count": n },
        el("span", { class: "gm-barfill", style: { height: `${Math.round((60 * n) / most)}px` } }), el("small", { text: `${c}: ${n}` }));
    }));
    name.value = state.name;
    code.value = deckCode(state.deck, pool);
    saveButton.disabled = missing > 0;
    savedBox.replaceChildren(...state.saved.map((item) => el("li", { testid: `builder-saved-${item.key}` },
      `${item.value.name} (${item.value.cards.length}) `,
      el("button", { testid: `builder-open-${item.key}`, text: t("guimenon.builder.load"),
        onclick: () => { state.deck = [...item.value.cards]; state.name = item.value.name; draw(); } }),
      el("button", { testid: `builder-delete-${item.key}`, text: t("guimenon.builder.delete"),
        onclick: async () => { await api("DELETE", `/me/games/guimenon/data/${item.key}`); await refreshSaved(); } }))));
  }

  const saveButton = el("button", { testid: "builder-save", text: t("guimenon.builder.save"), onclick: save });
  const importButton = el("button", { testid: "builder-import", text: t("guimenon.builder.import"), onclick: () => {
    const ids = decodeDeck(importBox.value, pool);
    message.textContent = ids ? "" : t("guimenon.builder.bad_code");
    if (ids) { state.deck = ids; draw(); }
  } });
  root.append(
    el("h1", { text: t("guimenon.builder.title") }),
    el("div", { class: "gm-actions" }, nick),
    filters,
    el("h2", { text: t("guimenon.builder.deck") }), status, curve, deckBox,
    el("div", { class: "gm-actions" }, name, saveButton),
    el("div", { class: "gm-actions" }, el("label", {}, t("guimenon.builder.code"), " ", code), importBox, importButton),
    message,
    el("h3", { text: t("guimenon.builder.saved") }), savedBox,
    el("h2", { text: t("guimenon.builder.pool") }), poolBox);
  draw();
  if (await loadSession().catch(() => null)) await refreshSaved();
  document.body.dataset.ready = "1";
}

main();
