// The room's side panel: its tabs, the Score pane (the module's renderScore), the module's own panes, the chat (with
// the unread count and reports of messages), the match's log (event texts from the module) and, during a match, the
// Room pane with the seating.
import { currentPlayer } from "./api.js";
import { h } from "./dom.js";
import { currentLang, t } from "./i18n.js";
import * as generic from "./generic.js";
import { botMark, seatName } from "./seats.js";
import { reportMessageButton } from "./mod.js";

/** How many lines of the log are shown (newest first). */
const LOG_SHOWN = 80;

/** A log line for an event: the platform's own events, else the module's text, else the generic renderer's. */
function eventText(model, ev, gctx) {
  const name = (s) => seatName(model.room, s, gctx.seat);
  switch (ev.type) {
    case "played_for":
      return t(ev.reason === "absent" ? "event.played_for_absent" : "event.played_for_clock", { name: name(ev.seat) });
    case "match_end":
      return t("event.match_end");
    default: {
      const text = model.hook("eventText")(ev, gctx);
      if (text) return text;
      if (ev.type === "leave") return t("event.leave", { name: name(ev.seat) });
      if (ev.type === "join") return t("event.join", { name: name(ev.seat) });
      return model.mod && model.mod !== generic ? null : generic.eventText(ev, gctx);
    }
  }
}

function chatLine(roomId, m) {
  const me = currentPlayer();
  return h(
    "li",
    { class: "chat-msg" },
    h("time", { class: "muted" }, new Date(m.at || Date.now()).toLocaleTimeString(currentLang(), { hour: "2-digit", minute: "2-digit" })),
    " ",
    h("b", {}, (m.from && m.from.name) || "?"),
    m.from && m.from.bot ? [" ", botMark("chat-bot-mark")] : null,
    " ",
    h("span", { class: "chat-text" }, m.text),
    // Another player's message: report it to the moderators (issue 28).
    m.id !== undefined && m.from && m.from.player_id && !(me && m.from.player_id === me.player_id) ? [" ", reportMessageButton(roomId, m)] : null,
  );
}

/**
 * @param {{model: import("./room-model.js").RoomModel, roomId: string, sendChat: (text: string) => boolean,
 *          gameCtx: () => object, seatingPanel: (large: boolean) => HTMLElement, onChatOpened: () => void}} deps
 *   `onChatOpened()` redraws what shows the unread count elsewhere (the head, the reactions bar).
 */
export function createSidePanels({ model, roomId, sendChat, gameCtx, seatingPanel, onChatOpened }) {
  const tabButtons = h("nav", { class: "tabs side-tabs", role: "tablist" });
  const panes = {
    score: h("div", { class: "pane", testid: "pane-score" }),
    chat: h("div", { class: "pane chat-pane", testid: "pane-chat" }),
    log: h("div", { class: "pane", testid: "pane-log" }),
    room: h("div", { class: "pane", testid: "pane-room" }),
  };
  /** The game module's own panes: [{id, title, render(ctx)}], placed after the score. */
  let gamePanes = [];
  const chatList = h("ul", { class: "chat-list", testid: "chat-list" });
  const chatInput = h("input", { testid: "chat-input", maxlength: "500", placeholder: t("chat.placeholder"), autocomplete: "off", "aria-label": t("chat.placeholder") });
  const chatForm = h("form", { class: "chat-form" }, chatInput, h("button", { type: "submit", testid: "chat-send" }, t("chat.send")));
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (sendChat(text)) chatInput.value = "";
  });
  panes.chat.append(chatList, chatForm);
  const side = h("aside", { class: "side", testid: "side" }, tabButtons, ...Object.values(panes));

  function paneNames() {
    return ["score", ...gamePanes.map((p) => p.id), "chat", "log", ...(model.tableShown() ? ["room"] : [])];
  }

  function tabButton(name) {
    const mine = gamePanes.find((p) => p.id === name);
    const onclick = () => {
      model.openTab(name);
      if (name === "chat" && model.ready()) onChatOpened();
      drawTabs();
      if (mine) drawGamePanes();
    };
    return h(
      "button",
      { type: "button", role: "tab", class: model.tab === name ? "active" : "", "aria-selected": model.tab === name ? "true" : "false", testid: `tab-${name}`, onclick },
      mine ? t(mine.title) : t(`tab.${name}`),
      name === "chat" && model.unread ? h("span", { class: "badge" }, String(model.unread)) : null,
    );
  }

  function drawTabs() {
    const names = paneNames();
    if (!names.includes(model.tab)) model.tab = "score";
    tabButtons.replaceChildren(...names.map(tabButton));
    for (const [name, pane] of Object.entries(panes)) pane.hidden = name !== model.tab;
  }

  /** The module's panes (its `panes` export), placed once after the Score pane. */
  function setGamePanes(list) {
    gamePanes = Array.isArray(list) ? list : [];
    let previous = panes.score;
    for (const pane of gamePanes) {
      if (!panes[pane.id]) {
        panes[pane.id] = h("div", { class: "pane", testid: `pane-${pane.id}`, hidden: true });
        previous.after(panes[pane.id]);
      }
      previous = panes[pane.id];
    }
  }

  function drawScore() {
    if (!model.state || !model.mod) {
      panes.score.replaceChildren(h("p", { class: "muted" }, t("score.no_match")));
      return;
    }
    const el = model.hook("renderScore")(gameCtx());
    panes.score.replaceChildren(...(el ? [el] : [h("p", { class: "muted" }, t("score.no_match"))]));
  }

  /** The module's pane on screen (a hidden one is drawn when its tab is opened: what it shows may be asked of the
   * server, `ctx.past()`, and only for what a player looks at). */
  function drawGamePanes() {
    const gctx = model.mod ? gameCtx() : null;
    for (const pane of gamePanes) {
      if (pane.id !== model.tab) continue;
      const el = gctx && model.state ? pane.render(gctx) : null;
      panes[pane.id].replaceChildren(...(el ? [el] : []));
    }
  }

  function drawLog() {
    const gctx = model.mod ? gameCtx() : null;
    const lines = gctx ? model.log.map((ev) => eventText(model, ev, gctx)).filter(Boolean) : [];
    panes.log.replaceChildren(
      lines.length
        ? h("ol", { class: "log", testid: "log", reversed: true }, [...lines].reverse().slice(0, LOG_SHOWN).map((line) => h("li", {}, line)))
        : h("p", { class: "muted" }, t("log.empty")),
    );
  }

  function drawChat() {
    chatList.replaceChildren(...model.chat.map((m) => chatLine(roomId, m)));
    chatList.scrollTop = chatList.scrollHeight;
  }

  function drawRoomPane() {
    panes.room.replaceChildren(...(model.tableShown() && model.mod ? [seatingPanel(false)] : []));
  }

  /** Everything but the chat (drawn when a message comes) and the tabs. */
  function draw() {
    drawScore();
    drawGamePanes();
    drawLog();
    drawRoomPane();
  }

  /** Show the chat and put the cursor in its box (the reactions bar's and the head's chat buttons). */
  function openChat() {
    model.openTab("chat");
    drawTabs();
    onChatOpened();
    side.scrollIntoView({ block: "nearest" });
    chatInput.focus({ preventScroll: true });
  }

  return { element: side, draw, drawTabs, drawChat, setGamePanes, openChat };
}
