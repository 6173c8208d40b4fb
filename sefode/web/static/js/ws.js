// The table's WebSocket: authenticates (session cookie, or a first "auth" message; never a token in the URL),
// joins the room, reconnects by itself with backoff, and hands messages to the page.
import { getToken } from "./api.js";
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { StateModel, onThisClock } from "./patch.js";

const BACKOFF_MS = [200, 500, 1000, 2000, 3000];

/** Close codes the server ends a connection with (docs/protocol.md): the text that explains each one. */
export const CLOSE_CODES = {
  4401: "ws.closed_auth", // no valid session
  4403: "ws.closed_origin", // the page is not this server's
  4410: "ws.closed_session_ended", // logged out, logged out everywhere, or the account was deleted
  4429: "ws.closed_limit", // too many messages or connections
};
/** After these the connection is not retried: a new session (or page) is needed. */
const FINAL = new Set([4401, 4403, 4410]);

export function closeText(code) {
  return CLOSE_CODES[code] ? t(CLOSE_CODES[code]) : null;
}

export class RoomConnection {
  /**
   * @param {string} roomId
   * @param {{password?: string, invite?: string}} access
   * @param {(msg: object) => void} onMessage
   * @param {(status: "open"|"closed"|"reconnecting") => void} onStatus
   */
  constructor(roomId, access, onMessage, onStatus) {
    this.roomId = roomId;
    this.access = access || {};
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.pingTimer = 0;
    this.retryTimer = 0;
    this.model = new StateModel();
    this.resyncing = false;
    /** When the message that last told the clocks came (Date.now()), and the ends the page was given last. */
    this.clockAt = 0;
    this.ends = {};
  }

  /** A server message for the page: an "update" is folded into the full "state" it makes (patch.js), so the page
   * and the game modules only ever see full states, their clocks on this device's clock (from when the message that
   * told them came); a gap asks the server for the full state again. */
  receive(msg) {
    if (msg.type === "state") {
      this.resyncing = false;
      this.clockAt = Date.now();
      this.onMessage(this.onClock(this.model.take(msg)));
      return;
    }
    if (msg.type === "update") {
      // The server tells the clocks in every update while one runs: an update without them changed none.
      if ("deadlines" in msg || "deadline" in msg) this.clockAt = Date.now();
      const state = this.model.fold(msg);
      if (state) {
        state.type = "state";
        this.onMessage(this.onClock(state));
      } else if (!this.resyncing) {
        this.resyncing = true;
        this.send({ type: "resync" });
      }
      return;
    }
    this.onMessage(msg);
  }

  /** A state for the page with its clocks on this device's clock (patch.js), each running clock's end kept. */
  onClock(state) {
    onThisClock(state, this.clockAt, this.ends);
    this.ends = state.deadlines;
    return state;
  }

  connect() {
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.model.reset();
      this.resyncing = false;
      const token = getToken();
      if (token) socket.send(JSON.stringify({ type: "auth", token }));
      socket.send(JSON.stringify(this.joinMessage()));
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg && typeof msg === "object") this.receive(msg);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket || this.stopped) return;
      const text = closeText(event.code);
      if (text) toast(text, "error");
      if (FINAL.has(event.code)) {
        this.stopped = true;
        this.socket = null;
        this.onStatus("closed");
        return;
      }
      this.onStatus("reconnecting");
      if (event.code === 4429) this.attempt = BACKOFF_MS.length - 1;
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  joinMessage() {
    const join = { type: "join", room: this.roomId, updates: true };
    if (this.access.password) join.password = this.access.password;
    if (this.access.invite) join.invite = this.access.invite;
    return join;
  }

  /** Ask to join again (after `server/busy`: the room was between two servers of a cluster). */
  rejoin() {
    return this.send(this.joinMessage());
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
    this.socket = null;
    this.onStatus("closed");
  }
}
