// Fodinha's browser module (Se Fode, Se Fode Junto, 7 Letras): the table, the scoreboard, the tricks pane, the log's
// texts, the platform controls it offers and when, its rule between option fields, and its part of the replay viewer.
// The shell (sefode/web/static/js/room.js) loads it from /games/fodinha/client/index.js; the contract is in
// docs/client-modules.md.
import { SUMMARY_MS, VIRA_MS, fitTable, lastTrick, renderTable, trickCollectMs, trickShowMs } from "./table.js";
import { eventText, eventToasts, renderScore, renderTricks } from "./panels.js";
import { renderReplay } from "./replay.js";

export { eventText, fitTable, renderReplay, renderScore, renderTable };

/** The module's own side panes, after the score. */
/** The table's own rules (the shell links them before the first table is drawn). */
export const stylesheets = ["./fodinha.css"];

export const panes = [{ id: "tricks", title: "tab.tricks", render: renderTricks }];

/** Each new state: keep the last trick on the felt for a moment, and toast a bolo or a shown hand. */
export function onState(ctx) {
  const tricks = ctx.events.filter((ev) => ev.type === "trick");
  const taken = tricks.length && ctx.view ? lastTrick(ctx.view) : null;
  if (taken) {
    // The event says who took it; its cards are the view's last trick (this hand's, or the hand it ended).
    ctx.memory.resolving = { trick: taken, since: Date.now() };
    // Draw again once the trick is collected, so the felt is clear even if nothing else happens.
    clearTimeout(ctx.memory.resolveTimer);
    ctx.memory.resolveTimer = setTimeout(() => ctx.redraw(), trickShowMs() + trickCollectMs() + 20);
  }
  // The end of a hand: its summary (and who went out); a vira turned in a one-card 7 Letras round.
  const ends = ctx.events.filter((ev) => ev.type === "hand_end");
  const last = ctx.view && ctx.view.last_hand;
  if (ends.length && last && ctx.view.phase !== "over") {
    ctx.memory.summary = { record: last, since: Date.now() };
    const out = last.out || [];
    if (out.length) ctx.memory.knockout = { seats: out, since: Date.now() };
    clearTimeout(ctx.memory.summaryTimer);
    ctx.memory.summaryTimer = setTimeout(() => ctx.redraw(), SUMMARY_MS + 20);
  }
  const vira = ctx.events.filter((ev) => ev.type === "vira").pop();
  if (vira && ctx.view && ctx.view.variant === "7letras") {
    ctx.memory.vira = { card: vira.card, since: Date.now() };
    clearTimeout(ctx.memory.viraTimer);
    ctx.memory.viraTimer = setTimeout(() => ctx.redraw(), VIRA_MS + 20);
  }
  eventToasts(ctx);
}

/** The platform controls the table offers now: showing a hand (7 Letras, 2+ cards), joining at a round boundary, leaving. */
export function offers(ctx) {
  const view = ctx.view;
  if (!view) return {};
  const seat = ctx.seat;
  const over = view.phase === "over";
  const inMatch = ctx.seated && view.seat === seat && !over;
  const alive = inMatch && view.alive[seat] && !(view.left && view.left[seat]);
  const boundary = view.phase === "bidding" && view.bids.every((b) => b === null) && !view.shown.some(Boolean);
  return {
    leave: Boolean(alive),
    pause: Boolean(alive),
    out: Boolean(inMatch && !view.alive[seat]),
    show_hand: Boolean(alive && view.variant === "7letras" && view.cards > 1 && !view.shown[seat] && Array.isArray(view.hands[seat]) && view.hands[seat].length),
    join: Boolean(!ctx.seated && !over && view.variant === "7letras" && boundary && view.seats < 8),
  };
}

/** Pairs (Se Fode Junto) need 4, 6 or 8 players: the box is off otherwise. */
export function adjustOptionForm(form) {
  const teams = form.field("teams");
  const players = form.field("players");
  if (!teams || !players) return;
  const n = Number(players.control.value);
  const allowed = [4, 6, 8].includes(n);
  teams.control.disabled = !allowed;
  if (!allowed) teams.control.checked = false;
}
