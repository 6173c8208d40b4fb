// Guimenon's deck builder, a page of the shell (`/games/guimenon/decks`: the module's `pages.decks`, drawn under the
// page's header with its language switch and way home). Browse and filter the pool (cost, Type, kind), build a deck
// with a live check of the deck rules (12+ cards, 1 copy of each, Beings and Items only), see the Moon curve, keep
// decks on the server (the platform's player data: GET/PUT/DELETE /api/me/games/guimenon/data/<key>, guests
// included), and share a deck by a short code with a check at its end, so that a mistyped code is refused and the
// deck on screen stays as it was.
import { api, currentPlayer, ensureSession, loadSession, savedName } from "/static/js/api.js";
import { copyText, h } from "/static/js/dom.js";
import { errorText, t } from "/static/js/i18n.js";

const fill = (text, values) => Object.entries(values).reduce((s, [k, v]) => s.split(`{${k}}`).join(String(v)), text);

// ---- the share code: "G2-" + the deck as one bit per card of the pool (base 36) + 2 check characters
const CHECK_MOD = 1291; // a prime below 36²: any one wrong character, or two neighbours swapped, changes the check

function checkOf(body) {
  let sum = 0;
  for (const ch of body) sum = (sum * 31 + parseInt(ch, 36) + 1) % CHECK_MOD;
  return sum.toString(36).padStart(2, "0");
}

/** A deck as a short code ("G2-…"): one bit per card of the pool in base 36, then two check characters. */
export function deckCode(ids, pool) {
  let bits = 0n;
  pool.cards.forEach((card, i) => {
    if (ids.includes(card.id)) bits |= 1n << BigInt(i);
  });
  const body = bits.toString(36);
  return `G2-${body}${checkOf(body)}`;
}

/** The card ids a code stands for, or null when it is not a whole, correct code of a deck of this pool. */
export function decodeDeck(code, pool) {
  const text = String(code || "").replace(/\s+/g, "").toLowerCase();
  const match = /^g2-([0-9a-z]+)([0-9a-z]{2})$/.exec(text);
  if (!match) return null;
  const [, body, check] = match;
  if (checkOf(body) !== check) return null;
  let bits = 0n;
  for (const ch of body) bits = bits * 36n + BigInt(parseInt(ch, 36));
  if (bits >> BigInt(pool.cards.length)) return null;
  const ids = pool.cards.filter((_, i) => (bits >> BigInt(i)) & 1n).map((c) => c.id);
  return ids.length ? ids : null;
}

function slug(name) {
  const base = name.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 36);
  return base || "deck";
}

// What the player is building survives a language switch or a visit to another page (not a reload: the saved
// decks are for that).
const state = { deck: [], filters: { cost: "", type: "", kind: "" }, saved: [], name: "", importText: "" };
let poolPromise = null;

function loadPool() {
  if (!poolPromise) {
    poolPromise = fetch(new URL("./cards.json", import.meta.url).href).then((r) => {
      if (!r.ok) throw new Error(`cards.json: ${r.status}`);
      return r.json();
    }).catch((error) => {
      poolPromise = null;
      throw error;
    });
  }
  return poolPromise;
}

let uid = 0;
/** A labelled field: the label's text above (or beside) its control, tied by for/id. */
function field(label, control, extra = {}) {
  uid += 1;
  control.id = control.id || `gm-builder-${uid}`;
  return h("div", { class: `gm-field ${extra.class || ""}`.trim() }, h("label", { for: control.id, text: label }), control);
}

