// The `ctx` every game module receives to draw (docs/client-modules.md, "ctx: what the shell passes"), built from the
// room's model (room-model.js) and the few things the page does for the module (send an action, redraw, a toast where
// the player tapped, the turn timer).
import { confirmDialog, toast } from "./dom.js";
import { deadlineOf, seatInfo, seatName, teamOf } from "./seats.js";

/**
 * @param {import("./room-model.js").RoomModel} model
 * @param {{act: (action: object) => void, redraw: () => void, lastTap: () => DOMRect | null,
 *          turnTimer: (deadline: number) => HTMLElement, askPast: () => void}} page
 */
export function gameContext(model, page) {
  const state = model.state;
  const seat = state ? state.seat ?? null : model.mySeat();
  const awaiting = (state && state.awaiting) || [];
  const seated = seat !== null && seat !== undefined;
  const over = model.isOver();
  const awaited = Boolean(seated && !over && awaiting.includes(seat));
  const paused = model.paused();
  return {
    game: model.spec,
    gameName: model.spec ? model.spec.name : null,
    room: model.room,
    state,
    view: state ? state.view : null,
    events: (state && state.events) || [],
    seat: seated ? seat : null,
    seats: model.seatCount(),
    seated,
    over,
    paused,
    awaited,
    // A simultaneous turn: this seat has submitted and waits for the others.
    submitted: Boolean(seated && !over && !awaited && awaiting.length && model.spec && model.spec.turns === "simultaneous"),
    pending: model.pendingAction,
    legal: (state && state.legal) || [],
    /** The match's past (the game's `Game.past`: what its views leave out because it grows with the match), or null
     * until it comes; asks the server for it when the one held is not of the state on screen, and the page redraws
     * when it comes. Call it only from what is on screen (a shown pane), never on every state. */
    past: () => {
      if (model.wantsPast()) page.askPast();
      return model.pastOf();
    },
    memory: model.memory,
    act: page.act,
    confirm: confirmDialog,
    // A refusal or a hint of the module's shows where the player just tapped (the card, the pile), else on top.
    toast: (text, kind) => toast(text, kind, page.lastTap()),
    redraw: () => page.redraw(),
    name: (s, short = false) => seatName(model.room, s, seat, short),
    info: (s) => seatInfo(model.room, s),
    team: (s) => teamOf(model.room, state ? state.view : null, s),
    deadline: (s) => (model.paused() ? null : deadlineOf(state, s)),
    /** Your turn's timer (bar and seconds) for the module's decision bar, or null when there is no clock. */
    timer: () => {
      const d = awaited && !model.paused() ? deadlineOf(state, seat) : null;
      return d ? page.turnTimer(d) : null;
    },
  };
}
