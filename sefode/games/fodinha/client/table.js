// Fodinha's table: seats around an ellipse (you at the bottom), the trick in the middle, your hand and the bids
// below. renderTable() is a pure function of the latest `state` and `room` messages (through the shell's ctx), so a
// resync after a reload or a reconnection simply draws again.
import { backEl, cardEl } from "/static/js/cards.js";
import { sortHand } from "./cards.js";
import { h } from "/static/js/dom.js";
import { t, tn } from "/static/js/i18n.js";
import { arrive } from "/static/js/motion.js";
import { clockEl, polar, seatAngle, seatInfo, seatName, teamOf } from "/static/js/seats.js";

const LETTERS = ["F", "O", "D", "A", "S", "S", "E"];
export const TRICK_SHOW_MS = 1000;
/** The taken trick's slide to its winner: short, as every move of the table (motion.js's MAX_MS). */
export const TRICK_COLLECT_MS = 280;
/** How long the end-of-hand summary and a turned vira stay unless dismissed. */
export const SUMMARY_MS = 6000;
export const VIRA_MS = 3500;

/** With reduced motion the trick is still shown, for a shorter, still clear, pause and with no slide. */
function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
export function trickShowMs() {
  return reducedMotion() ? 400 : TRICK_SHOW_MS;
}
export function trickCollectMs() {
  return reducedMotion() ? 0 : TRICK_COLLECT_MS;
}

/** docs/rulings.md §1.18: Se Fode plays clockwise, 7 Letras counter-clockwise; the seats are drawn in that direction. */
export function direction(view) {
  return view.variant === "7letras" ? -1 : 1;
}

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

/** Pairs (Se Fode Junto): each pair's seats, shared score, combined bid and tricks. */
export function pairsOf(view) {
  if (!Array.isArray(view.teams)) return [];
  const units = new Map();
  view.teams.forEach((unit, seat) => {
    if (unit === null || unit === undefined) return;
    if (!units.has(unit)) units.set(unit, { unit, seats: [], bid: 0, bidKnown: true, won: 0, score: view.scores[seat], alive: false });
    const pair = units.get(unit);
    pair.seats.push(seat);
    if (view.bids[seat] === null || view.bids[seat] === undefined) pair.bidKnown = false;
    else pair.bid += view.bids[seat];
    pair.won += view.won[seat] || 0;
    pair.alive = pair.alive || view.alive[seat];
  });
  return [...units.values()];
}

function pairsBar(ctx, view) {
  const pairs = pairsOf(view);
  if (!pairs.length) return null;
  return h(
    "div",
    { class: "pairs-bar", testid: "pairs-bar" },
    pairs.map((pair) => {
      const team = ctx.team(pair.seats[0]);
      return h(
        "div",
        { class: `pair${pair.alive ? "" : " out"}`, testid: `pair-${pair.unit}`, style: { "--team": team ? team.colour : null } },
        h("span", { class: "pair-name", title: team ? team.name : "" }, team ? `${team.symbol} ${team.name}` : t("team.default_name", { n: pair.unit + 1 })),
        h("span", { class: "pair-score", testid: `pair-score-${pair.unit}` }, scoreEl(view, pair.seats[0])),
        h("span", { class: "pair-bid", testid: `pair-bid-${pair.unit}` }, pair.bidKnown ? t("table.bid_won", { bid: pair.bid, won: pair.won }) : t("table.pair_won", { won: pair.won })),
      );
    }),
  );
}

