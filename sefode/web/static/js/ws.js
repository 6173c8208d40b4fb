// The table's WebSocket: joins the room, reconnects by itself with backoff, and hands messages to the page.
import { getToken } from "./api.js";

const BACKOFF_MS = [200, 500, 1000, 2000, 3000];

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
  }

  connect() {
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const token = getToken();
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    const socket = new WebSocket(`${scheme}://${location.host}/ws${query}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      const join = { type: "join", room: this.roomId };
      if (this.access.password) join.password = this.access.password;
      if (this.access.invite) join.invite = this.access.invite;
      socket.send(JSON.stringify(join));
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
      if (msg && typeof msg === "object") this.onMessage(msg);
    });
    socket.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket || this.stopped) return;
      this.onStatus("reconnecting");
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
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
