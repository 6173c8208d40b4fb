// Guimenon's browser module: the board (3 Locations, 4 slots a side, Stars and control), your hand with card frames,
// the secret turn (tap a card, tap a Location; tap a placed card to take it back; confirm), the log's texts and the
// replay, and the deck choice before the match (renderSetup: a ready deck or one of the player's saved decks). The contract is in docs/client-modules.md; every text comes from the game's catalogue (card.*, location.*).
import { api } from "/static/js/api.js";
import { h } from "/static/js/dom.js";
import { currentLang, t, tn } from "/static/js/i18n.js";

const SLOTS = 4;
/** The table's own rules: the shell links them and waits for them before the first table is drawn, so the names are
 * fitted to frames already drawn as the stylesheet draws them. */
export const stylesheets = ["./guimenon.css"];

const cardName = (id) => t(`guimenon.card.${id}`);
const cardText = (id) => t(`guimenon.card.${id}.text`);
const typeNames = (types) => (types || []).map((x) => t(`guimenon.type.${x}`)).join(" · ");

// ---- the card zoom: the whole card, large, with its full text. On a laptop the pointer resting on a card shows it
// (beside the card, never under the pointer); on a phone a long press does (centred; the next touch closes it, and the
// press does not also pick the card). It lives in the page's body, outside the table the shell redraws.
const HOVER_MS = 250;
const LONG_PRESS_MS = 450;
let zoomTimer = null;
let zoomBy = null; // "hover" or "press" while a zoom is shown
let swallowClick = false;
let hoverCard = null; // the card id the pointer rests on (its zoom shown or about to be)

function zoomLayer() {
  let layer = document.getElementById("gm-zoom");
  if (!layer) {
    layer = h("div", { id: "gm-zoom", class: "gm-zoom", testid: "gm-zoom", role: "dialog", "aria-live": "polite", hidden: true });
    document.body.appendChild(layer);
    // A touch anywhere closes a zoom a long press opened.
    document.addEventListener("pointerdown", (event) => {
      swallowClick = false;
      if (zoomBy === "press" && !layer.contains(event.target)) hideZoom();
    }, true);
    // The pointer off the card (the table may have been redrawn under it since): the hover zoom goes.
    document.addEventListener("pointermove", (event) => {
      if (event.pointerType !== "mouse" || hoverCard === null) return;
      const over = event.target && event.target.closest ? event.target.closest("[data-zoom]") : null;
      if (!over || over.dataset.zoom !== hoverCard || over.closest("#gm-zoom")) hideZoom();
    }, true);
  }
  return layer;
}

function hideZoom() {
  clearTimeout(zoomTimer);
  zoomTimer = null;
  zoomBy = null;
  hoverCard = null;
  const layer = document.getElementById("gm-zoom");
  if (layer) layer.hidden = true;
}

/** What a zoom shows: a card (its whole frame) or a Location (its name and whole text). */
function zoomContent(thing) {
  if (thing.location) {
    const name = t(`guimenon.location.${thing.location}`);
    return { key: `location:${thing.location}`, label: t("guimenon.zoom", { card: name }),
      el: h("div", { class: "gm-zoomloc", testid: "gm-zoom-location" }, h("div", { class: "gm-locname", text: name }), h("div", { class: "gm-zoomloctext", text: thing.text })) };
  }
  return { key: thing.card, label: t("guimenon.zoom", { card: cardName(thing.card) }), el: cardFrame({ ...thing, text: undefined }, { class: "gm-zoomcard", zoom: false }) };
}

function showZoom(thing, anchor, by) {
  const layer = zoomLayer();
  const content = zoomContent(thing);
  layer.replaceChildren(content.el);
  layer.setAttribute("aria-label", content.label);
  if (thing.location) {
    delete layer.dataset.card;
    layer.dataset.location = thing.location;
  } else {
    delete layer.dataset.location;
    layer.dataset.card = thing.card;
  }
  layer.dataset.by = by;
  layer.hidden = false;
  zoomBy = by;
  const box = anchor.getBoundingClientRect();
  const wide = window.innerWidth >= 700 && by === "hover";
  layer.classList.toggle("gm-zoom-centre", !wide);
  layer.classList.toggle("gm-zoom-pressed", by === "press"); // only a long press's zoom takes touches
  if (wide) {
    const width = layer.offsetWidth;
    const height = layer.offsetHeight;
    const right = box.right + 8 + width <= window.innerWidth;
    const left = right ? box.right + 8 : Math.max(4, box.left - 8 - width);
    const top = Math.min(Math.max(4, box.top), Math.max(4, window.innerHeight - height - 4));
    layer.style.setProperty("left", `${left}px`);
    layer.style.setProperty("top", `${top}px`);
  } else {
    layer.style.removeProperty("left");
    layer.style.removeProperty("top");
  }
}

