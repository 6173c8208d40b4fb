// One Man's Trash's browser module: the Trash Piles fanned so every card shows (top card standing out, Collectors
// and pile sizes marked), the Draw Pile, every seat's hand size and what it took from the table, your hand. Select
// one or more cards of one rank, then tap a pile (trash, swap, or collect with a selected Collector), the empty space
// (litter) or the Draw Pile (draw). Targets that are not legal for the selection look disabled and say why when
// touched. The contract with the shell is in docs/client-modules.md.
import { backEl, cardEl, cardLabel, RANKS_52_ACE_LOW, sortCards } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t, tg, tn } from "/static/js/i18n.js";
import { clockEl, seatName } from "/static/js/seats.js";

const GAME = "trash";
/** The table's own rules: the shell links them and waits for them before the first table is drawn. */
export const stylesheets = ["./trash.css"];

const rankOf = (card) => card.slice(0, -1);
const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
const sorted = (cards) => sortCards(cards, { ranks: RANKS_52_ACE_LOW, byRank: true });

/** The legal game actions (JSON) of the seat now; empty unless it is its turn. */
function legalActions(ctx) {
  if (!ctx.awaited || ctx.paused) return [];
  return (ctx.legal || []).map((entry) => entry.action).filter((a) => a && !("leave" in a) && !("show" in a));
}

/** What a tap on pile `i` would do with the selection: the action, or null with the reason. */
function pileAction(legal, selection, collectors, i) {
  if (!selection.length) return { action: null, why: "trash.select_first" };
  if (selection.length === 1 && collectors.includes(selection[0])) {
    const found = legal.find((a) => a.collect === i);
    return found ? { action: found } : { action: null, why: "trash.why_collect" };
  }
  const trash = legal.find((a) => a.trash && a.pile === i && sameSet(a.trash, selection));
  if (trash) return { action: trash };
  const swap = legal.find((a) => a.swap && a.pile === i && sameSet(a.swap, selection));
  if (swap) return { action: swap };
  const swappable = legal.some((a) => a.swap && sameSet(a.swap, selection));
  return { action: null, why: swappable ? "trash.why_swap" : legal.some((a) => a.trash && sameSet(a.trash, selection)) ? "trash.why_trash" : "trash.why_swap" };
}

/** How many of a pile's top cards are drawn whole; the ones under them are a count. */
export const FAN_SHOWN = 4;

/** A pile's fan: its top FAN_SHOWN cards overlapping just enough that each one's corner (rank and suit) reads, the top
 * card whole and marked, and how many more lie under them ("+7"), however tall the pile grows. */
function pileFan(pile, collectors, label) {
  const shown = pile.slice(-FAN_SHOWN);
  const hidden = pile.length - shown.length;
  const cards = shown.map((card, k) =>
    cardEl(card, { size: "sm", extraClass: k === shown.length - 1 ? "top" : null, label: label || null }),
  );
  return h(
    "div",
    { class: "fan", testid: "pile-fan" },
    hidden > 0 ? h("span", { class: "fan-more", title: tn("trash.under", hidden), testid: "fan-more" }, `+${hidden}`) : null,
    cards,
  );
}

function seatsRow(ctx, view) {
  const mySeat = ctx.seat;
  const boxes = [];
  for (let s = 0; s < view.seats; s += 1) {
    const classes = ["trash-seat"];
    if (view.turn === s) classes.push("turn");
    if (!view.in[s]) classes.push("out");
    const known = (view.known && view.known[s]) || [];
    boxes.push(
      h(
        "div",
        { class: classes.join(" "), testid: `seat-${s}`, "data-seat": String(s) },
        h("div", { class: "name", title: seatName(ctx.room, s, mySeat, true) }, seatName(ctx.room, s, mySeat, true)),
        h(
          "div",
          { class: "size", testid: `hand-size-${s}`, title: t("trash.hand_sizes") },
          backEl({ size: "xs" }),
          `×${view.hand_sizes[s]}`,
          view.in[s] ? null : h("span", { class: "tag out" }, t("trash.out")),
        ),
        known.length
          ? h("div", { class: "known", title: t("trash.known", { cards: known.map(cardLabel).join(", ") }) }, known.map((c) => cardEl(c, { size: "xs" })))
          : null,
        view.turn === s ? clockEl(ctx.deadline(s), `clock-${s}`) : null,
      ),
    );
  }
  return h("div", { class: "trash-seats", testid: "trash-seats" }, boxes);
}

