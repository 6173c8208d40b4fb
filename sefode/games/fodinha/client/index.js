// Fodinha's browser module (Se Fode, Se Fode Junto, 7 Letras): the table, the scoreboard, the tricks pane, the log's
// texts, the platform controls it offers and when, its rule between option fields, and its part of the replay viewer.
// The shell (sefode/web/static/js/room.js) loads it from /games/fodinha/client/index.js; the contract is in
// docs/client-modules.md.
import { TRICK_COLLECT_MS, TRICK_SHOW_MS, renderTable } from "./table.js";
import { eventText, eventToasts, renderScore, renderTricks } from "./panels.js";
import { renderReplay } from "./replay.js";

export { eventText, renderReplay, renderScore, renderTable };

/** The module's own side panes, after the score. */
export const panes = [{ id: "tricks", title: "tab.tricks", render: renderTricks }];

/** Each new state: keep the last trick on the felt for a moment, and toast a bolo or a shown hand. */
export function onState(ctx) {
  const tricks = ctx.events.filter((ev) => ev.type === "trick");
  if (tricks.length) {
    ctx.memory.resolving = { event: tricks[tricks.length - 1], since: Date.now() };
    // Draw again once the trick is collected, so the felt is clear even if nothing else happens.
    clearTimeout(ctx.memory.resolveTimer);
    ctx.memory.resolveTimer = setTimeout(() => ctx.redraw(), TRICK_SHOW_MS + TRICK_COLLECT_MS + 20);
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
