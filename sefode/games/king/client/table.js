// King's table: four seats around the felt (you at the bottom) with what each has taken in this hand, the trick in
// the middle, the contract and the trump always on show, the contract chooser and the trump picker, your hand with the
// cards you may not play dimmed (touching one says why), and the last trick. renderTable() is a pure function of
// ctx (docs/client-modules.md): a reload or a reconnection simply draws again.
import { cardEl, cardShort, sortCards, SUIT_SYMBOL } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { clockEl, polar, seatAngle, seatInfo, seatName } from "/static/js/seats.js";

const MIN_FELT_PX = 170;

export function contractName(name) {
  return name ? t(`king.contract.${name}`) : "—";
}

export function suitName(suit) {
  return t(`king.suit.${suit}`);
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// Each counter a small icon (a mini card with what it counts) and its number; the icon is hidden from screen readers,
// whose name for the counter is the player's words ("Vazas: 2"), also the tooltip.
const TAKEN_ICON = { tricks: "", men: "JK", queens: "Q", hearts: "♥", king_of_hearts: "K♥" };

function takenEl(view, seat) {
  const taken = view.taken && view.taken[seat];
  if (!taken) return null;
  const contract = view.contract;
  const keys = ["tricks"];
  if (["homens", "salada", "bolola"].includes(contract)) keys.push("men");
  if (["mulheres", "salada", "bolola"].includes(contract)) keys.push("queens");
  if (["copas", "salada", "bolola"].includes(contract)) keys.push("hearts");
  if (["king", "salada", "bolola"].includes(contract)) keys.push("king_of_hearts");
  const items = keys.map((key) => {
    const label = t("king.taken.label", { what: t(`king.taken.${key}`), n: taken[key] });
    return h(
      "span",
      { class: `counter counter-${key}`, role: "img", "aria-label": label, title: label, testid: `taken-${seat}-${key}` },
      h("span", { class: `ic ic-${key}`, "aria-hidden": "true" }, TAKEN_ICON[key]),
      h("span", { class: "n", "aria-hidden": "true" }, String(taken[key])),
    );
  });
  const points = signed(view.points[seat]);
  const pointsLabel = t("king.taken.label", { what: t("king.points_hand"), n: points });
  items.push(h("span", { class: "seat-points", role: "img", "aria-label": pointsLabel, title: pointsLabel, testid: `seat-points-${seat}` }, h("span", { "aria-hidden": "true" }, t("king.points_short", { n: points }))));
  return h("div", { class: "seat-taken", testid: `seat-taken-${seat}` }, items);
}

function seatBox(ctx, view, seat, base, mySeat) {
  const room = ctx.room;
  const angle = seatAngle(seat, 4, base);
  const pos = polar(angle, 41, 39);
  const info = seatInfo(room, seat);
  const classes = ["seat"];
  if (view.turn === seat) classes.push("turn");
  if (seat === mySeat) classes.push("mine");
  if (info.connected === false && !info.bot) classes.push("offline");
  const tags = [];
  if (view.dealer === seat) tags.push(h("span", { class: "tag dealer", title: t("king.dealer") }, t("king.dealer_short")));
  if (view.chooser === seat && view.phase !== "over") tags.push(h("span", { class: "tag chooser", testid: `chooser-${seat}`, title: t("king.chooser") }, "★"));
  if (info.connected === false && !info.bot) tags.push(h("span", { class: "tag off" }, t("seat.offline")));
  const total = view.totals[seat];
  return h(
    "div",
    { class: classes.join(" "), style: { left: `${pos.x}%`, top: `${pos.y}%` }, testid: `seat-${seat}`, "data-seat": String(seat) },
    h("div", { class: "seat-name", title: seatName(room, seat, mySeat) }, seatName(room, seat, mySeat, true)),
    // One line for the total, the dealer and chooser marks and the cards in hand (a compact seat on a phone).
    h(
      "div",
      { class: "seat-line" },
      h("span", { class: `seat-total ${total < 0 ? "neg" : total > 0 ? "pos" : ""}`, testid: `seat-total-${seat}`, title: t("king.sheet.total") }, signed(total)),
      tags.length ? h("span", { class: "seat-tags" }, tags) : null,
      seat !== mySeat && view.hand_counts[seat] > 0
        ? h("span", { class: "seat-hand", title: t("king.cards_in_hand", { n: view.hand_counts[seat] }) }, h("span", { class: "count" }, `🂠×${view.hand_counts[seat]}`))
        : null,
    ),
    view.phase === "playing" ? takenEl(view, seat) : null,
    // Your own clock is the turn timer by your decision (the shell's): not a second one on your seat.
    view.turn === seat && seat !== mySeat ? clockEl(ctx.deadline(seat), `clock-${seat}`) : null,
  );
}

function trickCards(plays, base) {
  return plays.map(([seat, card], i) => {
    const pos = polar(seatAngle(seat, 4, base), 17, 19);
    const el = cardEl(card, { size: "md", testid: `trick-card-${seat}` });
    el.classList.add("in-trick");
    el.style.left = `${pos.x}%`;
    el.style.top = `${pos.y}%`;
    el.style.zIndex = String(10 + i);
    return el;
  });
}

function contractInfo(view) {
  return (view.contracts || []).find((c) => c.name === view.contract) || null;
}

function infoBar(ctx, view) {
  const items = [h("span", { class: "chip", testid: "hand-number" }, t("king.sheet.hand"), ` ${view.hand_number}/${view.hands_per_match}`)];
  const info = contractInfo(view);
  items.push(
    h(
      "span",
      { class: "chip contract", testid: "contract", title: info ? t(`king.points.${info.name}`) : "" },
      view.contract ? contractName(view.contract) : view.phase === "over" ? "—" : t("king.phase.choosing", { seat: ctx.name(view.chooser, true) }),
    ),
  );
  // The trump is shown at all times: the suit in a Trunfo hand, "no trump" in the other contracts, and "to be chosen"
  // while the contract (or the Trunfo hand's suit) is still being chosen.
  const trump = view.trump;
  const pending = !trump && view.phase !== "over" && (!view.contract || view.contract === "trunfo");
  items.push(
    h(
      "span",
      { class: `chip trump-chip${trump ? ` suit-${trump}` : ""}`, testid: "trump" },
      t("king.trump"),
      ": ",
      trump ? h("b", {}, SUIT_SYMBOL[trump]) : null,
      trump ? ` ${suitName(trump)}` : pending ? t("king.trump_pending") : t("king.no_trump"),
    ),
  );
  return h(
    "div",
    { class: "info-bar", testid: "info-bar" },
    items,
    info ? h("div", { class: "contract-points", testid: "contract-points" }, t(`king.points.${info.name}`)) : null,
  );
}

function contractPanel(ctx, view, paused) {
  const legal = new Set(paused ? [] : ctx.legal.map((e) => e.action).filter((a) => "contract" in a).map((a) => a.contract));
  const buttons = (view.contracts || []).map((c) =>
    h(
      "button",
      {
        type: "button",
        testid: `contract-${c.name}`,
        disabled: !legal.has(c.name),
        title: t(`king.points.${c.name}`),
        onclick: () => ctx.act({ contract: c.name }),
      },
      h("span", { class: "contract-name" }, contractName(c.name)),
      // What it scores: read out with the name and shown as the tooltip; the list below shows them all (one tap).
      h("span", { class: "sr-only" }, ` ${t(`king.points.${c.name}`)}`),
    ),
  );
  const quotas = view.quotas
    ? h(
        "table",
        { class: "quota-table", testid: "quotas" },
        h("tbody", {}, view.quotas.map((q, s) => h("tr", { testid: `quota-${s}` }, h("td", {}, ctx.name(s, true)), h("td", {}, t("king.quota.trunfo", { n: q.trunfo })), h("td", {}, t("king.quota.pool", { n: q.pool }))))),
      )
    : null;
  const open = view.pool_open
    ? h("p", { class: "pool-open", testid: "pool-open" }, t("king.pool_open"), ": ", view.pool_open.map(contractName).join(", "))
    : null;
  // The quotas, the contracts still open and every contract's points, one tap away, so the chooser stays short enough for the hand below it to show.
  const points = h(
    "details",
    { class: "contract-points-list", testid: "contract-points-list" },
    h("summary", {}, t("king.points_list")),
    open,
    quotas,
    h("dl", {}, (view.contracts || []).map((c) => [h("dt", {}, contractName(c.name)), h("dd", {}, t(`king.points.${c.name}`))])),
  );
  return h("div", { class: "decision contract-panel", testid: "contract-panel", "data-focus-group": "bid" }, h("h3", {}, t("king.choose_contract")), h("div", { class: "contract-buttons" }, buttons), points);
}

function trumpPanel(ctx, view, paused) {
  const legal = new Set(paused ? [] : ctx.legal.map((e) => e.action).filter((a) => "trump" in a).map((a) => a.trump));
  return h(
    "div",
    { class: "decision trump-panel", testid: "trump-panel", "data-focus-group": "bid" },
    h("h3", {}, t("king.choose_trump")),
    h(
      "div",
      { class: "trump-buttons" },
      ["c", "h", "s", "d"].map((s) =>
        h("button", { type: "button", class: `suit-${s}`, testid: `trump-${s}`, disabled: !legal.has(s), title: suitName(s), "aria-label": suitName(s), onclick: () => ctx.act({ trump: s }) }, SUIT_SYMBOL[s]),
      ),
    ),
  );
}

/** Why a card of your hand may not be played now: the view names the rule by its catalogue key. */
function reasonText(view, card) {
  const key = view.reasons && view.reasons[card];
  return key ? t(key) : null;
}

function myHand(ctx, view, mySeat, paused) {
  if (mySeat === null || mySeat === undefined || view.phase === "over") return null;
  const cards = view.hands[mySeat];
  if (!Array.isArray(cards)) return null;
  const myTurn = view.turn === mySeat && view.phase === "playing" && !paused;
  const playable = new Set(myTurn ? ctx.legal.map((e) => e.action).filter((a) => "play" in a).map((a) => a.play) : []);
  return h(
    "div",
    { class: "my-hand", testid: "my-hand", "data-focus-group": "hand", tabindex: "-1", role: "group", "aria-label": t("king.your_hand") },
    sortCards(cards).map((c) => {
      const ok = playable.has(c);
      const why = myTurn && !ok ? reasonText(view, c) : null;
      const el = cardEl(c, {
        size: "md",
        testid: `hand-card-${c}`,
        playable: ok,
        extraClass: myTurn && !ok ? "dimmed" : null,
        label: why || null,
        // A dimmed card is not disabled: touching it says why it may not be played.
        onclick: () => {
          if (ok) ctx.act({ play: c });
          else if (why) ctx.toast(why, "info");
        },
      });
      // Not aria-disabled: it must stay clickable, and its accessible name already carries the reason.
      if (myTurn && !ok) el.dataset.reason = why || "";
      return el;
    }),
  );
}

export function lastTrickEl(ctx, view, trick) {
  if (!trick) return null;
  return h(
    "div",
    { class: "last-trick", testid: "last-trick" },
    h("span", { class: "who" }, t("king.last_trick"), ":"),
    trick.plays.map(([seat, card]) => {
      const el = cardEl(card, { size: "xs" });
      el.title = `${ctx.name(seat, true)}: ${cardShort(card)}`;
      if (seat === trick.winner) el.classList.add("won");
      return el;
    }),
    h("span", { class: "muted" }, "→ ", ctx.name(trick.winner, true)),
  );
}

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h2 = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h2 > 0 ? w * h2 : 0;
}

