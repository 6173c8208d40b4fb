// Fodinha's table: seats around an ellipse (you at the bottom), the trick in the middle, your hand and the bids
// below. renderTable() is a pure function of the latest `state` and `room` messages (through the shell's ctx), so a
// resync after a reload or a reconnection simply draws again.
import { backEl, cardEl, sortHand } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t, tn } from "/static/js/i18n.js";
import { clockEl, polar, seatAngle, seatInfo, seatName, teamOf } from "/static/js/seats.js";

const LETTERS = ["F", "O", "D", "A", "S", "S", "E"];
export const TRICK_SHOW_MS = 1100;
export const TRICK_COLLECT_MS = 500;

/** Lives as hearts (Se Fode) or the letters F-O-D-A-S-S-E taken (7 Letras). */
export function scoreEl(view, seat) {
  const score = view.scores[seat];
  if (view.variant === "7letras") {
    return h(
      "span",
      { class: "letters", title: tn("score.points", score), "aria-label": tn("score.points", score), testid: `score-${seat}` },
      LETTERS.map((letter, i) => h("span", { class: i < score ? "taken" : "" }, letter)),
    );
  }
  const opts = view.options || {};
  const total = (opts.lives || 5) * (opts.teams ? 2 : 1);
  const label = tn("score.lives", Math.max(score, 0));
  if (total > 5) {
    return h("span", { class: "hearts", title: label, "aria-label": label, testid: `score-${seat}` }, h("span", { class: "full" }, "♥"), `×${Math.max(score, 0)}`);
  }
  const hearts = [];
  for (let i = 0; i < total; i += 1) hearts.push(h("span", { class: i < score ? "full" : "lost" }, i < score ? "♥" : "♡"));
  return h("span", { class: "hearts", title: label, "aria-label": label, testid: `score-${seat}` }, hearts);
}

function seatBox(ctx, view, room, seat, base, mySeat) {
  const angle = seatAngle(seat, view.seats, base);
  const pos = polar(angle, 41, 39);
  const info = seatInfo(room, seat);
  const team = teamOf(room, view, seat);
  const classes = ["seat"];
  if (view.turn === seat) classes.push("turn");
  if (!view.alive[seat]) classes.push("out");
  if (seat === mySeat) classes.push("mine");
  if (info.connected === false && !info.bot) classes.push("offline");
  const bid = view.bids[seat];
  const status = [];
  if (!view.alive[seat]) status.push(h("span", { class: "tag out" }, t("seat.out")));
  else if (view.left && view.left[seat]) status.push(h("span", { class: "tag left" }, t("seat.left")));
  if (info.connected === false && !info.bot && view.alive[seat]) status.push(h("span", { class: "tag off" }, t("seat.offline")));
  if (view.dealer === seat) status.push(h("span", { class: "tag dealer", title: t("table.dealer") }, t("table.dealer_short")));
  const handCards = view.hands[seat];
  let hand = null;
  if (seat !== mySeat && view.phase !== "over") {
    if (Array.isArray(handCards) && handCards.length) {
      hand = h(
        "div",
        { class: "seat-hand visible", testid: `seat-hand-${seat}` },
        sortHand(handCards, view.manilhas).map((c) => cardEl(c, { size: "sm", manilhas: view.manilhas })),
      );
    } else if (view.hand_counts[seat] > 0) {
      hand = h(
        "div",
        { class: "seat-hand", testid: `seat-hand-${seat}` },
        backEl({ size: "xs" }),
        h("span", { class: "count" }, `×${view.hand_counts[seat]}`),
      );
    }
  }
  return h(
    "div",
    {
      class: classes.join(" "),
      style: { left: `${pos.x}%`, top: `${pos.y}%`, "--team": team ? team.colour : null },
      testid: `seat-${seat}`,
      "data-seat": String(seat),
    },
    h("div", { class: "seat-name", title: seatName(room, seat, mySeat) }, team ? h("span", { class: "team-dot", style: { background: team.colour }, title: team.name }, team.symbol) : null, seatName(room, seat, mySeat, true)),
    team ? h("div", { class: "seat-team", style: { "--team": team.colour } }, team.name) : null,
    h("div", { class: "seat-score" }, scoreEl(view, seat)),
    h(
      "div",
      { class: "seat-bid", testid: `seat-bid-${seat}` },
      bid === null || bid === undefined
        ? h("span", { class: "muted" }, view.phase === "bidding" && view.turn === seat ? t("table.bidding_now") : "—")
        : t("table.bid_won", { bid, won: view.won[seat] }),
    ),
    status.length ? h("div", { class: "seat-tags" }, status) : null,
    view.turn === seat ? clockEl(ctx.deadline(seat), `clock-${seat}`) : null,
    hand,
  );
}