/** Hover and long-press on a card frame (or a Location: {location, text}) open its zoom. */
function zoomable(el, card) {
  const key = card.location ? `location:${card.location}` : card.card;
  el.dataset.zoom = key;
  el.addEventListener("pointerenter", (event) => {
    if (event.pointerType !== "mouse") return;
    clearTimeout(zoomTimer);
    zoomLayer();
    hoverCard = key;
    zoomTimer = setTimeout(() => {
      zoomTimer = null;
      if (el.isConnected && hoverCard === key) showZoom(card, el, "hover");
    }, HOVER_MS);
  });
  el.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "mouse") return;
    if (zoomBy === "hover" || zoomTimer) hideZoom();
  });
  el.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    clearTimeout(zoomTimer);
    zoomTimer = setTimeout(() => {
      zoomTimer = null;
      if (!el.isConnected) return;
      swallowClick = true;
      showZoom(card, el, "press");
    }, LONG_PRESS_MS);
  });
  const cancel = () => {
    if (zoomBy !== "press") {
      clearTimeout(zoomTimer);
      zoomTimer = null;
    }
  };
  el.addEventListener("pointerup", cancel);
  el.addEventListener("pointercancel", cancel);
  el.addEventListener("pointermove", (event) => {
    if (event.pointerType !== "mouse" && (Math.abs(event.movementX) > 8 || Math.abs(event.movementY) > 8)) cancel();
  });
  // A long press shows the card: it is not also a tap on it (and no context menu opens over the zoom).
  el.addEventListener("click", (event) => {
    if (swallowClick) {
      swallowClick = false;
      event.stopImmediatePropagation();
      event.preventDefault();
    }
  }, true);
  el.addEventListener("contextmenu", (event) => {
    if (zoomBy === "press" || zoomTimer) event.preventDefault();
  });
}

/** A card frame: name, cost, Stars, Types and ability text (both languages through the catalogue). */
export function cardFrame(card, extra = {}) {
  const cls = ["gm-card", card.being ? "gm-being" : "gm-item", extra.class].filter(Boolean).join(" ");
  const text = card.text === undefined ? cardText(card.card) : card.text;
  // A card that can be touched is a button for the keyboard and screen readers too (Enter and Space: room-keys.js).
  // Named by its visible text, the action (or why not) read first: an aria-label would hide what the card shows.
  const button = extra.onclick ? { role: "button", tabindex: "0",
    "aria-pressed": extra.pressed === undefined ? null : String(Boolean(extra.pressed)),
    "aria-disabled": extra.disabled ? "true" : null } : {};
  const el = h("div", { class: cls, testid: extra.testid, title: cardText(card.card) || cardName(card.card), onclick: extra.onclick, dataset: { card: card.card }, ...button },
    extra.onclick && extra.label ? h("span", { class: "sr-only", text: `${extra.label}: ` }) : null,
    h("div", { class: "gm-cardtop" },
      card.cost === undefined ? null : h("span", { class: "gm-cost", title: t("guimenon.moon"), text: String(card.cost) }),
      // The whole name, wrapping onto a second line when the frame is narrow (never cut).
      h("span", { class: "gm-cardname", testid: "gm-cardname", text: cardName(card.card) }),
      card.being ? h("span", { class: "gm-star", text: `${card.stars}★` }) : null),
    card.types && card.types.length ? h("div", { class: "gm-types", text: typeNames(card.types) }) : null,
    text ? h("div", { class: "gm-text", text }) : null);
  if (extra.zoom !== false && typeof document !== "undefined") zoomable(el, card);
  return el;
}

function legalOf(ctx) {
  return (ctx.legal || []).map((x) => x.action);
}

