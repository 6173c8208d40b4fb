// The room page's model: what the server said (the room, the match's state, its end, the chat, the match's log) and
// what the page keeps between messages (the side tab, unread chat, an action on its way, the game module's memory).
// Server messages are folded in here by the apply* methods; the views (room-*.js) only read it. It holds no DOM and
// names no game. A full `state` message enters through `applyState` and nowhere else.
import { currentPlayer } from "./api.js";
import * as generic from "./generic.js";

export const DEFAULT_LEVELS = ["easy", "normal", "hard"];
/** How many events of the match the log keeps, and how many chat messages. */
const LOG_KEEP = 200;
const CHAT_KEEP = 200;

export class RoomModel {
  constructor() {
    this.room = null;
    this.state = null;
    this.matchEnd = null;
    this.chat = [];
    /** Public events of the match on, oldest first (texts are made at drawing time, by the game's module). */
    this.log = [];
    this.tab = "score";
    this.unread = 0;
    this.lastMatchId = null;
    this.pendingAction = false;
    /** The game of the room: its spec from /api/games and its module (or the generic renderer). */
    this.spec = null;
    this.mod = null;
    /** The module's own memory, kept across redraws and reset at each new match. */
    this.memory = {};
    /** The match whose end-of-match card was closed. */
    this.overlayClosedFor = null;
    /** Events since the table was last drawn, for the moves (motion.js); null: draw the table as it is. */
    this.motionEvents = null;
    /** Was it this seat's decision at the last state (turn alerts fire when it becomes so)? */
    this.wasAwaited = false;
    /** The deadline whose last-5-seconds warning was given. */
    this.warnedFor = null;
    /** The connection's status: "open", "reconnecting", "closed". */
    this.connStatus = null;
    /** The latest `past` message of the match on screen (the match's past, asked for when a pane shows it), and the
     * state it was last asked at (`match:seat:version`). */
    this.past = null;
    this.pastAsked = null;
  }

  // ---- folding server messages in

  /**
   * A `state` message (the whole state a seat may see) enters the model here. Returns whether it starts a match this
   * page had not drawn (a new match, or the first state after the page opened).
   */
  applyState(msg) {
    const fresh = this.state === null || this.state.match_id !== msg.match_id;
    this.pendingAction = false;
    if (fresh) this.memory = {};
    if (msg.recap && msg.recap.length && (fresh || !msg.events || !msg.events.length)) {
      this.log = [];
      this.addLog(msg.recap);
    } else this.addLog(msg.events);
    if (fresh && msg.match_id !== this.lastMatchId) this.matchEnd = null;
    this.lastMatchId = msg.match_id;
    this.state = msg;
    if (fresh) this.past = null;
    // A state with no events (a join, a reconnection, a resync): a request of the past may have been lost, ask again.
    if (!msg.events || !msg.events.length) this.pastAsked = null;
    // A new match, or a resync after a reconnection (no events), is drawn as it is; moves are for new events.
    if (fresh) this.motionEvents = null;
    else if (msg.events && msg.events.length) this.motionEvents = [...(this.motionEvents || []), ...msg.events];
    return fresh;
  }

  /** A `past` message (docs/protocol.md): kept when it is of the match on screen. Returns whether it was. */
  applyPast(msg) {
    if (!this.state || msg.match_id !== this.state.match_id) return false;
    this.past = msg;
    return true;
  }

  /** Should the page ask for the match's past now? Not when it holds the past of the state on screen, nor when it
   * asked at that state already (the answer is on its way); marks it asked. */
  wantsPast() {
    const state = this.state;
    if (!state) return false;
    const held = this.past;
    if (held && held.match_id === state.match_id && held.seat === state.seat && held.version === state.version) return false;
    const key = `${state.match_id}:${state.seat}:${state.version}`;
    if (this.pastAsked === key) return false;
    this.pastAsked = key;
    return true;
  }

  /** The game's past of the match on screen, as last received (perhaps a state behind while a newer one comes), or
   * null before any came. */
  pastOf() {
    const held = this.past;
    return held && this.state && held.match_id === this.state.match_id ? held.past : null;
  }

  /** A `room` message. A room with no match any more drops a state that was not over (the match was abandoned). */
  applyRoom(room) {
    this.room = room;
    if (!room.match && this.state && !this.isOver()) this.state = null;
  }

