// Reactions and seat bubbles (docs/protocol.md: `react`, `reaction`, `chat`).
//
// A seated player picks one of a fixed set of reactions (an id: the text is each page's own, from its catalogue);
// everyone sees it as a bubble at the sender's seat for a few seconds. Chat messages show there briefly too, so a
// phone player sees them without opening the chat. Each player may turn reaction bubbles off (kept in localStorage).
// Bubbles live in the shell's memory and are put back on the table after every redraw (`attach`); they never cover
// the player's own hand nor the decision controls (they sit on the seats, which are drawn inside the table).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./alerts.js";

/** The server's set (sefode/server/reactions.py), in the picker's order. */
export const REACTIONS = ["sefodeu", "boa", "gg", "anda", "ops", "laugh", "clap", "wow", "cry", "fire"];

const STORE_KEY = "sefode.reactions";
const REACTION_MS = 4000;
const CHAT_MS = 6000;
const CHAT_CHARS = 60;

export function reactionsOn() {
  try {
    return localStorage.getItem(STORE_KEY) !== "off";
  } catch {
    return true;
  }
}

function setReactions(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch {
    // storage refused (private mode): the switch holds for this page only
  }
}

function shorten(text) {
  const flat = String(text || "").replace(/\s+/g, " ").trim();
  return flat.length > CHAT_CHARS ? `${flat.slice(0, CHAT_CHARS - 1)}…` : flat;
}

/**
 * The page's reactions. `send(message)` sends on the room's connection; `seatOfPlayer(id)` is a player's seat now
 * (or null); `nameOf(seat)` the seat's name; `roots()` the elements to look for seats in, first the one on top;
 * `openChat()` shows the chat pane; `unread()` the unread chat count; `redraw()` draws the table again.
 */
