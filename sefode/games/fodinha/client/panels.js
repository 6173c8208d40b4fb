// Fodinha's side panels and texts: the scoreboard (lives or letters, bids, tricks made, the last hand), the match's
// tricks grouped under whoever took them (asked for when shown: the view carries only this hand's), and the event
// texts of the log.
import { cardEl, cardShort } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t, tn } from "/static/js/i18n.js";
import { placeBadge } from "/static/js/seats.js";
import { scoreEl } from "./table.js";

export function renderScore(ctx) {
  const view = ctx.view;
  if (!view) return null;
  const me = ctx.seat;
  const rows = [];
  for (let s = 0; s < view.seats; s += 1) {
    const team = ctx.team(s);
    rows.push(
      h(
        "tr",
        { class: `${s === me ? "mine" : ""}${view.alive[s] ? "" : " out"}`, testid: `score-row-${s}` },
        h("td", {}, team ? h("span", { class: "team-symbol", style: { color: team.colour }, title: team.name }, team.symbol) : null, ctx.name(s)),
        h("td", {}, scoreEl(view, s)),
        h("td", {}, view.bids[s] ?? "—"),
        h("td", {}, view.won[s] ?? 0),
        h("td", {}, view.placements ? placeBadge(view.placements[s]) : !view.alive[s] ? t("seat.out") : view.left && view.left[s] ? t("seat.left") : ""),
      ),
    );
  }
  const parts = [
    h(
      "table",
      { class: "scoreboard", testid: "scoreboard" },
      h("thead", {}, h("tr", {}, ["score.player", view.variant === "7letras" ? "score.letters" : "score.lives_head", "score.bid", "score.won", ""].map((k) => h("th", {}, k ? t(k) : "")))),
      h("tbody", {}, rows),
    ),
  ];
  const last = view.last_hand;
  if (last) {
    parts.push(
      h(
        "div",
        { class: "last-hand", testid: "last-hand" },
        h("h3", {}, t("score.last_hand", { n: last.number }), " · ", tn("table.cards_n", last.cards)),
        last.void ? h("p", { class: "muted" }, t("score.void")) : null,
        last.vira ? h("p", {}, t("table.vira"), " ", cardEl(last.vira, { size: "xs" })) : null,
        h(
          "ul",
          {},
          (last.bids || []).map((bid, s) => (bid === null ? null : h("li", {}, t("score.last_line", { name: ctx.name(s), bid, won: last.won[s] })))),
        ),
        last.bolo ? h("p", { class: "muted" }, boloText(last.bolo, ctx)) : null,
      ),
    );
  }
  return h("div", { class: "fodinha-score" }, parts);
}

function boloText(bolo, ctx) {
  return bolo.seat === null || bolo.seat === undefined ? t("event.bolo_none", { n: bolo.value }) : t("event.bolo", { n: bolo.value, name: ctx.name(bolo.seat) });
}

/** The tricks pane: the match's tricks, which the view leaves out (they grow with the match), asked of the server when
 * the pane is shown (`ctx.past()`, Fodinha.past) and drawn when they come. */
export function renderTricks(ctx) {
  const view = ctx.view;
  const past = typeof ctx.past === "function" ? ctx.past() : null;
  if (!past) return h("p", { class: "muted", testid: "tricks-loading" }, t("tricks.loading"));
  const groups = past.match_tricks ? Object.entries(past.match_tricks) : [];
  if (!groups.length) return h("p", { class: "muted" }, t("tricks.none"));
  const me = ctx.seat;
  return h(
    "div",
    { class: "trick-groups" },
    groups.map(([key, tricks]) => {
      const title = key === "none" ? t("tricks.nobody") : key === "pending" ? t("tricks.pending") : ctx.name(Number(key));
      const total = tricks.reduce((sum, tr) => sum + (tr.value || 1), 0);
      return h(
        "details",
        { class: "trick-group", testid: `tricks-${key}`, open: key === String(me) },
        h("summary", {}, title, " ", h("span", { class: "muted" }, tn("tricks.count", tricks.length, { value: total }))),
        h(
          "ul",
          {},
          tricks.map((tr) =>
            h(
              "li",
              { class: "trick-row" },
              h("span", { class: "muted" }, t("tricks.hand_n", { n: tr.hand })),
              tr.plays.map(([s, c]) => cardEl(c, { size: "xs", manilhas: view.manilhas, extraClass: s === tr.winner ? "won" : "" })),
              tr.value > 1 ? h("span", { class: "chip melada" }, t("table.worth", { n: tr.value })) : null,
              tr.winner === null ? h("span", { class: "chip" }, t("tricks.cancelled")) : null,
            ),
          ),
        ),
      );
    }),
  );
}

export function eventText(ev, ctx) {
  const name = (s) => ctx.name(s);
  switch (ev.type) {
    case "deal":
      return tn("event.deal", ev.cards, { n: ev.hand, cards: ev.cards, dealer: name(ev.dealer) });
    case "bid":
      return t("event.bid", { name: name(ev.seat), bid: ev.bid });
    case "play":
      return t("event.play", { name: name(ev.seat), card: cardShort(ev.card) });
    case "trick":
      return ev.winner === null ? t("event.trick_cancelled", { n: ev.value }) : t("event.trick", { name: name(ev.winner), n: ev.value });
    case "bolo":
      return boloText(ev, ctx);
    case "hand_end":
      return ev.void ? t("event.hand_void", { n: ev.hand }) : t("event.hand_end", { n: ev.hand });
    case "vira":
      return t("event.vira", { card: cardShort(ev.card) });
    case "show":
      return t("event.show", { name: name(ev.seat), cards: (ev.cards || []).map(cardShort).join(" ") });
    case "leave":
      return t("event.leave", { name: name(ev.seat) });
    case "join":
      return t("event.join", { name: name(ev.seat) });
    default:
      return null;
  }
}

/** Toasts for the moments a player must not miss: a bolo, someone else showing their hand. */
export function eventToasts(ctx) {
  for (const ev of ctx.events) {
    if (ev.type === "bolo") ctx.toast(boloText(ev, ctx));
    if (ev.type === "show" && ev.seat !== ctx.seat) ctx.toast(eventText(ev, ctx));
  }
}