function canPlace(ctx, card, loc) {
  return legalOf(ctx).some((a) => a.place === card && a.location === loc);
}

export function renderTable(ctx) {
  const view = ctx.view;
  if (!view || view.game !== "guimenon") return h("div", { text: "…" });
  const memory = ctx.memory;
  const me = view.me;
  const seat = view.seat === null || view.seat === undefined ? 0 : view.seat;
  const other = 1 - seat;
  const lang = currentLang();
  const legal = legalOf(ctx);
  const selected = memory.selected && me && me.hand.some((c) => c.card === memory.selected) ? memory.selected : null;
  const discarding = me && me.owed_discards > 0;

  const head = h("div", { class: "gm-head" },
    h("span", { testid: "gm-turn", text: t("guimenon.turn").replace("{turn}", view.turn) }),
    me ? h("span", { testid: "gm-moon", text: `${t("guimenon.moon")}: ${me.moon_left}/${view.moon[seat]}` }) : null,
    h("span", { testid: "gm-other", text: `${ctx.name(other, true)}: ` +
      t("guimenon.hand_deck").replace("{hand}", view.hand_counts[other]).replace("{deck}", view.deck_counts[other]) +
      (view.confirmed[other] ? " ✔" : "") }));

  const board = h("div", { class: "gm-board", testid: "gm-board", "data-motion": "table", "data-focus-group": "board", tabindex: "-1", role: "group", "aria-label": t("guimenon.board") });
  for (let li = 0; li < 3; li++) {
    const info = view.locations[li];
    const cell = view.board[li];
    const target = selected && canPlace(ctx, selected, li);
    const locText = info.revealed ? t(`guimenon.location.${info.id}.text`) || (info.text && info.text[lang]) || "" : "";
    const face = info.revealed
      ? h("div", { class: "gm-locface", testid: `gm-location-${li}` },
        h("div", { class: "gm-locname", text: t(`guimenon.location.${info.id}`) }),
        h("div", { class: "gm-loctext", title: locText, text: locText }))
      : h("div", { class: "gm-locface gm-hidden", testid: `gm-location-${li}`, text: t("guimenon.not_revealed") });
    // A Location's whole text, large, as a card's: the pointer resting on it (laptop) or a long press (phone, where
    // its text is cut to three lines).
    if (info.revealed && typeof document !== "undefined") zoomable(face, { location: info.id, text: locText });
    const sideEl = (s) => {
      const mine = s === seat && me;
      const el = h("div", {
        class: `gm-side${mine ? " gm-mine" : ""}`, testid: `gm-side-${li}-${s === seat ? "me" : "them"}`,
        role: "group", "aria-label": mine ? t("guimenon.your_side") : t("guimenon.their_side").replace("{name}", ctx.name(s, true)),
      });
      if (mine && li === 0) el.appendChild(h("span", { class: "gm-sidelabel", testid: "gm-your-side", text: t("guimenon.your_side") }));
      for (const u of cell.cards[s]) el.appendChild(cardFrame({ ...u, text: "" }, { class: "gm-small" }));
      if (s === seat && me) {
        for (const p of me.pending.filter((x) => x.location === li)) {
          el.appendChild(cardFrame({ ...p, text: "" }, {
            class: "gm-pending", testid: `gm-pending-${p.card}`,
            label: t("guimenon.action.take_back").replace("{card}", cardName(p.card)),
            // With a card chosen from the hand, a tap on this Location places it, even on a card already put
            // here (the tap goes on to the Location's own handler); with none chosen, it takes this card back.
            onclick: () => !(selected && target) && legal.some((a) => a.take_back === p.card) && ctx.act({ take_back: p.card }),
          }));
        }
      }
      return el;
    };
    const control = view.control[li];
    const ctrlText = !info.revealed ? "" : control === null ? t("guimenon.neutral")
      : `${t("guimenon.controls")}: ${ctx.name(control, true)}`;
    board.appendChild(h("div", {
      class: `gm-loc${target ? " gm-target" : ""}`, testid: `gm-loc-${li}`,
      onclick: target ? () => { memory.selected = null; ctx.act({ place: selected, location: li }); } : null,
      ...(target ? { role: "button", tabindex: "0" } : {}),
    },
      target ? h("span", { class: "sr-only", text: `${t("guimenon.place_here").replace("{location}", li + 1)}: ` }) : null,
      sideEl(other),
      h("div", { class: "gm-stars" },
        h("span", { testid: `gm-stars-${li}-them`, text: `${cell.stars[other]}★` }),
        h("span", { testid: `gm-stars-${li}-me`, text: `${cell.stars[seat]}★` })),
      face,
      h("div", { class: "gm-ctrl", text: ctrlText }),
      sideEl(seat)));
  }

  const parts = [head, board];
  if (me) {
    const hand = h("div", { class: "gm-hand", testid: "gm-hand", "data-focus-group": "hand", tabindex: "-1", role: "group", "aria-label": t("guimenon.your_hand") });
    const deciding = !discarding && legal.some((a) => a.confirm);
    /** Why a card cannot go down now (null when it can, or when it is not this player's turn to place). */
    const whyNot = (c, playable) => {
      if (playable || !deciding) return null;
      return c.cost !== undefined && me.moon_left < c.cost
        ? t("guimenon.why_moon").replace("{card}", cardName(c.card)).replace("{cost}", c.cost).replace("{moon}", me.moon_left)
        : t("guimenon.why_no_place").replace("{card}", cardName(c.card));
    };
    for (const c of me.hand) {
      const playable = legal.some((a) => a.place === c.card);
      const discardable = discarding && legal.some((a) => a.discard === c.card);
      const why = whyNot(c, playable);
      const cls = [c.card === selected ? "gm-selected" : "", playable || discardable ? "gm-playable" : "gm-unplayable"];
      hand.appendChild(cardFrame(c, {
        class: cls.join(" "), testid: `gm-hand-${c.card}`,
        // A card that cannot go down stays touchable, to say why (its accessible name says it too).
        pressed: c.card === selected, disabled: !(playable || discardable || why),
        label: discardable ? t("guimenon.action.discard").replace("{card}", cardName(c.card)) : why || t("guimenon.select_card").replace("{card}", cardName(c.card)),
        onclick: () => {
          if (discardable) { ctx.act({ discard: c.card }); return; }
          if (why) { ctx.toast(why, "info"); return; }
          if (!playable) return;
          memory.selected = memory.selected === c.card ? null : c.card;
          ctx.redraw();
        },
      }));
    }
    const actions = h("div", { class: "gm-actions" });
    if (deciding) {
      actions.appendChild(h("span", { class: "gm-prompt", testid: "gm-prompt", text: t("guimenon.your_turn") }));
    }
    if (discarding) actions.appendChild(h("span", { testid: "gm-discard", text: tn("guimenon.must_discard", me.owed_discards) }));
    if (legal.some((a) => a.confirm)) {
      actions.appendChild(h("button", { testid: "gm-confirm", onclick: () => { memory.selected = null; ctx.act({ confirm: true }); } }, t("guimenon.action.confirm")));
    }
    if (ctx.submitted || (view.confirmed[seat] && !ctx.over)) actions.appendChild(h("span", { class: "gm-wait", testid: "gm-waiting", text: t("guimenon.waiting") }));
    parts.push(actions, hand);
  }
  const table = h("div", { class: "gm-table" }, parts);
  lastTable = table;
  // Your turn to place (or to discard): the key of the one time the page brings your decision into view.
  const turnKey = me && (legal.length || discarding) ? `${view.turn}:${discarding ? "discard" : "place"}` : null;
  fits.set(table, { memory, turnKey });
  return table;
}