/** Whether `action` empties your hand without a four-of-a-kind: that puts you out of the match (a trash onto a
 * Collector is not: the Collector comes to your hand). */
export function knocksYouOut(view, action) {
  const hand = Array.isArray(view.hand) ? view.hand : [];
  if ("litter" in action) return hand.length === 1;
  if (action.trash) {
    const pile = view.piles[action.pile] || [];
    if ((view.collectors || []).includes(pile[pile.length - 1])) return false;
    return action.trash.length === hand.length && action.trash.length !== 4;
  }
  return false;
}

/** Send an action, once the player confirmed a move that puts them out; the selection is spent (a new turn starts
 * with nothing selected). */
async function play(ctx, action) {
  if (knocksYouOut(ctx.view, action) && !(await ctx.confirm(t("trash.confirm_out")))) return;
  ctx.memory.selection = [];
  ctx.act(action);
}

function explain(ctx, why) {
  ctx.toast(t(why), "warn");
}

function board(ctx, view, legal, selection) {
  const collectors = view.collectors || [];
  const items = [];
  const draw = legal.find((a) => a.draw);
  items.push(
    h(
      "button",
      {
        type: "button",
        class: `trash-draw ${draw ? "legal" : "off"}`,
        testid: "draw-pile",
        "data-motion": "deck",
        "data-legal": draw ? "1" : "0",
        "aria-disabled": draw ? "false" : "true",
        title: view.draw_size ? t("trash.draw_pile") : t("trash.draw_empty"),
        onclick: () => (draw ? play(ctx, draw) : explain(ctx, view.draw_size ? "trash.why_draw" : "trash.draw_empty")),
      },
      view.draw_size ? backEl({ size: "md" }) : h("div", { class: "card md empty-slot" }),
      h("span", { class: "label" }, t("trash.draw_pile"), " · ", t("trash.draw_left", { n: view.draw_size })),
    ),
  );
  view.piles.forEach((pile, i) => {
    const { action, why } = pileAction(legal, selection, collectors, i);
    const isCollector = pile.length === 1 && collectors.includes(pile[0]);
    const fan = pileFan(pile, collectors, isCollector ? t("trash.collector") : null);
    // What a tap does with the selection: trash, swap or collect (a pile says it before the tap).
    const verb = action ? (action.collect !== undefined ? "collect" : action.trash ? "trash" : "swap") : null;
    const picked = selection.length > 0;
    const name = t("trash.pile", { n: i + 1 });
    items.push(
      h(
        "div",
        {
          // Not dimmed before a card is picked (nothing is wrong yet): only once a selection rules it out.
          class: `trash-pile ${action ? `legal tap-${verb}` : legal.length && picked ? "off" : ""}${isCollector ? " collector" : ""}`,
          role: "button",
          tabindex: "0",
          testid: `pile-${i}`,
          "data-legal": action ? "1" : "0",
          "data-tap": verb || "",
          "aria-disabled": action ? "false" : "true",
          // Named by what it shows (its top cards, its name and size, then what a tap does), so the name a screen
          // reader gives matches the visible text.
          onclick: () => {
            if (action) play(ctx, action);
            else if (legal.length) explain(ctx, why);
          },
        },
        fan,
        h("span", { class: "label" }, name, " · ", isCollector ? t("trash.collector") : tn("trash.pile_size", pile.length)),
        verb ? h("span", { class: `tap-hint tap-${verb}`, testid: `pile-tap-${i}` }, t(`trash.tap.${verb}`)) : null,
      ),
    );
  });
  const litter = selection.length === 1 ? legal.find((a) => a.litter === selection[0]) : null;
  items.push(
    h(
      "button",
      {
        type: "button",
        class: `trash-new ${litter ? "legal" : legal.length && selection.length ? "off" : ""}`,
        testid: "new-pile",
        "data-legal": litter ? "1" : "0",
        "aria-disabled": litter ? "false" : "true",
        onclick: () => {
          if (litter) play(ctx, litter);
          else if (legal.length) explain(ctx, selection.length ? "trash.why_litter" : "trash.select_first");
        },
      },
      h("span", { class: "label" }, t("trash.new_pile")),
    ),
  );
  return h("div", { class: "trash-board", testid: "trash-board", "data-motion": "table", "data-focus-group": "piles", role: "group", "aria-label": t("trash.piles") }, items);
}