function trickCards(plays, view, base, cls, fresh = new Set()) {
  return plays.map(([seat, card], i) => {
    const angle = seatAngle(seat, view.seats, base);
    const pos = polar(angle, 17, 19);
    const el = cardEl(card, { size: "md", manilhas: view.manilhas, testid: `trick-card-${seat}` });
    el.classList.add("in-trick");
    if (cls) el.classList.add(cls);
    if (fresh.has(seat)) el.classList.add("fresh");
    el.style.left = `${pos.x}%`;
    el.style.top = `${pos.y}%`;
    el.style.zIndex = String(10 + i);
    return el;
  });
}

function infoBar(view) {
  const items = [
    h("span", { class: "chip", testid: "hand-number" }, t("table.hand_n", { n: view.hand_number })),
    h("span", { class: "chip" }, tn("table.cards_n", view.cards)),
  ];
  if (view.variant === "7letras") {
    if (view.vira) {
      items.push(h("span", { class: "chip vira", testid: "vira" }, t("table.vira"), cardEl(view.vira, { size: "xs" })));
    } else if (view.vira_hidden) {
      items.push(h("span", { class: "chip vira", testid: "vira" }, t("table.vira"), backEl({ size: "xs", label: t("table.vira_hidden") }), h("small", {}, t("table.vira_hidden_short"))));
    }
    if (view.manilhas && view.manilhas.length) {
      const rank = view.manilhas[0].slice(0, -1);
      items.push(h("span", { class: "chip", testid: "manilha-rank" }, t("table.manilha_rank", { rank: t(`rank.${rank}`) })));
    }
  } else if (view.manilhas) {
    items.push(
      h("span", { class: "chip manilhas", testid: "manilhas", title: t("table.manilhas_title") }, t("table.manilhas"), view.manilhas.map((c) => cardEl(c, { size: "xs", manilhas: view.manilhas }))),
    );
  }
  if (view.trick_value > 1) {
    items.push(h("span", { class: "chip melada", testid: "trick-value" }, t("table.worth", { n: view.trick_value })));
  }
  return h("div", { class: "info-bar", testid: "info-bar" }, items);
}

function bidPanel(view, onBid, paused) {
  const bids = paused ? [] : (view.legal || []).filter((a) => "bid" in a).map((a) => a.bid);
  if (!bids.length && !paused) return null;
  const oneCardSeven = view.variant === "7letras" && view.cards === 1;
  const buttons = [];
  for (let b = 0; b <= view.cards; b += 1) {
    const forbidden = view.forbidden_bid === b;
    const label = oneCardSeven ? t(b === 1 ? "bid.win" : "bid.lose") : String(b);
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `bid${forbidden ? " forbidden" : ""}`,
          testid: `bid-${b}`,
          disabled: !bids.includes(b),
          title: forbidden ? t("bid.forbidden", { n: b }) : t("bid.bid_n", { n: b }),
          onclick: () => onBid(b),
        },
        label,
      ),
    );
  }
  return h(
    "div",
    { class: "bid-panel", testid: "bid-panel" },
    h("div", { class: "bid-title" }, view.cards === 1 && !oneCardSeven ? t("bid.title_blind") : oneCardSeven ? t("bid.title_seven_one") : t("bid.title")),
    h("div", { class: "bid-buttons" }, buttons),
    view.forbidden_bid !== null && view.forbidden_bid !== undefined
      ? h("div", { class: "foot-rule", testid: "foot-rule" }, t("bid.foot_rule", { n: view.forbidden_bid }))
      : null,
  );
}