function seatBox(ctx, view, room, seat, base, mySeat) {
  const angle = seatAngle(seat, view.seats, base, direction(view));
  const pos = rimPos(angle);
  const info = seatInfo(room, seat);
  const team = teamOf(room, view, seat);
  const turn = turnOf(ctx);
  const classes = ["seat"];
  if (turn === seat) classes.push("turn");
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
      // Anchored at the same fraction of its own box as its place on the felt: a seat on the rim stays inside it.
      style: { left: `${pos.x}%`, top: `${pos.y}%`, "--ax": `${-pos.x}%`, "--ay": `${-pos.y}%`, "--team": team ? team.colour : null },
      testid: `seat-${seat}`,
      "data-seat": String(seat),
      "data-angle": String(angle),
    },
    h("div", { class: "seat-name", title: seatName(room, seat, mySeat) }, team ? h("span", { class: "team-dot", style: { background: team.colour }, "aria-hidden": "true" }, team.symbol) : null, seatName(room, seat, mySeat)),
    team ? h("div", { class: "seat-team", style: { "--team": team.colour }, title: team.name }, team.name) : null,
    // In pairs the lives are the pair's: they are drawn once per pair (the pairs bar), not on each seat.
    team && Array.isArray(view.teams) ? null : h("div", { class: "seat-score" }, scoreEl(view, seat)),
    h(
      "div",
      { class: "seat-bid", testid: `seat-bid-${seat}` },
      bid === null || bid === undefined
        ? h("span", { class: "muted" }, view.phase === "bidding" && turn === seat ? t("table.bidding_now") : "—")
        : [
            h("span", { class: "bid-long" }, t("table.bid_won", { bid, won: view.won[seat] })),
            // The compact seat's form (tricks made / bid), with the words in its tooltip.
            h("span", { class: "bid-short", "aria-hidden": "true", title: t("table.bid_won", { bid, won: view.won[seat] }) }, t("table.won_of_bid", { bid, won: view.won[seat] })),
          ],
    ),
    status.length ? h("div", { class: "seat-tags" }, status) : null,
    turn === seat ? clockEl(ctx.deadline(seat), `clock-${seat}`) : null,
    hand,
  );
}

/**
 * A seat's place on the felt's rim (percent of the felt), also the point of its own box it is anchored by. The rim is
 * a rounded rectangle (a superellipse), not an ellipse: seats between the sides and the ends sit out in the corners,
 * clear of their neighbours and of the middle where the cards are played.
 */
function rimPos(angle, power = RIM_POWERS[0]) {
  const rad = (angle * Math.PI) / 180;
  const bend = (v) => Math.sign(v) * Math.abs(v) ** power;
  return { x: 50 + 48 * bend(Math.cos(rad)), y: 50 + 48 * bend(Math.sin(rad)) };
}
/** The rim's shapes tried in turn until no two seats touch: rounded rectangle, ellipse, squarer rectangle. */
const RIM_POWERS = [0.75, 1, 0.5];

function placeSeat(el, power) {
  const pos = rimPos(Number(el.dataset.angle), power);
  el.style.left = `${pos.x}%`;
  el.style.top = `${pos.y}%`;
  el.style.setProperty("--ax", `${-pos.x}%`);
  el.style.setProperty("--ay", `${-pos.y}%`);
}

const MIN_FELT_PX = 180;

/** Boxes a and b (DOMRect-like) overlap by more than a pixel each way: the area in common, else 0. */
function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 1 && h > 1 ? w * h : 0;
}

/**
 * After the table is in the page (and when the window changes size): the felt gives up height until the hand and
 * the decision bar fit the first screen, and each played card moves towards the middle until it covers no seat.
 */