function myHand(ctx, view, selection) {
  if (!Array.isArray(view.hand)) return null;
  const collectors = view.collectors || [];
  const toggle = (card) => {
    let next;
    if (selection.includes(card)) next = selection.filter((c) => c !== card);
    else if (collectors.includes(card) || selection.some((c) => collectors.includes(c)) || (selection.length && rankOf(selection[0]) !== rankOf(card))) next = [card];
    else next = [...selection, card];
    ctx.memory.selection = next;
    ctx.redraw();
  };
  return h(
    "div",
    { class: "trash-hand my-hand", testid: "my-hand", "data-focus-group": "hand", tabindex: "-1", role: "group", "aria-label": t("trash.your_hand") },
    sorted(view.hand).map((card) =>
      cardEl(card, {
        size: "lg",
        testid: `hand-card-${card}`,
        selected: selection.includes(card),
        label: collectors.includes(card) ? t("trash.collector") : null,
        onclick: () => toggle(card),
      }),
    ),
  );
}

/** Draw the table (the shell's ctx: docs/client-modules.md). */
export function renderTable(ctx) {
  const view = ctx.view;
  const mySeat = ctx.seat;
  const legal = legalActions(ctx);
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const memory = ctx.memory;
  if (memory.version !== ctx.state.version) {
    memory.version = ctx.state.version;
    memory.selection = (memory.selection || []).filter((c) => hand.includes(c));
  }
  const selection = memory.selection || [];
  let line;
  if (ctx.over || view.over) line = t("table.match_over");
  else if (ctx.paused) line = t("table.paused");
  else if (ctx.awaited) line = t("trash.your_turn");
  else if (view.turn !== null && view.turn !== undefined) line = t("trash.waiting", { name: seatName(ctx.room, view.turn, mySeat) });
  else line = "";
  const onlyDraw = legal.length === 1 && legal[0].draw;
  const over = ctx.over || view.over;
  let banner = null;
  if (over && view.winner !== null && view.winner !== undefined) {
    banner = h("div", { class: "trash-win", testid: "win-banner" }, t("trash.win", { name: seatName(ctx.room, view.winner, mySeat) }));
  } else if (over) {
    banner = h("div", { class: "trash-hint", testid: "no-winner" }, t("trash.no_winner"), " ", view.reason ? tg(GAME, `trash.reason.${view.reason}`, {}) : "");
  }
  return h(
    "div",
    { class: "trash-table table", testid: "table", "data-version": String(ctx.state.version), "data-game": GAME },
    seatsRow(ctx, view),
    h("div", { class: "chip", testid: "collectors" }, t("trash.collectors", { cards: (view.collectors || []).map(cardLabel).join(", ") })),
    board(ctx, view, legal, selection),
    h("div", { class: `turn-line${ctx.awaited ? " mine" : ""}`, testid: "turn-line" }, line),
    onlyDraw ? h("div", { class: "trash-hint", testid: "only-draw" }, t("trash.only_draw")) : null,
    banner,
    myHand(ctx, view, selection),
  );
}

/** The Score pane: each seat's cards in hand, whether it is still in, and its turns played, under headers. */
export function renderScore(ctx) {
  const view = ctx.view;
  if (!view) return null;
  const rows = [];
  for (let s = 0; s < view.seats; s += 1) {
    rows.push(
      h(
        "tr",
        { testid: `score-${s}` },
        h("th", { scope: "row" }, ctx.name(s, true)),
        h("td", {}, String(view.hand_sizes[s])),
        h("td", {}, view.in[s] ? t("trash.score.in") : t("trash.out")),
        h("td", {}, String(view.turns[s])),
      ),
    );
  }
  const head = h(
    "thead",
    {},
    h("tr", { testid: "score-head" }, ["player", "cards", "status", "turns"].map((k) => h("th", { scope: "col" }, t(`trash.score.${k}`)))),
  );
  return h(
    "div",
    { class: "trash-score" },
    h("p", {}, t("trash.turns", { n: Math.max(...view.turns), limit: view.turn_limit })),
    h("table", { class: "score trash-score-table", testid: "trash-score" }, head, h("tbody", {}, rows)),
  );
}

/** How the match was won, for the end-of-match card: the four-of-a-kind (the winning move's cards), or why nobody
 * won (the last one left also loses; the turn limit). */
