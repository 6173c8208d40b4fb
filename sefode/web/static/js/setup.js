// Each seat's secret choice for the next match (games with the `seat_setup` capability, docs/protocol.md): between
// matches, the room page shows a "your choice for the next match" panel. A game's module may draw its own choices by
// exporting renderSetup(ctx); otherwise the ready choices of room.setup.choices are drawn as buttons. Every seat's
// ready mark (room.setup.ready) is shown, and a refusal from the server (setup/...) is shown in the panel. This file
// names no game; room.js only calls it.
import { currentPlayer } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { seatName } from "./seats.js";

/** The same choice? (a ready choice's value, or a list the game normalised: compared as JSON). */
export function sameChoice(a, b) {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The room page's part of the seat setup. `send(message)` sends on the room's connection; `redraw()` redraws the page.
 * Feed it every message (`onMessage`); draw its `panel(...)` between matches.
 */
export function createSeatSetup({ send, redraw }) {
  const st = { value: null, error: null, memory: {} };

  function onMessage(msg) {
    if (msg.type === "seat_setup") {
      st.value = msg.value;
      st.error = null;
      redraw();
    } else if (msg.type === "error" && typeof msg.code === "string" && msg.code.startsWith("setup/")) {
      st.error = msg;
    }
  }

  function sendSetup(value) {
    st.error = null;
    send({ type: "seat_setup", value });
  }

  function readyMarks(room, me) {
    const ready = (room.setup && room.setup.ready) || [];
    return h(
      "ul",
      { class: "setup-ready", testid: "setup-ready" },
      (room.seats || []).map((info) => {
        const s = info.seat;
        const done = Boolean(ready[s]);
        // A seat without a player (a bot, or empty: a bot plays it) takes the default choice.
        const mark = !info.player_id ? t("setup.bot") : done ? `✔ ${t("setup.ready")}` : t("setup.waiting");
        return h("li", { testid: `setup-ready-${s}`, "data-ready": done ? "1" : "0", class: done ? "ready" : "muted" }, `${seatName(room, s, me)}: ${mark}`);
      }),
    );
  }

  function defaultChoices(ctx) {
    const choices = (ctx.room.setup && ctx.room.setup.choices) || [];
    return h(
      "div",
      { class: "row setup-choices", testid: "setup-choices" },
      choices.map((choice, i) =>
        h(
          "button",
          {
            type: "button",
            class: sameChoice(choice.value, ctx.value) ? "active" : "",
            "aria-pressed": sameChoice(choice.value, ctx.value) ? "true" : "false",
            title: choice.description ? t(choice.description) : null,
            testid: `setup-choice-${i}`,
            onclick: () => ctx.sendSetup(choice.value),
          },
          t(choice.label),
        ),
      ),
    );
  }

  /** The panel, or null when the game takes no choice. `mod` is the game's module, `game` its spec. */
  function panel({ room, mod, game }) {
    if (!room || !room.setup) return null;
    const me = currentPlayer();
    const info = me ? (room.seats || []).find((s) => s.player_id === me.player_id) : null;
    const seat = info ? info.seat : null;
    const parts = [h("h3", {}, t("setup.title"))];
    if (seat !== null) {
      const ctx = { room, game, seat, value: st.value, sendSetup, memory: st.memory, redraw };
      let drawn = null;
      if (mod && typeof mod.renderSetup === "function") {
        try {
          drawn = mod.renderSetup(ctx);
        } catch (error) {
          console.error("game module failed to draw the setup", error);
          drawn = null;
        }
      }
      parts.push(drawn || defaultChoices(ctx));
      if (st.error) parts.push(h("p", { class: "error", role: "alert", testid: "setup-error" }, errorText(st.error)));
    }
    parts.push(readyMarks(room, seat));
    return h("div", { class: "seat-setup", testid: "seat-setup", "data-chosen": st.value === null ? "0" : "1" }, parts);
  }

  return { onMessage, panel, sendSetup };
}