export function fitTable(table) {
  if (!table || !table.isConnected) return;
  const felt = table.querySelector(".felt");
  if (!felt) return;
  felt.style.height = "";
  const bottoms = [...table.querySelectorAll("[data-testid=my-hand], [data-testid=bid-panel]")].map((el) => el.getBoundingClientRect().bottom + window.scrollY);
  const over = bottoms.length ? Math.max(...bottoms) - document.documentElement.clientHeight : 0;
  if (over > 0) {
    const height = felt.getBoundingClientRect().height;
    felt.style.height = `${Math.max(MIN_FELT_PX, Math.floor(height - over - 2))}px`;
  }
  // Seats that touch each other (large text, many seats, a short felt): the rim's other shapes, then every seat in
  // its compact form, until none does (else the arrangement where they touch least).
  const seatEls = [...felt.querySelectorAll(".seat[data-angle]")];
  const touching = () => {
    const boxes = seatEls.map((el) => el.getBoundingClientRect());
    let sum = 0;
    boxes.forEach((a, i) => boxes.forEach((b, j) => { if (j > i) sum += overlap(a, b); }));
    return sum;
  };
  let best = null;
  for (const tight of [false, true]) {
    felt.classList.toggle("tight", tight);
    for (const power of RIM_POWERS) {
      for (const el of seatEls) placeSeat(el, power);
      const area = touching();
      if (!best || area < best.area) best = { tight, power, area };
      if (area === 0) break;
    }
    if (best.area === 0) break;
  }
  if (best) {
    felt.classList.toggle("tight", best.tight);
    for (const el of seatEls) placeSeat(el, best.power);
  }
  const seats = [...felt.querySelectorAll(".seat")].map((el) => el.getBoundingClientRect());
  const box = felt.getBoundingClientRect();
  const inner = { left: box.left + felt.clientLeft, top: box.top + felt.clientTop, w: felt.clientWidth, h: felt.clientHeight };
  for (const card of felt.querySelectorAll(".card.in-trick")) {
    const x = parseFloat(card.dataset.x || card.style.left);
    const y = parseFloat(card.dataset.y || card.style.top);
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    card.dataset.x = String(x);
    card.dataset.y = String(y);
    const w = card.offsetWidth, h = card.offsetHeight;
    const covers = (px, py) => {
      const cx = inner.left + (px / 100) * inner.w;
      const cy = inner.top + (py / 100) * inner.h;
      const rect = { left: cx - w / 2, right: cx + w / 2, top: cy - h / 2, bottom: cy + h / 2 };
      return seats.reduce((sum, seat) => sum + overlap(rect, seat), 0);
    };
    // Towards the middle along the line from its seat; failing that, the free spot of the felt nearest to it.
    let spot = null;
    let least = { x, y, area: Infinity };
    for (let step = 10; step >= 0 && !spot; step -= 1) {
      const px = 50 + ((x - 50) * step) / 10, py = 50 + ((y - 50) * step) / 10;
      const area = covers(px, py);
      if (area === 0) spot = { x: px, y: py };
      else if (area < least.area) least = { x: px, y: py, area };
    }
    if (!spot) {
      let near = Infinity;
      for (let px = 8; px <= 92; px += 4) {
        for (let py = 10; py <= 90; py += 4) {
          const d = (px - x) ** 2 + (py - y) ** 2;
          if (d < near && covers(px, py) === 0) {
            near = d;
            spot = { x: px, y: py };
          }
        }
      }
    }
    spot = spot || least;
    card.style.left = `${spot.x}%`;
    card.style.top = `${spot.y}%`;
  }
}

let lastTable = null;
if (typeof window !== "undefined") window.addEventListener("resize", () => fitTable(lastTable));

/** Each played card in front of the seat that played it (further out, and smaller, with many seats). */
function trickPos(view, seat, base) {
  const angle = seatAngle(seat, view.seats, base, direction(view));
  return view.seats >= 6 ? polar(angle, 25, 23) : polar(angle, 18, 19);
}

function trickCards(plays, view, base, cls, fresh = new Set()) {
  return plays.map(([seat, card], i) => {
    const pos = trickPos(view, seat, base);
    const el = cardEl(card, { size: view.seats >= 6 ? "sm" : "md", manilhas: view.manilhas, testid: `trick-card-${seat}` });
    el.classList.add("in-trick");
    if (cls) el.classList.add(cls);
    if (fresh.has(seat)) el.classList.add("fresh");
    el.style.left = `${pos.x}%`;
    el.style.top = `${pos.y}%`;
    el.style.zIndex = String(10 + i);
    return el;
  });
}

function infoBar(ctx, view) {
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
  const last = lastTrick(view);
  if (last) {
    const open = Boolean(ctx.memory.peek);
    items.push(
      h(
        "button",
        {
          type: "button",
          class: `chip peek${open ? " active" : ""}`,
          testid: "last-trick-toggle",
          "aria-pressed": open ? "true" : "false",
          onclick: () => {
            ctx.memory.peek = !ctx.memory.peek;
            ctx.redraw();
          },
        },
        t("table.last_trick"),
      ),
    );
  }
  return h("div", { class: "info-bar", testid: "info-bar" }, items);
}

/** Whose turn it is: the seat the state awaits (the view leaves it to `state.awaiting`), or null. */
export function turnOf(ctx) {
  const awaiting = (ctx.state && ctx.state.awaiting) || [];
  return awaiting.length ? awaiting[0] : null;
}

/** The last trick taken (this hand's, else the last hand's), for the peek. */
export function lastTrick(view) {
  if (view.tricks && view.tricks.length) return view.tricks[view.tricks.length - 1];
  const last = view.last_hand;
  return last && last.tricks && last.tricks.length ? last.tricks[last.tricks.length - 1] : null;
}