export function renderEnd(ctx) {
  const view = ctx.view;
  if (!view || !view.over) return null;
  const last = view.last;
  if (view.winner !== null && view.winner !== undefined) {
    const four = last && last.seat === view.winner && Array.isArray(last.trash) ? last.trash : [];
    const rank = four.length ? t(`rank.${rankOf(four[0])}`) : "";
    return h(
      "div",
      { class: "trash-end", testid: "trash-end" },
      h("p", { class: "end-how-text", testid: "end-how-text" }, four.length ? t("trash.end.four", { name: ctx.name(view.winner), rank }) : t("trash.win", { name: ctx.name(view.winner) })),
      four.length ? h("div", { class: "trash-four", testid: "end-four" }, four.map((c) => cardEl(c, { size: "md" }))) : null,
    );
  }
  return h(
    "div",
    { class: "trash-end", testid: "trash-end" },
    // The card's places already say nobody won: this says why.
    h("p", { class: "end-how-text", testid: "end-how-text" }, view.reason ? tg(GAME, `trash.reason.${view.reason}`, {}) : t("trash.no_winner")),
  );
}

/** The log's texts. */
export function eventText(ev, ctx) {
  if (!ev || !ev.type) return null;
  const params = { ...ev };
  if (ev.seat !== undefined && ev.seat !== null) params.name = ctx.name(ev.seat);
  if (Array.isArray(ev.cards)) params.cards = ev.cards.map(cardLabel).join(", ");
  if (typeof ev.card === "string") params.card = cardLabel(ev.card);
  if (typeof ev.pile === "number") params.pile = ev.pile + 1;
  if (ev.type === "match_end") {
    if (ev.winner !== null && ev.winner !== undefined) return tg(GAME, "trash.win", { name: ctx.name(ev.winner) });
    return `${tg(GAME, "trash.no_winner", {})} ${tg(GAME, `trash.reason.${ev.reason}`, {})}`;
  }
  return tg(GAME, `event.${ev.type}`, params);
}

/** A four-of-a-kind is celebrated with a toast for everyone. */
export function onState(ctx) {
  for (const ev of ctx.events || []) {
    if (ev.type === "match_end" && ev.winner !== null && ev.winner !== undefined) ctx.toast(t("trash.win", { name: ctx.name(ev.winner) }), "ok");
  }
}

/** The replay viewer: the final piles and hand sizes, then every action in order. */
export function renderReplay(rctx) {
  const report = rctx.replay || {};
  const history = rctx.history || {};
  const piles = report.piles || [];
  const element = h(
    "div",
    { class: "panel trash-replay", testid: "trash-replay" },
    h(
      "div",
      { class: "trash-board" },
      piles.map((pile, i) =>
        h(
          "div",
          { class: "trash-pile", testid: `replay-pile-${i}` },
          pileFan(pile, [], null),
          h("span", { class: "label" }, t("trash.pile", { n: i + 1 }), " · ", tn("trash.pile_size", pile.length)),
        ),
      ),
    ),
    h(
      "ul",
      { class: "trash-seats" },
      (report.hand_sizes || []).map((n, s) => h("li", { class: "trash-seat" }, rctx.name(s), ": ", `×${n}`, (report.out || []).includes(s) ? ` (${t("trash.out")})` : "")),
    ),
    h(
      "ol",
      { class: "replay-actions", testid: "replay-actions" },
      (history.actions || []).map((entry) => {
        const action = { ...entry };
        delete action.seat;
        let text;
        if (action.draw) text = tg(GAME, "trash.action.draw", {});
        else if (action.collect !== undefined) text = tg(GAME, "trash.action.collect", { pile: action.collect + 1 });
        else if (action.litter) text = tg(GAME, "trash.action.litter", { card: cardLabel(action.litter) });
        else if (action.trash) text = tg(GAME, "trash.action.trash", { cards: action.trash.map(cardLabel).join(", "), pile: action.pile + 1 });
        else if (action.swap) text = tg(GAME, "trash.action.swap", { cards: action.swap.map(cardLabel).join(", "), pile: action.pile + 1 });
        else text = JSON.stringify(action);
        return h("li", {}, `${rctx.name(entry.seat)}: ${text}`);
      }),
    ),
  );
  const meta = [];
  if (report.winner !== null && report.winner !== undefined) meta.push(tg(GAME, "trash.win", { name: rctx.name(report.winner) }));
  else if (report.over) meta.push(tg(GAME, "trash.no_winner", {}));
  meta.push(t("trash.turns", { n: report.turns || 0, limit: 100 }));
  return { element, meta, hands: 0 };
}

/** Leaving the table (a bot plays on for you) is offered while your seat is still in the match. */
export function offers(ctx) {
  const inMatch = ctx.view && Array.isArray(ctx.view.in) && ctx.seated ? Boolean(ctx.view.in[ctx.seat]) : false;
  return { leave: Boolean(ctx.seated && !ctx.over && inMatch) };
}
