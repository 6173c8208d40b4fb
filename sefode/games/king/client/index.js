// King's browser module: the table (contract chooser, trump picker, dimmed cards with their reason, penalty
// counters, last trick), the score sheet of the paper game, the log's texts and its part of the replay viewer.
// The shell (sefode/web/static/js/room.js) loads it from /games/king/client/index.js; the contract is in
// docs/client-modules.md.
import { cardEl, cardShort, SUIT_SYMBOL } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { placeBadge } from "/static/js/seats.js";
import { contractName, fitTable, renderTable, signed, suitName } from "./table.js";

export { fitTable, renderTable };

/** The table's own rules: the shell links them and waits for them before the first table is drawn. */
export const stylesheets = ["./king.css"];

const HANDS = 12;

function cell(n) {
  if (n === null || n === undefined) return h("td", {}, "");
  return h("td", { class: n < 0 ? "neg" : n > 0 ? "pos" : "" }, signed(n));
}

/** The score sheet: 12 rows (one per hand: its contract, who chose it, each seat's points), the totals, and the hand
 * in progress highlighted. */
export function sheetEl(ctx, rows, current, totals, placements) {
  const body = [];
  for (let i = 0; i < HANDS; i += 1) {
    const row = rows[i];
    const number = i + 1;
    const cls = number === current ? "current" : "";
    if (row) {
      // The column wraps between the words of a contract's name, never after the number or before the trump's suit.
      const label = `${contractName(row.contract)}${row.trump ? `\u00a0${SUIT_SYMBOL[row.trump]}` : ""}`;
      body.push(h("tr", { class: cls, testid: `sheet-row-${number}` }, h("td", { title: ctx.name(row.chooser) }, `${number}.\u00a0${label}`), row.points.map(cell)));
    } else {
      body.push(h("tr", { class: cls, testid: `sheet-row-${number}` }, h("td", { class: "muted" }, `${number}.`), [0, 1, 2, 3].map(() => h("td", {}, ""))));
    }
  }
  body.push(h("tr", { class: "totals", testid: "sheet-totals" }, h("td", {}, t("king.sheet.total")), totals.map(cell)));
  if (placements) body.push(h("tr", { testid: "sheet-places" }, h("td", {}, ""), placements.map((p) => h("td", {}, placeBadge(p)))));
  // In a box of its own that scrolls sideways when the four columns do not fit (a phone), the hand column staying put.
  return h(
    "div",
    { class: "king-sheet-box", testid: "score-sheet-box", tabindex: "0", role: "region", "aria-label": t("king.sheet.title") },
    h(
      "table",
      { class: "king-sheet", testid: "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("king.sheet.hand")), [0, 1, 2, 3].map((s) => h("th", { scope: "col", title: ctx.name(s), testid: `sheet-head-${s}` }, ctx.name(s, true))))),
      h("tbody", {}, body),
    ),
  );
}

export function renderScore(ctx) {
  const view = ctx.view;
  if (!view || !view.sheet) return null;
  const current = view.phase === "over" ? null : view.hand_number;
  return h("div", { class: "king-score" }, h("h3", {}, t("king.sheet.title")), sheetEl(ctx, view.sheet, current, view.totals, view.placements));
}

/** The end-of-match card's part: who won and by how much, then the final súmula. */
export function renderEnd(ctx) {
  const view = ctx.view;
  if (!view || !view.sheet || !Array.isArray(view.totals)) return null;
  const best = Math.max(...view.totals);
  const top = view.totals.map((n, s) => (n === best ? s : null)).filter((s) => s !== null);
  const how =
    top.length === 1
      ? t("king.end.how", { name: ctx.name(top[0]), points: signed(best) })
      : t("king.end.how_tie", { names: top.map((s) => ctx.name(s, true)).join(", "), points: signed(best) });
  return h(
    "div",
    { class: "king-end", testid: "king-end" },
    h("p", { class: "end-how-text", testid: "end-how-text" }, how),
    h("h3", {}, t("king.end.sheet")),
    sheetEl(ctx, view.sheet, null, view.totals, null),
  );
}

export function eventText(ev, ctx) {
  switch (ev.type) {
    case "contract":
      return t("king.event.contract", { seat: ctx.name(ev.seat), contract: contractName(ev.contract) });
    case "trump":
      return t("king.event.trump", { seat: ctx.name(ev.seat), suit: suitName(ev.suit) });
    case "trick":
      return t("king.event.trick", { seat: ctx.name(ev.winner), points: signed(ev.points) });
    case "hand_end":
      return ev.early ? `${t("king.event.hand_end", { hand: ev.hand })} · ${t("king.event.early")}` : t("king.event.hand_end", { hand: ev.hand });
    case "play":
      return `${ctx.name(ev.seat)}: ${cardShort(ev.card)}`;
    default:
      return null;
  }
}

/** The replay viewer's part: the sheet, then each hand's tricks, from the report `sefode replay` prints. */
export function renderReplay(rctx) {
  const hands = (rctx.replay && rctx.replay.hands) || [];
  const name = (s, short) => (rctx.name ? rctx.name(s, short) : `${s + 1}`);
  const ctx = { name };
  const totals = hands.length ? hands[hands.length - 1].totals : [0, 0, 0, 0];
  const details = hands.map((hand) =>
    h(
      "details",
      { class: "king-replay-hand", testid: `replay-hand-${hand.number}` },
      h("summary", {}, `${hand.number}. ${contractName(hand.contract)}${hand.trump ? ` ${SUIT_SYMBOL[hand.trump]}` : ""} · ${name(hand.chooser, true)}`),
      h(
        "ol",
        {},
        hand.tricks.map((trick) =>
          h(
            "li",
            {},
            trick.plays.map(([seat, card]) => {
              const el = cardEl(card, { size: "xs" });
              el.title = name(seat, true);
              if (seat === trick.winner) el.classList.add("won");
              return el;
            }),
            " → ",
            name(trick.winner, true),
          ),
        ),
      ),
    ),
  );
  const element = h("div", { class: "panel king king-replay", testid: "king-replay" }, sheetEl(ctx, hands, null, totals, rctx.replay && rctx.replay.placements), details);
  return { element, hands: hands.length };
}