let lastTable = null;
const fits = new WeakMap(); // each table drawn: {memory, turnKey} for its fitting (the shell calls fitTable(table))
const MIN_NAME_PX = 12;

/** Whole words in every card name of ``root``: a name with a word wider than its frame beside the cost and the Stars
 * gets a line of its own; one still too wide is set smaller, down to 12 px (never split inside a word). */
export function fitNames(root) {
  for (const name of root.querySelectorAll(".gm-cardname")) {
    const card = name.closest(".gm-card");
    name.style.removeProperty("font-size");
    if (card) card.classList.remove("gm-namewide");
    const over = () => name.scrollWidth > name.clientWidth + 0.5;
    if (!over()) continue;
    if (card) card.classList.add("gm-namewide");
    let size = parseFloat(getComputedStyle(name).fontSize);
    while (over() && size > MIN_NAME_PX) {
      size = Math.max(MIN_NAME_PX, size - 0.5);
      name.style.setProperty("font-size", `${size}px`);
    }
  }
}

/** Your decision in view: the board never scrolls within itself (that hid Locations); when your hand or Confirm is
 * below the screen as your turn begins, the page scrolls once (that turn) to bring them up, keeping the turn's prompt
 * in view. Scrolling back up to the board is the page's own scroll. */
export function fitTable(table) {
  if (!table || !table.isConnected) return;
  const { memory = null, turnKey = null } = fits.get(table) || {};
  fitNames(table);
  if (!memory || turnKey === null || memory.scrolledFor === turnKey) return;
  memory.scrolledFor = turnKey;
  const decision = [...table.querySelectorAll("[data-testid=gm-hand], [data-testid=gm-confirm], .gm-actions")];
  if (!decision.length) return;
  const boxes = decision.map((el) => el.getBoundingClientRect());
  const bottom = Math.max(...boxes.map((r) => r.bottom));
  const top = Math.min(...boxes.map((r) => r.top));
  const over = bottom - document.documentElement.clientHeight + 4;
  if (over > 0) window.scrollBy({ top: Math.min(over, Math.max(0, top - 4)), behavior: "instant" });
}