export function createReactions({ send, seatOfPlayer, nameOf, roots, openChat, unread, redraw }) {
  /** Bubbles on screen: {id, seat, text, kind, until}. */
  let bubbles = [];
  let next = 1;
  let pickerOpen = false;
  let on = reactionsOn();
  const timers = new Set();

  function show(seat, text, kind, ms) {
    if (seat === null || seat === undefined || !text) return;
    // One bubble per seat: the newest replaces the one before.
    bubbles = bubbles.filter((b) => b.seat !== seat);
    const bubble = { id: next++, seat, text, kind, until: Date.now() + ms, fresh: true };
    bubbles.push(bubble);
    const timer = setTimeout(() => {
      timers.delete(timer);
      bubbles = bubbles.filter((b) => b.id !== bubble.id);
      for (const root of roots()) root.querySelectorAll(`[data-bubble-id="${bubble.id}"]`).forEach((el) => el.remove());
    }, ms);
    timers.add(timer);
    attach();
  }

  function hostFor(seat) {
    for (const root of roots()) {
      if (!root || root.hidden) continue;
      const row = root.querySelector(`[data-bubble-seat="${seat}"]`);
      if (row) return { el: row, row: true };
      const place = root.querySelector(`[data-testid=table] [data-seat="${seat}"]`);
      if (place) return { el: place, row: false };
    }
    return null;
  }

  /** Put the bubbles on screen on the seats drawn now (after a redraw, or when a bubble comes). */
  function attach() {
    for (const root of roots()) if (root) root.querySelectorAll(".seat-bubble").forEach((el) => el.remove());
    for (const bubble of bubbles) {
      const host = hostFor(bubble.seat);
      if (!host) continue;
      const classes = ["seat-bubble", `bubble-${bubble.kind}`];
      if (bubble.fresh) classes.push("fresh");
      if (host.row) classes.push("in-row");
      else {
        // Seats in the upper half of the table get the bubble below them, the others above: towards the middle.
        const table = host.el.closest("[data-testid=table]");
        const upper = table && host.el.offsetTop + host.el.offsetHeight / 2 < table.clientHeight / 2;
        classes.push(upper ? "below" : "above");
        if (getComputedStyle(host.el).position === "static") host.el.classList.add("bubble-host");
      }
      bubble.fresh = false;
      host.el.append(h("div", { class: classes.join(" "), testid: `bubble-${bubble.seat}`, "data-bubble-id": String(bubble.id), "data-kind": bubble.kind, "aria-hidden": "true" }, bubble.text));
    }
  }

  function onMessage(msg) {
    if (msg.type === "reaction") {
      if (!on || !REACTIONS.includes(msg.reaction)) return;
      const text = t(`reaction.${msg.reaction}`);
      show(msg.seat, text, "reaction", REACTION_MS);
      announce(t("reactions.said", { name: nameOf(msg.seat), text: t(`reaction_label.${msg.reaction}`) }));
    } else if (msg.type === "chat" && !msg.recap && msg.from) {
      show(seatOfPlayer(msg.from.player_id), shorten(msg.text), "chat", CHAT_MS);
    }
  }

  function picker() {
    return h(
      "div",
      { class: "reaction-picker", id: "reaction-picker", role: "group", "aria-label": t("reactions.picker"), testid: "reaction-picker" },
      REACTIONS.map((id) =>
        h(
          "button",
          {
            type: "button",
            class: "reaction-choice",
            testid: `react-${id}`,
            "aria-label": t(`reaction_label.${id}`),
            title: t(`reaction_label.${id}`),
            onclick: () => {
              send({ type: "react", reaction: id });
              pickerOpen = false;
              redraw();
              const toggle = document.querySelector("[data-testid=reactions-open]");
              if (toggle) toggle.focus({ preventScroll: true });
            },
            onkeydown: (event) => {
              if (event.key !== "Escape") return;
              pickerOpen = false;
              redraw();
              const toggle = document.querySelector("[data-testid=reactions-open]");
              if (toggle) toggle.focus({ preventScroll: true });
            },
          },
          t(`reaction.${id}`),
        ),
      ),
    );
  }

  /** The bar near the table: react (seated players), the chat with its unread count, and the on/off switch. */
  function bar({ seated }) {
    const items = [];
    if (seated && on) {
      items.push(
        h(
          "button",
          {
            type: "button",
            class: pickerOpen ? "reactions-open active" : "reactions-open",
            testid: "reactions-open",
            "aria-expanded": pickerOpen ? "true" : "false",
            "aria-controls": "reaction-picker",
            onclick: () => {
              pickerOpen = !pickerOpen;
              redraw();
              if (pickerOpen) {
                const first = document.querySelector("[data-testid=reaction-picker] button");
                if (first) first.focus({ preventScroll: true });
              }
            },
          },
          t("reactions.open"),
        ),
      );
    }
    const count = unread();
    items.push(
      h(
        "button",
        { type: "button", class: "chat-open", testid: "chat-open", onclick: openChat, "aria-label": count ? t("reactions.chat_unread", { n: count }) : t("tab.chat") },
        t("tab.chat"),
        count ? h("span", { class: "badge", testid: "chat-unread" }, String(count)) : null,
      ),
    );
    items.push(
      h(
        "button",
        {
          type: "button",
          class: on ? "reactions-switch on" : "reactions-switch",
          testid: "reactions-toggle",
          "aria-pressed": on ? "true" : "false",
          title: t("reactions.switch_title"),
          onclick: () => {
            on = !on;
            setReactions(on);
            if (!on) {
              pickerOpen = false;
              bubbles = bubbles.filter((b) => b.kind !== "reaction");
            }
            redraw();
            const again = document.querySelector("[data-testid=reactions-toggle]");
            if (again) again.focus({ preventScroll: true });
          },
        },
        on ? t("reactions.on") : t("reactions.off"),
      ),
    );
    return h("div", { class: "social-bar", testid: "social-bar" }, h("div", { class: "social-row" }, items), seated && on && pickerOpen ? picker() : null);
  }

  function close() {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    bubbles = [];
  }

  return { onMessage, attach, bar, close };
}