function myHand(view, mySeat, onPlay, paused) {
  if (mySeat === null || mySeat === undefined || view.phase === "over") return null;
  const cards = view.hands[mySeat];
  const playable = new Set(paused ? [] : (view.legal || []).filter((a) => "play" in a).map((a) => a.play));
  if (Array.isArray(cards)) {
    if (!cards.length) return h("div", { class: "my-hand empty", testid: "my-hand" });
    return h(
      "div",
      { class: "my-hand", testid: "my-hand" },
      sortHand(cards, view.manilhas).map((c) =>
        cardEl(c, {
          size: "lg",
          manilhas: view.manilhas,
          testid: `hand-card-${c}`,
          playable: playable.has(c),
          disabled: !playable.has(c),
          onclick: () => onPlay(c),
        }),
      ),
    );
  }
  if (view.hand_counts[mySeat] > 0) {
    // Mão na testa: everyone sees your card but you.
    return h(
      "div",
      { class: "my-hand forehead", testid: "my-hand" },
      backEl({ size: "lg", testid: "my-forehead-card", label: t("table.your_card_hidden"), mark: "?" }),
      h("div", { class: "forehead-note" }, t("table.forehead_note")),
    );
  }
  return null;
}

/** The last trick, shown for a moment after it is taken: {event, since} while it is still on the felt, else null. */
function resolving(ctx) {
  const r = ctx.memory.resolving;
  return r && Date.now() - r.since < TRICK_SHOW_MS + TRICK_COLLECT_MS ? r : null;
}

/** Draw the table (the shell's ctx: docs/client-modules.md). */
export function renderTable(ctx) {
  const { room, state } = ctx;
  const onBid = (b) => ctx.act({ bid: b });
  const onPlay = (card) => ctx.act({ play: card });
  const animateTrick = resolving(ctx);
  const view = state.view;
  const mySeat = state.seat ?? view.seat ?? null;
  const base = mySeat ?? 0;
  const seats = [];
  for (let s = 0; s < view.seats; s += 1) seats.push(seatBox(ctx, view, room, s, base, mySeat));
  const justPlayed = new Set((state.events || []).filter((ev) => ev.type === "play").map((ev) => ev.seat));
  const centre = h("div", { class: "trick-area", testid: "trick-area" }, trickCards(view.trick, view, base, null, justPlayed));
  if (animateTrick) {
    // The last trick stays on the felt for a moment, its winning card lit, then slides to the winner's seat.
    // It survives redraws: `since` is when it was first shown.
    const { event: ev, since } = animateTrick;
    const elapsed = Date.now() - since;
    const overlay = h("div", { class: "trick-resolve", testid: "trick-resolve" }, trickCards(ev.plays, view, base, "resolved"));
    if (ev.winner === null || ev.winner === undefined) {
      overlay.appendChild(h("div", { class: "melou" }, t("table.melou")));
    } else {
      const index = ev.plays.findIndex(([s]) => s === ev.winner);
      if (index >= 0) overlay.children[index].classList.add("winner");
      const angle = seatAngle(ev.winner, view.seats, base);
      const pos = polar(angle, 41, 39);
      overlay.style.setProperty("--to-x", `${pos.x - 50}%`);
      overlay.style.setProperty("--to-y", `${pos.y - 50}%`);
    }
    for (const el of overlay.querySelectorAll(".card")) el.removeAttribute("data-testid");
    centre.classList.add("resolving");
    centre.appendChild(overlay);
    if (elapsed >= TRICK_SHOW_MS) overlay.classList.add("collect");
    else setTimeout(() => overlay.classList.add("collect"), TRICK_SHOW_MS - elapsed);
    setTimeout(() => {
      overlay.remove();
      centre.classList.remove("resolving");
    }, Math.max(0, TRICK_SHOW_MS + TRICK_COLLECT_MS - elapsed));
  }
  const paused = Boolean(room && room.status === "paused");
  let turnText;
  if (view.phase === "over") turnText = t("table.match_over");
  else if (room && room.status === "paused") turnText = t("table.paused");
  else if (view.turn === mySeat) turnText = view.phase === "bidding" ? t("table.your_bid") : t("table.your_play");
  else if (view.turn !== null) {
    const key = view.phase === "bidding" ? "table.waiting_bid" : "table.waiting_play";
    turnText = t(key, { name: seatName(room, view.turn, mySeat) });
  } else turnText = "";
  return h(
    "div",
    { class: `table variant-${view.variant} seats-${view.seats}`, testid: "table", "data-phase": view.phase, "data-version": String(state.version) },
    infoBar(view),
    h("div", { class: `felt${view.cards === 1 ? " one-card" : ""}`, testid: "felt" }, seats, centre),
    h("div", { class: `turn-line${view.turn === mySeat && view.phase !== "over" ? " mine" : ""}`, testid: "turn-line" }, turnText),
    view.turn === mySeat && view.phase === "bidding" ? bidPanel(view, onBid, paused) : null,
    myHand(view, mySeat, onPlay, paused),
  );
}