if (typeof window !== "undefined") window.addEventListener("resize", () => fitTable(lastTable));

/** How the match was won, in words (rules.winner, docs/rulings.md §4.9): more Locations controlled (1 against none
 * counts), else, with as many each, the total Stars, else a draw. */
export function endText(view, name) {
  const counts = [0, 1].map((s) => view.control.filter((c) => c === s).length);
  const stars = [0, 1].map((s) => view.board.reduce((sum, cell) => sum + cell.stars[s], 0));
  const byLocations = counts[0] === counts[1] ? undefined : counts[0] > counts[1] ? 0 : 1;
  if (byLocations !== undefined) return t("guimenon.end.locations", { name: name(byLocations), n: counts[byLocations] });
  if (stars[0] !== stars[1]) {
    const w = stars[0] > stars[1] ? 0 : 1;
    return t("guimenon.end.stars", { name: name(w), mine: stars[w], theirs: stars[1 - w] });
  }
  return t("guimenon.end.draw", { stars: stars[0] });
}

/** The final board: each Location (its name, who controls it) with both sides' cards and Star totals. */
export function finalBoard(view, name, mySeat) {
  const seat = mySeat === null || mySeat === undefined ? 0 : mySeat;
  const order = [1 - seat, seat];
  return h("div", { class: "gm-final", testid: "gm-final-board" }, view.board.map((cell, li) => {
    const info = view.locations[li] || {};
    const control = view.control[li];
    return h("div", { class: "gm-final-loc", testid: `gm-final-${li}` },
      h("div", { class: "gm-final-name", text: info.revealed && info.id ? t(`guimenon.location.${info.id}`) : t("guimenon.not_revealed") }),
      h("div", { class: "gm-final-ctrl", text: control === null || control === undefined ? t("guimenon.neutral") : `${t("guimenon.controls")}: ${name(control)}` }),
      order.map((s) => h("div", { class: `gm-final-side${s === seat ? " gm-mine" : ""}`, testid: `gm-final-${li}-${s}` },
        h("div", { class: "gm-final-who" }, h("span", { text: name(s) }), h("b", { testid: `gm-final-stars-${li}-${s}`, text: `${cell.stars[s]}★` })),
        h("ul", {}, cell.cards[s].map((u) => h("li", { text: `${cardName(u.card)}${u.being ? ` ${u.stars}★` : ""}` }))))));
  }));
}

/** The end-of-match card's part: how it was won, then the final board. */
export function renderEnd(ctx) {
  const view = ctx.view;
  if (!view || view.game !== "guimenon" || !Array.isArray(view.board)) return null;
  const name = (s) => ctx.name(s, true);
  return h("div", { class: "gm-end", testid: "gm-end" },
    h("p", { class: "end-how-text", testid: "end-how-text", text: endText(view, name) }),
    h("h3", { text: t("guimenon.end.board") }),
    finalBoard(view, name, ctx.seat));
}

