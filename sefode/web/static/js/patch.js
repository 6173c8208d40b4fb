// Updates (docs/protocol.md "Updates"): folds an "update" into the last full "state" of the connection, so that the
// page receives full states only. The same fold as sefode/fold.py. A path is a string relative to the view (or to
// the seat's legal list): keys and indexes joined by "/" ("~1" in a key is "/", "~0" is "~"); "" is the value itself.
// Ops: ["=", path, value] sets ("path/-" at an array appends the items of value; an update's "set" object
// {path: value} holds these, applied first),
// ["-", path] removes a key, ["+", path, items] appends to an array, ["<", path, n] cuts an array to n items,
// ["*", path, i, n, items] replaces the n items from index i of an array with items.

/** The keys of a state an update gives whole when they changed ("version" only when it did not move by one). */
const FIELDS = ["version", "deadline", "deadlines", "awaiting", "over", "seat_status"];

/** A state's "deadline" from its "deadlines": the seat's own, else the earliest, else null. An update leaves
 * "deadline" out when it is this. */
export function stateDeadline(deadlines, seat) {
  const own = seat === null ? undefined : deadlines[String(seat)];
  if (own !== undefined && own !== null) return own;
  const all = Object.values(deadlines);
  return all.length ? Math.min(...all) : null;
}

/** A state's "awaiting" from its "deadlines": their seats, in order. An update that carries "deadlines" leaves
 * "awaiting" out when it is this. */
export function stateAwaiting(deadlines) {
  return Object.keys(deadlines)
    .map(Number)
    .sort((a, b) => a - b);
}

/** How far apart two ends of a clock told by two messages may be and still be the same clock's end: the time left
 * is measured when the server makes a message and counted from when it comes, so the same end moves by what the
 * network takes, message to message. A clock started again moves by the whole time since it last started. */
export const CLOCK_JITTER_MS = 1000;

/**
 * A state for the page, its clocks on this device's clock: the server sends the time left on each (ms), and
 * `deadlines` and `deadline` become when each runs out (epoch ms), counted from `at`, when the message that told them
 * came. A device whose clock is wrong still counts down the right time. `before`: the ends the page was last given
 * ({seat: epoch ms}); an end that moved by less than CLOCK_JITTER_MS is kept as it was, so a running clock's bar and
 * warning stay its own.
 */
export function onThisClock(state, at, before = {}) {
  const ends = {};
  for (const [seat, left] of Object.entries(state.deadlines || {})) {
    const end = at + left;
    const was = before[seat];
    ends[seat] = typeof was === "number" && Math.abs(end - was) < CLOCK_JITTER_MS ? was : end;
  }
  state.deadlines = ends;
  if (typeof state.deadline === "number") {
    const end = at + state.deadline;
    const same = Object.values(ends).find((e) => Math.abs(e - end) < CLOCK_JITTER_MS);
    state.deadline = same === undefined ? end : same;
  }
  return state;
}

function keys(path) {
  return path === "" ? [] : path.split("/").map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Apply ops, whose paths are relative to box[key], in place. */
export function fold(box, key, ops) {
  for (const op of ops) {
    const kind = op[0];
    if (typeof op[1] !== "string") throw new Error("a path is a string");
    let parent = box;
    let last = key;
    for (const k of keys(op[1])) {
      parent = parent[last];
      if (parent === null || typeof parent !== "object") throw new Error("no such path");
      last = Array.isArray(parent) && k !== "-" ? Number(k) : k;
    }
    if (kind === "=" && last === "-" && Array.isArray(parent)) parent.push(...op[2]);
    else if (kind === "=") parent[last] = op[2];
    else if (kind === "-") delete parent[last];
    else if (kind === "+") parent[last].push(...op[2]);
    else if (kind === "<") parent[last].length = op[2];
    else if (kind === "*") parent[last].splice(op[2], op[3], ...op[4]);
    else throw new Error(`unknown op ${kind}`);
  }
}

/** The label of each legal action given since the full state, by the action's JSON text: an update writes an item
 * whose label it gave before as its action alone (any value that is not an object with a "label"). */
function learn(labels, legal) {
  legal.forEach((item, i) => {
    if (item === null || typeof item !== "object" || !("label" in item)) {
      const label = labels.get(JSON.stringify(item));
      if (label === undefined) throw new Error("a label never given");
      legal[i] = { action: item, label: structuredClone(label) };
    }
  });
  for (const item of legal) labels.set(JSON.stringify(item.action), item.label);
}

/** The states of one connection: the last full state, kept apart from what the page is given, and the legal list
 * of its seat's last turn (which an update's "legal" ops change; it stays while the seat waits). */
export class StateModel {
  constructor() {
    this.reset();
  }

  reset() {
    this.state = null;
    this.legal = [];
    this.labels = new Map();
  }

  /** A full "state" from the server: kept, and a copy of it for the page. */
  take(msg) {
    this.state = structuredClone(msg);
    delete this.state.recap;
    this.legal = this.state.legal;
    this.labels = new Map();
    learn(this.labels, this.legal);
    return msg;
  }

  /**
   * An "update": the full state it makes (a copy for the page), or null when it does not follow the state held
   * (its base is not the state's seq): the caller asks for a "resync" then.
   */
  fold(update) {
    const state = this.state;
    const base = update.base ?? update.seq - 1;
    if (!state || base !== state.seq) {
      this.reset();
      return null;
    }
    try {
      const version = state.version;
      for (const key of FIELDS) if (key in update) state[key] = update[key];
      if (!("version" in update)) state.version = version + 1;
      if ("deadlines" in update && !("deadline" in update)) state.deadline = stateDeadline(state.deadlines, state.seat);
      if ("deadlines" in update && !("awaiting" in update)) state.awaiting = stateAwaiting(state.deadlines);
      fold(state, "view", Object.entries(update.set || {}).map(([path, value]) => ["=", path, value]));
      fold(state, "view", update.ops || []);
      if (state.seat !== null && state.awaiting.includes(state.seat)) {
        const box = { legal: this.legal };
        fold(box, "legal", update.legal || []);
        learn(this.labels, box.legal);
        this.legal = state.legal = box.legal;
      } else {
        state.legal = [];
      }
    } catch {
      this.reset();
      return null;
    }
    state.events = update.events;
    state.seq = update.seq;
    return structuredClone(state);
  }
}