function peekEl(ctx, view, base) {
  const trick = lastTrick(view);
  if (!ctx.memory.peek || !trick) return null;
  const cards = trickCards(trick.plays, view, base, "peeked");
  for (const el of cards) el.removeAttribute("data-testid");
  const index = trick.plays.findIndex(([s]) => s === trick.winner);
  if (index >= 0) cards[index].classList.add("winner");
  return h(
    "div",
    { class: "trick-peek", testid: "last-trick" },
    cards,
    h(
      "div",
      { class: "peek-label" },
      trick.winner === null || trick.winner === undefined ? t("table.melou") : t("table.taken_by", { name: ctx.name(trick.winner) }),
    ),
  );
}

/** Lives (or letters) a seat's unit lost in a finished hand. */
function lost(view, record, seat) {
  const pairs = pairsOf({ ...view, bids: record.bids, won: record.won });
  const pair = pairs.find((p) => p.seats.includes(seat));
  const bid = pair ? pair.bid : record.bids[seat];
  const won = pair ? pair.won : record.won[seat];
  if (bid === null || bid === undefined) return 0;
  if (view.variant === "7letras") return bid === won ? 0 : 1;
  return Math.abs(bid - won);
}

/** The end-of-hand summary: each seat's bid, tricks made and lives (or letters) lost; dismissed or timed out. */
function summaryEl(ctx, view) {
  const summary = ctx.memory.summary;
  // It stays through the next hand's bidding at most: once cards are played it would cover them.
  if (!summary || view.phase !== "bidding" || Date.now() - summary.since > SUMMARY_MS) return null;
  // Issue 22: it gives way once your own bid is due (it would cover the table while your clock runs).
  const turn = turnOf(ctx);
  if (turn !== null && turn === (ctx.seat ?? view.seat)) return null;
  const record = summary.record;
  if (!record || record.number !== (view.last_hand && view.last_hand.number)) return null;
  const rows = [];
  for (let s = 0; s < view.seats; s += 1) {
    if (record.bids[s] === null || record.bids[s] === undefined) continue;
    const n = lost(view, record, s);
    rows.push(
      h(
        "tr",
        { class: s === ctx.seat ? "mine" : "" },
        h("th", { scope: "row", title: ctx.name(s) }, ctx.name(s)),
        h("td", {}, String(record.bids[s])),
        h("td", {}, String(record.won[s])),
        h("td", { class: n ? "lost" : "kept" }, n ? (view.variant === "7letras" ? t("summary.letter") : `−${n}`) : "✓"),
      ),
    );
  }
  const out = (record.out || []).filter((s) => s !== null && s !== undefined);
  return h(
    "div",
    { class: "hand-summary", testid: "hand-summary", role: "dialog", "aria-label": t("summary.title", { n: record.number }) },
    h("h3", {}, t("summary.title", { n: record.number })),
    record.vira ? h("p", { class: "summary-vira" }, t("table.vira"), " ", cardEl(record.vira, { size: "xs" })) : null,
    record.void
      ? h("p", {}, t("score.void"))
      : h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", {}, t("score.player")), h("th", {}, t("score.bid")), h("th", {}, t("score.won")), h("th", {}, view.variant === "7letras" ? t("score.letters") : t("score.lives_head")))),
          h("tbody", {}, rows),
        ),
    out.length ? h("p", { class: "knockout" }, t("summary.knocked_out", { names: out.map((s) => ctx.name(s)).join(", ") })) : null,
    h(
      "button",
      {
        type: "button",
        testid: "summary-close",
        onclick: () => {
          ctx.memory.summary = null;
          ctx.redraw();
        },
      },
      t("summary.close"),
    ),
  );
}

/** Someone went out this hand: a banner over the table for a while. */
function knockoutBanner(ctx, view) {
  const ko = ctx.memory.knockout;
  if (!ko || Date.now() - ko.since > SUMMARY_MS || view.phase === "over") return null;
  return h("div", { class: "knockout-banner", testid: "knockout-banner", role: "status" }, t("summary.knocked_out", { names: ko.seats.map((s) => ctx.name(s)).join(", ") }));
}

/** A vira just turned (the one-card 7 Letras round): shown big in the middle for a moment. */
function viraReveal(ctx, view) {
  const vira = ctx.memory.vira;
  if (!vira || Date.now() - vira.since > VIRA_MS || view.phase === "over") return null;
  return h("div", { class: "vira-reveal", testid: "vira-reveal", role: "status" }, h("span", {}, t("table.vira_turned")), cardEl(vira.card, { size: "md" }));
}

