// The solo coach ("Dica", issue 15; docs/bots.md): at a solo table (every other seat a bot), an opt-in switch in the
// table's controls, remembered in localStorage (`sefode.coach`, off until the player turns it on), and after each hand
// a short panel with what the hard bot would have chosen at the player's decisions that mattered (the bid, the
// mistakes), with its estimates. The server judges each decision from the player's information set at that moment
// (`GET /api/rooms/{id}/coach?since=N&until=M`, sefode/server/routes/analysis.py); the page only draws the answer.
// Game-neutral: a hand ends at a `hand_end` event (and a match at its end), the moves are the server's
// `describe_action` labels, and a game names its figures in its catalogue (`coach.measure.<name>`, with {value} and
// {percent}; else `analysis.measure.<name>`). It never holds up play: the request runs beside the table, one at a
// time, and its panel sits under the table, never over the hand or the controls.
import { ApiError, api } from "./api.js";
import { h } from "./dom.js";
import { currentLang, errorText, hasKey, t, tg } from "./i18n.js";
import { moveText } from "./cards.js";

const STORE_KEY = "sefode.coach";

export function coachOn() {
  try {
    return localStorage.getItem(STORE_KEY) === "on";
  } catch {
    return false;
  }
}

function setCoach(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch {
    // Private mode: the switch holds for this page only.
  }
}