/** Your decision in view (as Fodinha's fitTable): the felt gives up height until your hand and the chooser or picker
 * fit the screen, then each played card moves towards the middle until it covers no seat. */
export function fitTable(table) {
  if (!table || !table.isConnected) return;
  const felt = table.querySelector(".felt");
  if (!felt) return;
  felt.style.height = "";
  felt.classList.remove("flat");
  const over = () => {
    const bottoms = [...table.querySelectorAll("[data-testid=my-hand], .decision")].map((el) => el.getBoundingClientRect().bottom + window.scrollY);
    return bottoms.length ? Math.max(...bottoms) - document.documentElement.clientHeight : 0;
  };
  const excess = over();
  if (excess > 0) {
    const height = felt.getBoundingClientRect().height;
    const wanted = Math.floor(height - excess - 2);
    // No trick on the table (the contract or the trump to choose) and no room for the round felt: the four seats
    // in a row instead, so the chooser and the hand fit.
    if (wanted < MIN_FELT_PX && !felt.querySelector(".card.in-trick")) felt.classList.add("flat");
    else felt.style.height = `${Math.max(MIN_FELT_PX, wanted)}px`;
  }
  const seats = [...felt.querySelectorAll(".seat")].map((el) => el.getBoundingClientRect());
  const inner = felt.getBoundingClientRect();
  const left = inner.left + felt.clientLeft, top = inner.top + felt.clientTop;
  for (const card of felt.querySelectorAll(".card.in-trick")) {
    const x = parseFloat(card.dataset.x || card.style.left);
    const y = parseFloat(card.dataset.y || card.style.top);
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    card.dataset.x = String(x);
    card.dataset.y = String(y);
    const w = card.offsetWidth, hh = card.offsetHeight;
    const covers = (px, py) => {
      const cx = left + (px / 100) * felt.clientWidth, cy = top + (py / 100) * felt.clientHeight;
      const rect = { left: cx - w / 2, right: cx + w / 2, top: cy - hh / 2, bottom: cy + hh / 2 };
      return seats.reduce((sum, seat) => sum + overlap(rect, seat), 0);
    };
    let best = { x, y, area: Infinity };
    for (let step = 10; step >= 0; step -= 1) {
      const px = 50 + ((x - 50) * step) / 10, py = 50 + ((y - 50) * step) / 10;
      const area = covers(px, py);
      if (area < best.area) best = { x: px, y: py, area };
      if (area === 0) break;
    }
    card.style.left = `${best.x}%`;
    card.style.top = `${best.y}%`;
  }
}