function bidPanel(ctx, view, onBid, paused) {
  const bids = paused ? [] : ctx.legal.map((e) => e.action).filter((a) => "bid" in a).map((a) => a.bid);
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
          "data-key": oneCardSeven ? String(b) : String(b),
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
    h("div", { class: "bid-head" }, h("div", { class: "bid-title" }, view.cards === 1 && !oneCardSeven ? t("bid.title_blind") : oneCardSeven ? t("bid.title_seven_one") : t("bid.title")), ctx.timer()),
    h("div", { class: "bid-buttons", "data-focus-group": "bid", role: "group", "aria-label": t("bid.title") }, buttons),
    view.forbidden_bid !== null && view.forbidden_bid !== undefined
      ? h("div", { class: "foot-rule", testid: "foot-rule" }, t("bid.foot_rule", { n: view.forbidden_bid }))
      : null,
  );
}

function myHand(ctx, view, mySeat, onPlay, paused) {
  if (mySeat === null || mySeat === undefined || view.phase === "over") return null;
  const cards = view.hands[mySeat];
  const playable = new Set(paused ? [] : ctx.legal.map((e) => e.action).filter((a) => "play" in a).map((a) => a.play));
  if (Array.isArray(cards)) {
    if (!cards.length) return emptyHand();
    // The cards fan and overlap to fit the width (CSS reads --n); arrow keys move between them, Enter plays.
    return h(
      "div",
      { class: "my-hand", testid: "my-hand", "data-focus-group": "hand", tabindex: "-1", role: "group", "aria-label": t("table.your_hand"), style: { "--n": String(cards.length) } },
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
      { class: "my-hand forehead", testid: "my-hand", "data-focus-group": "hand", tabindex: "-1" },
      backEl({ size: "lg", testid: "my-forehead-card", label: t("table.your_card_hidden"), mark: "?" }),
      h("div", { class: "forehead-note" }, t("table.forehead_note")),
    );
  }
  // No card left (the forehead card played, or out of the match): the empty hand stays, so keyboard focus has a place.
  return emptyHand();
}

function emptyHand() {
  return h("div", { class: "my-hand empty", testid: "my-hand", "data-focus-group": "hand", tabindex: "-1" });
}

/** The last trick, shown for a moment after it is taken: {trick, since} while it is still on the felt, else null. */
function resolving(ctx) {
  const r = ctx.memory.resolving;
  return r && Date.now() - r.since < trickShowMs() + trickCollectMs() ? r : null;
}

/** The cards that waited hidden under the taken trick, seen travelling in from the seats that played them. */
function arriveWaiting(memory, centre) {
  const root = centre.closest("[data-testid=table]");
  if (!memory.waiting || !root || !root.isConnected) return;
  const waited = new Set(memory.waiting);
  memory.waiting = null;
  const cards = [...centre.querySelectorAll(":scope > .card")].filter((el) => waited.has(el.dataset.card));
  const seatOf = (node) => root.querySelector(`[data-seat="${node.dataset.testid.replace("trick-card-", "")}"]`);
  arrive(cards.map((node) => ({ node, from: seatOf(node) })));
}