/** A solo table for `seat`: it is seated, and every other seat of the match (or the room) is a bot of the table. */
export function isSolo(room, seat) {
  if (!room || seat === null || seat === undefined) return false;
  const seats = (room.match && room.match.seats) || room.seats || [];
  return seats.length > 1 && seats.every((s, i) => i === seat || Boolean(s.bot));
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const number = (value) => value.toLocaleString(currentLang(), { maximumFractionDigits: 2 });

function figure(key, value, game) {
  const params = { value: number(value), percent: String(Math.round(value * 100)) };
  const own = "coach.measure." + key;
  if (hasKey(own, game)) return tg(game, own, params);
  const named = "analysis.measure." + key;
  return `${hasKey(named, game) ? tg(game, named) : key} ${params.value}`;
}

/** The estimate of one option in words: the game's own figures, else the search's value. */
function estimate(option, game) {
  if (!option) return "";
  const parts = [];
  for (const [key, value] of Object.entries(option)) {
    if (["action", "label", "visits", "value"].includes(key) || typeof value !== "number") continue;
    parts.push(figure(key, value, game));
  }
  if (!parts.length && typeof option.value === "number") parts.push(t("coach.value", { value: number(option.value) }));
  return parts.join(", ");
}

function decisionItem(d, i, game) {
  const option = (action) => (d.options || []).find((o) => same(o.action, action));
  const agreed = same(d.chosen, d.preferred);
  const mine = option(d.chosen);
  const theirs = option(d.preferred);
  return h(
    "li",
    { class: `coach-decision${d.mistake ? " mistake" : ""}${agreed ? " agreed" : ""}`, testid: `coach-decision-${i}`, dataset: { index: String(d.index), headline: d.headline ? "1" : "0", mistake: d.mistake ? "1" : "0" } },
    h(
      "p",
      { class: "coach-moves" },
      h("span", { testid: "coach-chosen" }, t("coach.you_chose", { move: moveText(d.chosen_label, game) })),
      " ",
      agreed
        ? h("span", { class: "coach-agreed", testid: "coach-agreed" }, t("coach.agreed"))
        : h("span", { testid: "coach-preferred" }, t("coach.hard_bot", { move: moveText(d.preferred_label, game) })),
    ),
    mine && mine.visits
      ? h(
          "p",
          { class: "coach-estimate small", testid: "coach-estimate" },
          agreed ? t("coach.estimate_one", { mine: estimate(mine, game) }) : t("coach.estimate", { mine: estimate(mine, game), theirs: estimate(theirs, game) }),
        )
      : null,
    d.mistake ? h("p", { class: "coach-mistake small", testid: "coach-mistake" }, t("coach.mistake")) : null,
  );
}

/**
 * The coach of one room page. `onState(msg, seat, solo)` for every state message (it follows the hands even while
 * switched off, so turning it on speaks of the next hand), `toggle()` the switch for the controls, `panel(game)` the
 * panel (or null). `redraw()` draws the table again when an answer comes.
 */
export function createCoach({ roomId, redraw }) {
  const cs = { matchId: null, since: 0, queue: [], busy: false, tip: null, enabled: coachOn() };

  async function pump() {
    if (cs.busy) return;
    const ask = cs.queue.shift();
    if (!ask) return;
    cs.busy = true;
    cs.tip = { status: "thinking", ask };
    redraw();
    try {
      const data = await api("GET", `/rooms/${encodeURIComponent(roomId)}/coach?since=${ask.since}&until=${ask.until}`);
      if (cs.tip && cs.tip.ask === ask) cs.tip = { status: "done", ask, data };
    } catch (error) {
      const text = error instanceof ApiError ? errorText(error) : t("coach.offline");
      if (cs.tip && cs.tip.ask === ask) cs.tip = { status: "failed", ask, error: text };
    } finally {
      cs.busy = false;
    }
    redraw();
    pump();
  }

  function onState(msg, seat, solo) {
    if (msg.match_id !== cs.matchId) {
      // A new match (or the first state this page sees of it): the coach speaks of decisions from here on.
      cs.matchId = msg.match_id;
      cs.since = msg.version;
      cs.queue = [];
      cs.tip = null;
    }
    const ends = (msg.events || []).filter((ev) => ev.type === "hand_end");
    const over = msg.over === true;
    if (!(ends.length || over) || msg.version <= cs.since) return;
    const last = ends[ends.length - 1];
    const ask = { since: cs.since, until: msg.version, hand: last && Number.isInteger(last.hand) ? last.hand : null };
    cs.since = msg.version;
    if (cs.enabled && solo && seat !== null && seat !== undefined) {
      cs.queue.push(ask);
      pump();
    }
  }

  function toggle() {
    const on = cs.enabled;
    return h(
      "button",
      {
        type: "button",
        testid: "coach-toggle",
        class: on ? "coach-toggle on" : "coach-toggle",
        "aria-pressed": on ? "true" : "false",
        title: t("coach.toggle_title"),
        onclick: () => {
          cs.enabled = !cs.enabled;
          setCoach(cs.enabled);
          if (!cs.enabled) {
            cs.queue = [];
            cs.tip = null;
          }
          redraw();
        },
      },
      on ? t("coach.on") : t("coach.off"),
    );
  }

  function body(tip, game) {
    if (tip.status === "thinking") {
      return [h("p", { class: "coach-thinking", testid: "coach-thinking" }, h("span", { class: "coach-spinner", "aria-hidden": "true" }), t("coach.thinking"))];
    }
    if (tip.status === "failed") {
      return [
        h("p", { class: "coach-error", testid: "coach-error", role: "alert" }, t("coach.failed", { reason: tip.error })),
        h(
          "button",
          {
            type: "button",
            testid: "coach-retry",
            onclick: () => {
              cs.queue.unshift(tip.ask);
              pump();
            },
          },
          t("coach.retry"),
        ),
      ];
    }
    const decisions = tip.data.decisions || [];
    const named = new Set(tip.data.highlights || []);
    const shown = decisions.filter((d) => named.has(d.index));
    if (!shown.length) {
      return [h("p", { class: "small", testid: "coach-nothing" }, decisions.length ? t("coach.nothing") : t("coach.no_decisions"))];
    }
    return [h("ul", { class: "coach-decisions", testid: "coach-decisions" }, shown.map((d, i) => decisionItem(d, i, game))), h("p", { class: "muted small coach-note" }, t("coach.no_hindsight"))];
  }

  function panel(game) {
    const tip = cs.tip;
    if (!cs.enabled || !tip) return null;
    const hand = tip.ask.hand;
    return h(
      "section",
      { class: `coach-tip ${tip.status}`, testid: "coach-tip", dataset: { status: tip.status, since: String(tip.ask.since), until: String(tip.ask.until) }, "aria-live": "polite", "aria-label": t("coach.title") },
      h(
        "div",
        { class: "coach-head" },
        h("b", {}, hand !== null ? t("coach.title_hand", { n: hand }) : t("coach.title")),
        h("button", { type: "button", class: "coach-close", testid: "coach-close", "aria-label": t("coach.close"), title: t("coach.close"), onclick: () => {
          cs.tip = null;
          redraw();
        } }, "×"),
      ),
      body(tip, game),
    );
  }

  return { onState, toggle, panel, solo: isSolo };
}