/** Draw the deck builder into ``ctx.root`` (docs/client-modules.md: a module's `pages`). */
export async function renderBuilder(ctx) {
  const root = ctx.root;
  root.classList.add("gm-builder");
  root.replaceChildren(h("p", { class: "muted", text: t("common.loading") }));
  let pool;
  try {
    pool = await loadPool();
  } catch {
    root.replaceChildren(h("p", { class: "error", role: "alert", testid: "builder-message", text: t("guimenon.builder.no_pool") }));
    return;
  }
  const byId = new Map(pool.cards.map((c) => [c.id, c]));
  const costs = [...new Set(pool.cards.map((c) => c.cost))].sort((a, b) => a - b);

  const me = currentPlayer();
  const nick = h("input", { testid: "builder-nickname", value: savedName(), autocomplete: "nickname", maxlength: "24" });
  const who = me
    ? h("p", { class: "muted", testid: "builder-who", text: fill(t("guimenon.builder.saving_as"), { name: me.name }) })
    : field(t("guimenon.builder.nickname"), nick);
  const select = (testid, options, value, onchange) => {
    const el = h("select", { testid, onchange }, options.map(([v, label]) => h("option", { value: v, text: label })));
    el.value = value;
    return el;
  };
  const filters = h("div", { class: "gm-actions gm-filters" },
    field(t("guimenon.builder.cost"),
      select("builder-cost", [["", t("guimenon.builder.all")], ...costs.map((c) => [String(c), String(c)])], state.filters.cost,
        (e) => { state.filters.cost = e.target.value; draw(); })),
    field(t("guimenon.builder.type"),
      select("builder-type", [["", t("guimenon.builder.all")], ...pool.types.map((x) => [x, t(`guimenon.type.${x}`)])], state.filters.type,
        (e) => { state.filters.type = e.target.value; draw(); })),
    field(t("guimenon.builder.kind"),
      select("builder-kind", [["", t("guimenon.builder.all")], ["ser", t("guimenon.kind.ser")], ["item", t("guimenon.kind.item")]], state.filters.kind,
        (e) => { state.filters.kind = e.target.value; draw(); })),
    field(t("guimenon.builder.start_from"),
      select("builder-ready", [["", t("guimenon.builder.pick_ready")], ...pool.decks.map((d) => [d.id, t(`guimenon.deck.${d.id}`)])], "", (e) => {
        const ready = pool.decks.find((d) => d.id === e.target.value);
        if (ready) {
          state.deck = [...ready.cards];
          state.name = t(`guimenon.deck.${ready.id}`);
          say("");
        }
        draw();
      })));
  const poolBox = h("div", { class: "gm-hand", testid: "builder-pool", role: "group", "aria-label": `${t("guimenon.builder.pool")}: ${t("guimenon.builder.add_card")}` });
  const deckBox = h("div", { class: "gm-hand", testid: "builder-deck", role: "group", "aria-label": `${t("guimenon.builder.deck")}: ${t("guimenon.builder.remove_card")}` });
  const status = h("p", { testid: "builder-status", "aria-live": "polite" });
  const curve = h("div", { class: "gm-curve", testid: "builder-curve", role: "img", "aria-label": t("guimenon.builder.curve") });
  const name = h("input", { testid: "builder-name", maxlength: "40", oninput: (e) => { state.name = e.target.value; } });
  const code = h("input", { testid: "builder-code", readonly: true, class: "gm-code" });
  const copied = h("span", { class: "gm-copied", testid: "builder-copied", role: "status", "aria-live": "polite" });
  const importBox = h("input", { testid: "builder-import-code", placeholder: "G2-…", autocomplete: "off", spellcheck: "false",
    value: state.importText, oninput: (e) => { state.importText = e.target.value; } });
  const savedBox = h("ul", { class: "gm-saved", testid: "builder-saved" });
  // Confirmations and refusals, in the player's words, next to the controls they answer.
  const message = h("p", { class: "gm-message", testid: "builder-message", role: "status", "aria-live": "polite" });
  const say = (text, kind = "ok") => {
    message.textContent = text;
    message.dataset.kind = text ? kind : "";
  };

  // A card is a toggle: pressed when it is in the deck (its name is what it shows: cost, name, Stars, Types, text).
  const frame = (card, onclick, testid, inDeck) => h("div", {
    class: `gm-card ${card.kind === "ser" ? "gm-being" : "gm-item"} gm-playable`, testid, onclick,
    role: "button", tabindex: "0", "data-card": card.id, title: t(`guimenon.card.${card.id}.text`),
    "aria-pressed": inDeck ? "true" : "false",
    onkeydown: (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onclick();
      }
    },
  },
  h("div", { class: "gm-cardtop" }, h("span", { class: "gm-cost", text: String(card.cost) }),
    h("span", { class: "gm-cardname", text: t(`guimenon.card.${card.id}`) }),
    card.kind === "ser" ? h("span", { class: "gm-star", text: `${card.stars}★` }) : null),
  h("div", { class: "gm-types", text: card.types.map((x) => t(`guimenon.type.${x}`)).join(" · ") }),
  h("div", { class: "gm-text", text: t(`guimenon.card.${card.id}.text`) }));

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
    say("");
    try {
      await ensureSession(nick.value.trim());
      const deckName = (state.name || "").trim() || "Deck";
      await api("PUT", `/me/games/guimenon/data/${slug(deckName)}`, { value: { name: deckName, cards: state.deck } });
      await refreshSaved();
      say(fill(t("guimenon.builder.saved_ok"), { name: deckName, count: state.deck.length }));
    } catch (error) {
      say(errorText(error), "error");
    }
  }

  async function copy() {
    const done = await copyText(code.value, code);
    copied.textContent = done ? t("guimenon.builder.copied") : t("guimenon.builder.copy_failed");
    copied.dataset.kind = done ? "ok" : "error";
  }

  function importCode() {
    const text = importBox.value.trim();
    const ids = text ? decodeDeck(text, pool) : null;
    if (!ids) {
      // The deck on screen stays as it was.
      say(text ? t("guimenon.builder.bad_code") : t("guimenon.builder.no_code"), "error");
      importBox.setAttribute("aria-invalid", "true");
      importBox.focus();
      return;
    }
    importBox.removeAttribute("aria-invalid");
    state.deck = ids;
    state.importText = "";
    importBox.value = "";
    say(fill(t("guimenon.builder.imported"), { count: ids.length }));
    draw();
  }

  const saveButton = h("button", { type: "button", class: "primary", testid: "builder-save", text: t("guimenon.builder.save"), onclick: save });
  const copyButton = h("button", { type: "button", testid: "builder-copy", text: t("guimenon.builder.copy"), onclick: copy });
  const importButton = h("button", { type: "button", testid: "builder-import", text: t("guimenon.builder.import"), onclick: importCode });
  importBox.addEventListener("keydown", (e) => {
    if (e.key === "Enter") importCode();
  });

  function draw() {
    const f = state.filters;
    poolBox.replaceChildren(...pool.cards
      .filter((c) => (f.cost === "" || String(c.cost) === f.cost) && (f.type === "" || c.types.includes(f.type))
        && (f.kind === "" || c.kind === f.kind) && !state.deck.includes(c.id))
      .sort((a, b) => a.cost - b.cost || a.id.localeCompare(b.id))
      .map((c) => frame(c, () => { state.deck.push(c.id); draw(); }, `builder-pool-${c.id}`, false)));
    const cards = state.deck.map((id) => byId.get(id)).filter(Boolean).sort((a, b) => a.cost - b.cost || a.id.localeCompare(b.id));
    deckBox.replaceChildren(...(cards.length ? cards.map((c) => frame(c, () => {
      state.deck = state.deck.filter((x) => x !== c.id);
      draw();
    }, `builder-deck-${c.id}`, true)) : [h("p", { class: "muted", testid: "builder-empty", text: t("guimenon.builder.empty") })]));
    const missing = pool.min_deck - cards.length;
    status.textContent = missing > 0
      ? fill(t("guimenon.builder.short"), { count: cards.length, missing, min: pool.min_deck })
      : fill(t("guimenon.builder.valid"), { count: cards.length });
    status.dataset.valid = missing > 0 ? "0" : "1";
    const most = Math.max(1, ...costs.map((c) => cards.filter((x) => x.cost === c).length));
    curve.replaceChildren(...costs.map((c) => {
      const n = cards.filter((x) => x.cost === c).length;
      return h("div", { class: "gm-bar", testid: `builder-curve-${c}`, "data-count": n },
        h("span", { class: "gm-barfill", style: { height: `${Math.round((60 * n) / most)}px` } }), h("small", { text: `${c}: ${n}` }));
    }));
    name.value = state.name;
    code.value = cards.length ? deckCode(state.deck, pool) : "";
    copyButton.disabled = !cards.length;
    copied.textContent = "";
    saveButton.disabled = missing > 0;
    savedBox.replaceChildren(...(state.saved.length ? state.saved.map((item) => h("li", { testid: `builder-saved-${item.key}` },
      h("span", { text: `${item.value.name} (${item.value.cards.length})` }),
      h("button", { type: "button", testid: `builder-open-${item.key}`, text: t("guimenon.builder.load"),
        "aria-label": fill(t("guimenon.builder.load_named"), { name: item.value.name }),
        onclick: () => { state.deck = [...item.value.cards]; state.name = item.value.name; say(""); draw(); } }),
      h("button", { type: "button", testid: `builder-delete-${item.key}`, text: t("guimenon.builder.delete"),
        "aria-label": fill(t("guimenon.builder.delete_named"), { name: item.value.name }),
        onclick: async () => {
          try {
            await api("DELETE", `/me/games/guimenon/data/${item.key}`);
            say(fill(t("guimenon.builder.deleted"), { name: item.value.name }));
          } catch (error) {
            say(errorText(error), "error");
          }
          await refreshSaved();
        } }))) : [h("li", { class: "muted", testid: "builder-none-saved", text: t("guimenon.setup.none_saved") })]));
  }

  root.replaceChildren(
    h("nav", { class: "gm-crumbs", "aria-label": t("guimenon.builder.title") },
      h("a", { href: "/", "data-link": true, testid: "builder-home", text: `← ${t("nav.back_home")}` }),
      h("a", { href: "/rules/guimenon", "data-link": true, testid: "builder-rules", text: t("guimenon.builder.rules") })),
    h("h1", { text: t("guimenon.builder.title") }),
    h("p", { class: "muted", text: t("guimenon.builder.intro") }),
    who,
    h("h2", { text: t("guimenon.builder.deck") }), status, curve, deckBox,
    h("div", { class: "gm-actions gm-save-row" }, field(t("guimenon.builder.name"), name), saveButton),
    h("div", { class: "gm-actions gm-code-row" }, field(t("guimenon.builder.code"), code), copyButton, copied),
    h("div", { class: "gm-actions gm-code-row" }, field(t("guimenon.builder.import_label"), importBox), importButton),
    message,
    h("h2", { text: t("guimenon.builder.saved") }), savedBox,
    h("h2", { text: t("guimenon.builder.pool") }), filters, poolBox);
  draw();
  if (currentPlayer() || (await loadSession().catch(() => null))) await refreshSaved();
  root.dataset.ready = "1";
}