  applyMatchEnd(msg) {
    this.matchEnd = msg;
  }

  /** A `chat` message; false when it was kept already (the stored chat comes again, marked recap, on every join). */
  applyChat(msg) {
    if (msg.id !== undefined && this.chat.some((m) => m.id === msg.id)) return false;
    this.chat.push(msg);
    if (msg.recap && msg.id !== undefined) this.chat.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    if (this.chat.length > CHAT_KEEP) this.chat.shift();
    if (this.tab !== "chat" && !msg.recap) this.unread += 1;
    return true;
  }

  /** A player just blocked: what they said is gone from this page too (the server sends no more of it). */
  dropChatFrom(playerId) {
    this.chat = this.chat.filter((m) => !(m.from && m.from.player_id === playerId));
  }

  addLog(events) {
    for (const ev of events || []) this.log.push(ev);
    if (this.log.length > LOG_KEEP) this.log.splice(0, this.log.length - LOG_KEEP);
  }

  setGame(spec, mod) {
    this.spec = spec;
    this.mod = mod;
  }

  /** The chat pane was opened: nothing is unread. */
  openTab(name) {
    this.tab = name;
    if (name === "chat") this.unread = 0;
  }

  // ---- what the page knows about the match

  /** The game module's function `name`, else the generic renderer's, else null. */
  hook(name) {
    const mod = this.mod || generic;
    if (typeof mod[name] === "function") return mod[name];
    return typeof generic[name] === "function" ? generic[name] : null;
  }

  capable(what) {
    return Boolean(this.spec && (this.spec.capabilities || []).includes(what));
  }

  /** The room is known and its game's module loaded: the views can draw. */
  ready() {
    return Boolean(this.room && this.mod);
  }

  mySeat() {
    if (this.state && this.state.seat !== null && this.state.seat !== undefined) return this.state.seat;
    return this.room ? this.room.your_seat ?? null : null;
  }

  isOwner() {
    return Boolean(this.room && currentPlayer() && this.room.owner === currentPlayer().player_id);
  }

  paused() {
    return Boolean(this.room && this.room.status === "paused");
  }

  matchEndFor(state) {
    return this.matchEnd && state && this.matchEnd.match_id === state.match_id ? this.matchEnd : null;
  }

  /** Is the match on screen over? The match_end message, or the state message's `over` (the game's say). */
  isOver() {
    const state = this.state;
    if (!state) return false;
    if (this.matchEndFor(state)) return true;
    return state.over === true;
  }

  matchOn() {
    return Boolean(this.room && this.room.match && this.state && !this.isOver());
  }

  /** A match's table is on screen (over or not): the seating moves to the side's Room pane. */
  tableShown() {
    return Boolean(this.state && this.room && this.room.match);
  }

  seatCount() {
    const view = (this.state && this.state.view) || {};
    if (Number.isInteger(view.seats)) return view.seats;
    const seats = (this.room && this.room.match && this.room.match.seats) || (this.room && this.room.seats) || [];
    return seats.length;
  }

  /** The seat a player holds in the match on (else the room's seats), or null. */
  seatOfPlayer(playerId) {
    const room = this.room;
    if (!room || !playerId) return null;
    const seats = (room.match && room.match.seats) || room.seats || [];
    const found = seats.find((s) => s.player_id === playerId && !s.left);
    return found ? found.seat : null;
  }

  /** Is this player seated in the room (for the next match) or in the match on? Reactions are theirs. */
  seatedHere() {
    const me = currentPlayer();
    if (!this.room || !me) return false;
    if (this.matchOn()) return Boolean(this.room.match && (this.room.match.seats || []).some((s) => s.player_id === me.player_id && !s.left));
    return (this.room.seats || []).some((s) => s.player_id === me.player_id);
  }

  /** The end-of-match card's result (match_end, else the view's placements), or null when the card is not shown. */
  endResult() {
    const state = this.state;
    const view = state && state.view;
    const ended = this.matchEndFor(state);
    const result = ended || (view && Array.isArray(view.placements) ? { placements: view.placements, no_winner: view.no_winner } : null);
    if (!state || !result || !result.placements || !this.isOver() || this.overlayClosedFor === state.match_id) return null;
    return result;
  }

  endShown() {
    return this.endResult() !== null;
  }
}