/** Draw the table (the shell's ctx: docs/client-modules.md). */
export function renderTable(ctx) {
  const { room, state } = ctx;
  const onBid = (b) => ctx.act({ bid: b });
  const onPlay = (card) => ctx.act({ play: card });
  const animateTrick = resolving(ctx);
  const view = state.view;
  // A finished trick stays on the felt until collected: meanwhile the next lead or bid waits (a short, clear pause).
  const pausing = Boolean(animateTrick);
  const mySeat = state.seat ?? view.seat ?? null;
  const base = mySeat ?? 0;
  const seats = [];
  for (let s = 0; s < view.seats; s += 1) seats.push(seatBox(ctx, view, room, s, base, mySeat));
  // A card just played pops in where it lands (unless motion.js shows it travelling there), on the first drawing of
  // its state only: a redraw of the same state (a room message, a timer) does not pop it in again, and a card drawn
  // hidden under the taken trick does not pop in behind it.
  const firstDrawing = ctx.memory.drawnVersion !== state.version;
  ctx.memory.drawnVersion = state.version;
  const justPlayed = new Set(firstDrawing && !animateTrick ? (state.events || []).filter((ev) => ev.type === "play").map((ev) => ev.seat) : []);
  // Where cards are played to (motion.js): a card travels there from your hand or from the seat that played it, the
  // last card of a trick too (into the taken trick shown below) before the trick goes to its winner.
  const centre = h("div", { class: "trick-area", testid: "trick-area", "data-motion": "table" }, trickCards(view.trick, view, base, null, justPlayed));
  if (animateTrick) {
    // The last trick stays on the felt for a moment, its winning card lit, then slides to the winner's seat.
    // It survives redraws: `since` is when it was first shown.
    const { trick: taken, since } = animateTrick;
    const elapsed = Date.now() - since;
    const overlay = h("div", { class: "trick-resolve", testid: "trick-resolve" }, trickCards(taken.plays, view, base, "resolved"));
    if (taken.winner === null || taken.winner === undefined) {
      overlay.appendChild(h("div", { class: "melou" }, t("table.melou")));
    } else {
      const index = taken.plays.findIndex(([s]) => s === taken.winner);
      if (index >= 0) overlay.children[index].classList.add("winner");
      const angle = seatAngle(taken.winner, view.seats, base, direction(view));
      const pos = rimPos(angle);
      overlay.style.setProperty("--to-x", `${pos.x - 50}%`);
      overlay.style.setProperty("--to-y", `${pos.y - 50}%`);
    }
    for (const el of overlay.querySelectorAll(".card")) el.removeAttribute("data-testid");
    // The next trick's cards wait, hidden, under the taken one: none of them is seen travelling meanwhile; once it is
    // gone they travel from the seats that played them (below, on the first drawing after it).
    for (const el of centre.querySelectorAll(":scope > .card")) el.dataset.motion = "still";
    ctx.memory.waiting = view.trick.map(([, card]) => card);
    overlay.style.setProperty("transition-duration", `${trickCollectMs()}ms`);
    centre.classList.add("resolving");
    centre.appendChild(overlay);
    if (elapsed >= trickShowMs()) overlay.classList.add("collect");
    else setTimeout(() => overlay.classList.add("collect"), trickShowMs() - elapsed);
    // The taken trick goes; the cards under it stay hidden until the next drawing (onState's timer) shows them
    // travelling in.
    setTimeout(() => overlay.remove(), Math.max(0, trickShowMs() + trickCollectMs() - elapsed));
  } else if (ctx.memory.waiting) {
    // In the page's next frame, by the drawing then in the page (a newer drawing may have replaced this one).
    requestAnimationFrame(() => arriveWaiting(ctx.memory, centre));
  }
  const paused = Boolean(room && room.status === "paused");
  const blocked = paused || pausing;
  const oneCardSeven = view.variant === "7letras" && view.cards === 1;
  const turn = turnOf(ctx);
  let turnText;
  if (view.phase === "over") turnText = t("table.match_over");
  else if (room && room.status === "paused") turnText = t("table.paused");
  else if (pausing && animateTrick.trick.winner !== null && animateTrick.trick.winner !== undefined) turnText = t("table.taken_by", { name: seatName(room, animateTrick.trick.winner, mySeat) });
  else if (turn === mySeat) turnText = view.phase === "bidding" ? (oneCardSeven ? t("table.your_bid_seven_one") : t("table.your_bid")) : t("table.your_play");
  else if (turn !== null) {
    const key = view.phase === "bidding" ? "table.waiting_bid" : "table.waiting_play";
    turnText = t(key, { name: seatName(room, turn, mySeat) });
  } else turnText = "";
  const myTurn = turn === mySeat && view.phase !== "over";
  const table = h(
    "div",
    { class: `table variant-${view.variant} seats-${view.seats}${Array.isArray(view.teams) ? " pairs" : ""}`, testid: "table", "data-phase": view.phase, "data-version": String(state.version) },
    infoBar(ctx, view),
    pairsBar(ctx, view),
    knockoutBanner(ctx, view),
    h("div", { class: `felt${view.cards === 1 ? " one-card" : ""}`, testid: "felt" }, seats, centre, peekEl(ctx, view, base), viraReveal(ctx, view), summaryEl(ctx, view)),
    h(
      "div",
      { class: `turn-line${myTurn && !pausing ? " mine" : ""}`, testid: "turn-line" },
      h("span", {}, turnText),
      myTurn && view.phase === "playing" && !pausing ? ctx.timer() : null,
    ),
    myTurn && view.phase === "bidding" && !pausing ? bidPanel(ctx, view, onBid, paused) : null,
    myHand(ctx, view, mySeat, onPlay, blocked),
  );
  lastTable = table;
  return table;
}