let lastTable = null;
if (typeof window !== "undefined") window.addEventListener("resize", () => fitTable(lastTable));

/** Draw the table (the shell's ctx: docs/client-modules.md). */
export function renderTable(ctx) {
  const { room, state } = ctx;
  const view = state.view;
  const mySeat = state.seat ?? view.seat ?? null;
  const base = mySeat ?? 0;
  const paused = Boolean(room && room.status === "paused");
  const seats = [0, 1, 2, 3].map((s) => seatBox(ctx, view, s, base, mySeat));
  const centre = h("div", { class: "trick-area", testid: "trick-area", "data-motion": "table" }, trickCards(view.trick, base));
  let turnText = "";
  if (view.phase === "over") turnText = t("table.match_over");
  else if (paused) turnText = t("table.paused");
  else if (view.turn !== null && view.turn !== undefined && view.turn === mySeat) turnText = t(`king.your_turn.${view.phase}`);
  else if (view.turn !== null && view.turn !== undefined) turnText = t(`king.phase.${view.phase}`, { seat: seatName(room, view.turn, mySeat) });
  const mine = view.turn === mySeat && view.phase !== "over";
  const table = h(
    "div",
    { class: "table king", testid: "table", "data-phase": view.phase, "data-version": String(state.version) },
    infoBar(ctx, view),
    h("div", { class: "felt", testid: "felt" }, seats, centre),
    h("div", { class: `turn-line${mine ? " mine" : ""}`, testid: "turn-line" }, turnText),
    mine && view.phase === "choosing" ? contractPanel(ctx, view, paused) : null,
    mine && view.phase === "trump" ? trumpPanel(ctx, view, paused) : null,
    myHand(ctx, view, mySeat, paused),
    lastTrickEl(ctx, view, view.last_trick),
  );
  lastTable = table;
  return table;
}