export function renderScore(ctx) {
  const view = ctx.view;
  if (!view || view.game !== "guimenon") return null;
  const rows = [0, 1].map((s) => h("tr", {},
    h("td", { text: ctx.name(s, true) }),
    h("td", { text: String(view.control.filter((c) => c === s).length) }),
    h("td", { text: String(view.board.reduce((sum, cell) => sum + cell.stars[s], 0)) })));
  // Headers in words, the symbols beside them (the table's own marks for control and Stars).
  return h("table", { testid: "gm-score", class: "gm-score" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("guimenon.score.player") }),
      h("th", { scope: "col", text: `⚑ ${t("guimenon.score.locations")}` }),
      h("th", { scope: "col", text: `★ ${t("guimenon.score.stars")}` }))),
    h("tbody", {}, rows));
}

/** What resolved an ability: a card's name, or a Location's. */
function sourceName(id) {
  const key = `guimenon.card.${id}`;
  return t(key) !== key ? cardName(id) : t(`guimenon.location.${id}`);
}

// The engine's result strings (docs/game-formats.md: "fagulha@0 +1", "seat 0 discarded vulto", …) in player words.
const RESULTS = [
  [/^([a-z0-9-]+)@(\d) ([+-]\d+)$/, (m, n) => t("guimenon.result.stars", { card: cardName(m[1]), name: n(m[2]), amount: m[3] })],
  [/^([a-z0-9-]+)@(\d) destroyed$/, (m, n) => t("guimenon.result.destroyed", { card: cardName(m[1]), name: n(m[2]) })],
  [/^([a-z0-9-]+)@(\d) moved \d+->(\d+)$/, (m, n) => t("guimenon.result.moved", { card: cardName(m[1]), name: n(m[2]), to: Number(m[3]) + 1 })],
  [/^copy of ([a-z0-9-]+)@(\d) created at (\d+)$/, (m, n) => t("guimenon.result.copy", { card: cardName(m[1]), name: n(m[2]), at: Number(m[3]) + 1 })],
  [/^([a-z0-9-]+)@(\d) created at (\d+)$/, (m, n) => t("guimenon.result.created", { card: cardName(m[1]), name: n(m[2]), at: Number(m[3]) + 1 })],
  [/^seat (\d) drew$/, (m, n) => t("guimenon.result.drew", { name: n(m[1]) })],
  [/^seat (\d) discarded ([a-z0-9-]+)$/, (m, n) => t("guimenon.result.discarded", { name: n(m[1]), card: cardName(m[2]) })],
  [/^seat (\d) hand costs ([+-])(\d+)$/, (m, n) => t(m[2] === "+" ? "guimenon.result.costs_more" : "guimenon.result.costs_less", { name: n(m[1]), n: m[3] })],
  [/^seat (\d) \+(\d+) moon next turn$/, (m, n) => t("guimenon.result.moon", { name: n(m[1]), n: m[2] })],
];

/** One result of an ability in words; `name(seat)` names a seat. */
export function resultText(result, name) {
  const seatName = (s) => name(Number(s));
  for (const [re, say] of RESULTS) {
    const m = re.exec(String(result));
    if (m) return say(m, seatName);
  }
  return String(result);
}

/** "Fagulha: Salamandra Faminta (Ana) −1★, …", or "Fagulha: sem efeito". */
function abilityText(r, name) {
  const results = (r.results || []).map((x) => resultText(x, name));
  return `${sourceName(r.source)}: ${results.join(", ") || t("guimenon.result.nothing")}`;
}

export function eventText(ev, ctx) {
  const name = (s) => (ctx && ctx.name ? ctx.name(s, true) : `#${s + 1}`);
  if (ev.type === "confirmed") return `${name(ev.seat)} ✔`;
  if (ev.type === "reveal") {
    const plays = ev.plays.map((p) => `${name(p.seat)}: ${cardName(p.card)} → ${p.location + 1}`);
    return plays.length ? plays.join(" · ") : null;
  }
  if (ev.type === "ability") return abilityText(ev, name);
  if (ev.type === "turn") return t("guimenon.turn").replace("{turn}", ev.turn);
  return null;
}

export function renderReplay(rctx) {
  const report = rctx.replay || {};
  const turns = report.turns || [];
  const el = h("div", { class: "gm-table", testid: "gm-replay" });
  for (const turn of turns) {
    el.appendChild(h("h4", { text: t("guimenon.turn").replace("{turn}", turn.turn) }));
    el.appendChild(h("div", {}, turn.plays.map((p) => `${rctx.name(p.seat)}: ${cardName(p.card)} → ${p.location + 1}`).join(" · ")));
    const board = h("div", { class: "gm-board" });
    for (const cell of turn.board || []) {
      board.appendChild(h("div", { class: "gm-loc" },
        h("div", { class: "gm-locface" }, cell.id ? t(`guimenon.location.${cell.id}`) : t("guimenon.not_revealed")),
        h("div", { class: "gm-stars" }, h("span", { text: `${cell.stars[0]}★` }), h("span", { text: `${cell.stars[1]}★` })),
        h("div", { class: "gm-side" }, cell.cards[0].map((u) => cardFrame(u))),
        h("div", { class: "gm-side" }, cell.cards[1].map((u) => cardFrame(u)))));
    }
    el.appendChild(board);
    el.appendChild(h("ol", {}, (turn.resolved || []).map((r) => h("li", { text: abilityText(r, rctx.name) }))));
  }
  // Who controls each Location at the end, left to right, by name ("Locais: Ana, Neutro, Bot 2").
  const control = report.control ? report.control.map((c) => (c === null ? t("guimenon.neutral") : rctx.name(c))).join(", ") : "";
  return { element: el, meta: control ? [`${t("guimenon.board")}: ${control}`] : [] };
}

const sameDeck = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Before the match: pick a ready deck (room.setup.choices) or one of your saved decks (the platform's player data,
 * the deck builder's), with a link to the builder. ctx: {room, value (your choice), sendSetup, memory, redraw}. */
/** The game's own pages in the shell (docs/client-modules.md): the deck builder at /games/guimenon/decks. */
export const pages = {
  decks: {
    title: "guimenon.builder.title",
    render: async (ctx) => {
      const builder = await import("./builder.js");
      await builder.renderBuilder(ctx);
    },
  },
};

export function renderSetup(ctx) {
  const memory = ctx.memory;
  if (!memory.decks && !memory.loading) {
    memory.loading = true;
    api("GET", "/me/games/guimenon/data") // the builder's saved decks
      .then((data) => { memory.decks = (data && data.items) || []; })
      .catch(() => { memory.decks = []; })
      .finally(() => { memory.loading = false; ctx.redraw(); });
  }
  const choices = (ctx.room.setup && ctx.room.setup.choices) || [];
  const ready = h("div", { class: "gm-setup-list", testid: "gm-setup-ready" }, choices.map((c) => {
    const on = ctx.value === c.value;
    return h("button", { type: "button", class: on ? "gm-setup-deck active" : "gm-setup-deck", "aria-pressed": on ? "true" : "false",
      testid: `gm-setup-ready-${c.value}`, onclick: () => ctx.sendSetup(c.value) },
      h("b", { text: t(c.label) }), c.description ? h("small", { text: t(c.description) }) : null);
  }));
  const decks = memory.decks;
  const saved = h("div", { class: "gm-setup-list", testid: "gm-setup-saved" },
    decks === undefined ? h("span", { class: "muted", text: t("common.loading") })
      : decks.length ? decks.map((item) => {
        const deck = item.value || {};
        const on = sameDeck(ctx.value, deck.cards);
        return h("button", { type: "button", class: on ? "gm-setup-deck active" : "gm-setup-deck", "aria-pressed": on ? "true" : "false",
          testid: `gm-setup-saved-${item.key}`, onclick: () => ctx.sendSetup(deck.cards) },
          h("b", { text: `${deck.name} (${(deck.cards || []).length})` }));
      }) : h("span", { class: "muted", testid: "gm-setup-none", text: t("guimenon.setup.none_saved") }));
  const builder = "/games/guimenon/decks";
  return h("div", { class: "gm-setup", testid: "gm-setup" },
    h("h4", { text: t("guimenon.setup.ready_decks") }), ready,
    h("h4", { text: t("guimenon.setup.saved_decks") }), saved,
    h("a", { class: "button", href: builder, "data-link": true, testid: "gm-setup-builder" }, t("guimenon.setup.build")));
}
