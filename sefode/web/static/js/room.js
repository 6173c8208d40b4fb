// Room page, the shell every game shares: the seating and owner controls between matches, the table during one (drawn
// by the game's module, or the generic renderer), the side panel (score, the module's own panes, chat, log, room),
// pause and clocks, the platform controls the game's capabilities offer (leave, show hand, join), the end screen
// with placements, reconnection and spectators. One WebSocket per page, reconnecting by itself. The module contract
// is docs/client-modules.md; this file names no game.
import { api, currentPlayer, ensureSession, forgetSession, getToken, loadSession, savedName } from "./api.js";
import { banner, confirmDialog, h, toast } from "./dom.js";
import { currentLang, errorText, hasKey, setActiveGame, t, tn } from "./i18n.js";
import { gameModule, gameSpec, matchTitle, optionSummary, rulesPage } from "./games.js";
import * as generic from "./generic.js";
import { botLabel, botMark, clockEl, deadlineOf, placeBadge, seatInfo, seatName, teamBadge, teamOf, tickClocks } from "./seats.js";
import { announce, soundSwitch, tone, turnTitle, yourTurn } from "./alerts.js";
import { notFoundPage } from "./notfound.js";
import { RoomConnection } from "./ws.js";
import { tournamentPanel } from "./tournament.js";
import { createSeatSetup } from "./setup.js";
import { createCoach } from "./coach.js";
import { fairCheck } from "./fair.js";
import { rememberMatch } from "./replay.js";
import { createShare } from "./share.js";
import { tableFriends as createTableFriends } from "./friends.js";
import { reportButton, reportMessageButton } from "./mod.js";
import { inviteOnlyPage, loadPreview, tablePreview } from "./preview.js";
import { createReactions } from "./reactions.js";
import { rematchBlock } from "./rematch.js";
import { createGroupScore } from "./groupscore.js";
import * as motion from "./motion.js";

const DEFAULT_LEVELS = ["easy", "normal", "hard"];

/**
 * Ask for a nickname when there is no session yet (arriving by a shared link), below the table's preview when there is
 * one (`preview.js`). Resolves once there is a session.
 */
function nicknameGate(ctx, preview = null) {
  return new Promise((resolve) => {
    const input = h("input", { testid: "nickname", maxlength: "24", value: savedName(), placeholder: t("home.nickname_placeholder") });
    const form = h(
      "form",
      { class: "panel gate", testid: "nickname-gate" },
      h("h2", {}, t("gate.title")),
      h("label", { class: "field" }, h("span", { class: "label" }, t("home.nickname")), input),
      h("button", { class: "primary", type: "submit", testid: "nickname-submit" }, t("gate.enter")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      try {
        await ensureSession(input.value);
        ctx.refreshHeader();
        form.remove();
        resolve();
      } catch (error) {
        toast(errorText(error), "error");
      }
    });
    ctx.app.append(h("section", { class: "page narrow" }, preview ? tablePreview(preview) : null, form));
    input.focus();
  });
}

export async function renderInvite(ctx, token) {
  let roomId;
  try {
    roomId = (await api("GET", `/invite/${encodeURIComponent(token)}`)).room_id;
  } catch (error) {
    ctx.app.replaceChildren(notFoundPage(errorText(error), "invite-error"));
    return;
  }
  sessionStorage.setItem(`sefode.invite.${roomId}`, token);
  if (!currentPlayer()) await nicknameGate(ctx, await loadPreview(roomId, token).catch(() => null));
  ctx.navigate(`/room/${roomId}`, true);
}

/** With a saved token but no answer yet (the server may be restarting), keep asking for a while. */
async function resumeSession() {
  for (let attempt = 0; attempt < 30 && getToken() && !currentPlayer(); attempt += 1) {
    try {
      await loadSession();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500 + attempt * 250));
    }
  }
}

export async function renderRoom(ctx, roomId) {
  await resumeSession();
  if (!currentPlayer() || !getToken()) {
    // A visitor with no nickname yet: which table this is first (an invite-only room says so, and asks no name).
    let preview = null;
    try {
      preview = await loadPreview(roomId, sessionStorage.getItem(`sefode.invite.${roomId}`));
    } catch (error) {
      if (error.code === "room/bad_invite" || error.code === "room/not_found") {
        ctx.app.replaceChildren(error.code === "room/bad_invite" ? inviteOnlyPage() : notFoundPage(errorText(error), "room-error"));
        return;
      }
    }
    await nicknameGate(ctx, preview);
  }
  ctx.app.replaceChildren();
  const rs = {
    room: null,
    state: null,
    matchEnd: null,
    chat: [],
    /** Public events of the match on, oldest first (texts are made at drawing time, by the game's module). */
    log: [],
    tab: "score",
    unread: 0,
    conn: null,
    lastMatchId: null,
    pendingAction: false,
    /** The game of the room: its spec from /api/games and its module (or the generic renderer). */
    spec: null,
    mod: null,
    loading: null,
    /** The module's own memory, kept across redraws and reset at each new match. */
    memory: {},
    overlayClosedFor: null,
    /** Was it this seat's decision at the last state (turn alerts fire when it becomes so)? */
    wasAwaited: false,
    /** The deadline whose last-5-seconds warning was given. */
    warnedFor: null,
  };
  const access = {
    invite: sessionStorage.getItem(`sefode.invite.${roomId}`) || undefined,
    password: sessionStorage.getItem(`sefode.password.${roomId}`) || undefined,
  };

  // ---- persistent layout
  const head = h("div", { class: "room-head", testid: "room-head" });
  const main = h("div", { class: "room-main", testid: "room-main" });
  const overlay = h("div", { class: "end-overlay", testid: "end-overlay", hidden: true });
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
    if (rs.conn.send({ type: "chat", text })) chatInput.value = "";
  });
  panes.chat.append(chatList, chatForm);
  const side = h("aside", { class: "side", testid: "side" }, tabButtons, ...Object.values(panes));
  const share = createShare();
  const tableFriends = createTableFriends(
    () => drawAll(),
    (playerId) => {
      // A player just blocked: what they said is gone from this page too (the server sends no more of it).
      rs.chat = rs.chat.filter((m) => !(m.from && m.from.player_id === playerId));
      drawChat();
    },
  );
  const page = h("section", { class: "page room-page", testid: "room-page" }, head, h("div", { class: "room-body" }, main, side), overlay, share.dialog);
  ctx.app.append(page);

  function paneNames() {
    const tableShown = Boolean(rs.state && rs.room && rs.room.match);
    return ["score", ...gamePanes.map((p) => p.id), "chat", "log", ...(tableShown ? ["room"] : [])];
  }

  function drawTabs() {
    const names = paneNames();
    if (!names.includes(rs.tab)) rs.tab = "score";
    const titleOf = (name) => {
      const mine = gamePanes.find((p) => p.id === name);
      return mine ? t(mine.title) : t(`tab.${name}`);
    };
    tabButtons.replaceChildren(
      ...names.map((name) =>
        h(
          "button",
          {
            type: "button",
            role: "tab",
            class: rs.tab === name ? "active" : "",
            "aria-selected": rs.tab === name ? "true" : "false",
            testid: `tab-${name}`,
            onclick: () => {
              rs.tab = name;
              if (name === "chat") {
                rs.unread = 0;
                if (rs.room && rs.mod) {
                  drawHead();
                  drawMain();
                }
              }
              drawTabs();
            },
          },
          titleOf(name),
          name === "chat" && rs.unread ? h("span", { class: "badge" }, String(rs.unread)) : null,
        ),
      ),
    );
    for (const [name, pane] of Object.entries(panes)) pane.hidden = name !== rs.tab;
  }

  // ---- the game: spec and module, loaded once the room says which game it plays
  function ensureGame(name) {
    if (rs.loading || !name) return;
    rs.loading = (async () => {
      let spec = null;
      try {
        spec = await gameSpec(name);
      } catch {
        spec = null;
      }
      const mod = await gameModule(spec);
      rs.spec = spec || { name, title: name, capabilities: [], bot_levels: DEFAULT_LEVELS, options: [], variants: [], rules: [], summary: [] };
      rs.mod = mod;
      setActiveGame(name);
      gamePanes = Array.isArray(mod.panes) ? mod.panes : [];
      let previous = panes.score;
      for (const pane of gamePanes) {
        if (!panes[pane.id]) {
          panes[pane.id] = h("div", { class: "pane", testid: `pane-${pane.id}`, hidden: true });
          previous.after(panes[pane.id]);
        }
        previous = panes[pane.id];
      }
      drawAll();
    })();
  }

  function hook(name) {
    const mod = rs.mod || generic;
    if (typeof mod[name] === "function") return mod[name];
    return typeof generic[name] === "function" ? generic[name] : null;
  }

  function capable(what) {
    return Boolean(rs.spec && (rs.spec.capabilities || []).includes(what));
  }

  // ---- sending
  const send = (message) => {
    if (!rs.conn.send(message)) toast(t("error.offline"), "error");
  };
  const seatSetup = createSeatSetup({ send, redraw: () => drawAll() });
  /** The solo coach's "Dica" after each hand (coach.js): its panel under the table, its switch in the controls. */
  const coach = createCoach({
    roomId,
    redraw: () => {
      if (!rs.room || !rs.mod) return;
      drawMain();
      drawOverlay();
    },
  });
  const soloFor = (seat) => coach.solo(rs.room, seat);
  /** Reactions and seat bubbles (reactions.js): the bar near the table, bubbles on the seats. */
  const social = createReactions({
    send,
    seatOfPlayer: (pid) => {
      const room = rs.room;
      if (!room || !pid) return null;
      const seats = (room.match && room.match.seats) || room.seats || [];
      const found = seats.find((s) => s.player_id === pid && !s.left);
      return found ? found.seat : null;
    },
    nameOf: (seat) => seatName(rs.room, seat, mySeat()),
    roots: () => [overlay, main],
    openChat: () => openChat(),
    unread: () => rs.unread,
    redraw: () => {
      if (!rs.room || !rs.mod) return;
      drawMain();
      drawOverlay();
    },
  });
  function openChat() {
    rs.tab = "chat";
    rs.unread = 0;
    drawTabs();
    drawHead();
    if (rs.room && rs.mod) drawMain();
    side.scrollIntoView({ block: "nearest" });
    chatInput.focus({ preventScroll: true });
  }
  /** Is this player seated in the room (for the next match) or in the match on? Reactions are theirs. */
  function seatedHere() {
    const me = currentPlayer();
    if (!rs.room || !me) return false;
    const inMatch = matchOn() && rs.room.match && (rs.room.match.seats || []).some((s) => s.player_id === me.player_id && !s.left);
    if (matchOn()) return Boolean(inMatch);
    return (rs.room.seats || []).some((s) => s.player_id === me.player_id);
  }
  function act(action) {
    if (!rs.state || rs.pendingAction) return;
    if (!rs.conn.send({ type: "action", action, version: rs.state.version })) {
      toast(t("error.offline"), "error");
      return;
    }
    rs.pendingAction = true;
    drawMain();
  }

  // ---- what the page knows about the match
  function mySeat() {
    if (rs.state && rs.state.seat !== null && rs.state.seat !== undefined) return rs.state.seat;
    return rs.room ? rs.room.your_seat ?? null : null;
  }
  function isOwner() {
    return Boolean(rs.room && currentPlayer() && rs.room.owner === currentPlayer().player_id);
  }
  function matchEndFor(state) {
    return rs.matchEnd && state && rs.matchEnd.match_id === state.match_id ? rs.matchEnd : null;
  }
  /** Is the match on screen over? The match_end message, or the state message's `over` (the game's say). */
  function isOver() {
    const state = rs.state;
    if (!state) return false;
    if (matchEndFor(state)) return true;
    return state.over === true;
  }
  function matchOn() {
    return Boolean(rs.room && rs.room.match && rs.state && !isOver());
  }
  function seatCount() {
    const view = (rs.state && rs.state.view) || {};
    if (Number.isInteger(view.seats)) return view.seats;
    const seats = (rs.room && rs.room.match && rs.room.match.seats) || (rs.room && rs.room.seats) || [];
    return seats.length;
  }

  /** What every module receives to draw (see docs/client-modules.md). */
  function gameCtx() {
    const state = rs.state;
    const seat = state ? state.seat ?? null : mySeat();
    const awaiting = (state && state.awaiting) || [];
    const seated = seat !== null && seat !== undefined;
    const over = isOver();
    const awaited = Boolean(seated && !over && awaiting.includes(seat));
    return {
      game: rs.spec,
      gameName: rs.spec ? rs.spec.name : null,
      room: rs.room,
      state,
      view: state ? state.view : null,
      events: (state && state.events) || [],
      seat: seated ? seat : null,
      seats: seatCount(),
      seated,
      over,
      paused: Boolean(rs.room && rs.room.status === "paused"),
      awaited,
      // A simultaneous turn: this seat has submitted and waits for the others.
      submitted: Boolean(seated && !over && !awaited && awaiting.length && rs.spec && rs.spec.turns === "simultaneous"),
      pending: rs.pendingAction,
      legal: (state && state.legal) || [],
      memory: rs.memory,
      act,
      confirm: confirmDialog,
      // A refusal or a hint of the module's shows where the player just tapped (the card, the pile), else on top.
      toast: (text, kind) => toast(text, kind, lastTap()),
      redraw: () => drawMain(),
      name: (s, short = false) => seatName(rs.room, s, seat, short),
      info: (s) => seatInfo(rs.room, s),
      team: (s) => teamOf(rs.room, state ? state.view : null, s),
      deadline: (s) => (rs.room && rs.room.status === "paused" ? null : deadlineOf(state, s)),
      /** Your turn's timer (bar and seconds) for the module's decision bar, or null when there is no clock. */
      timer: () => {
        const d = awaited && !(rs.room && rs.room.status === "paused") ? deadlineOf(state, seat) : null;
        return d ? turnTimer(d) : null;
      },
    };
  }

  // ---- drawing
  function drawHead() {
    const room = rs.room;
    if (!room) {
      head.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
      return;
    }
    share.update({ token: room.invite_token || access.invite || null, room: room.name || room.id, roomId: room.id, game: rs.spec ? matchTitle(rs.spec, room.options) : "" });
    const status = room.status === "paused" ? t("room.status_paused") : matchOn() ? t("room.status_playing") : t("room.status_waiting");
    const rules = rs.spec ? rulesPage(rs.spec, room.options) : null;
    head.replaceChildren(
      h(
        "div",
        { class: "room-title" },
        h("h1", { testid: "room-name" }, room.name || room.id),
        rs.spec ? h("span", { class: "chip", testid: "room-game" }, matchTitle(rs.spec, room.options)) : null,
        h("span", { class: `chip status-${room.status}`, testid: "room-status" }, status),
        h("span", { class: "chip", testid: "spectators", title: t("room.spectators_title") }, tn("room.spectators_n", room.spectators ?? 0)),
        // The unread chat, where a phone player sees it during play (the chat pane is below the table there).
        rs.unread && rs.tab !== "chat"
          ? h("button", { type: "button", class: "chip chat-chip", testid: "chat-unread-head", "aria-label": t("reactions.chat_unread", { n: rs.unread }), onclick: () => openChat() }, t("tab.chat"), h("span", { class: "badge" }, String(rs.unread)))
          : null,
        rules ? h("a", { class: "chip rules-chip", href: `/rules/${encodeURIComponent(rules)}`, target: "_blank", rel: "noopener", testid: "room-rules" }, t("nav.rules")) : null,
      ),
      h("div", { class: "invite" }, share.button),
    );
  }

  // ---- a tap is never lost to a redraw
  // A tap is a press and a release on the same element. A redraw between the two (another seat's move arriving)
  // replaces the element, and the browser then fires no click: the player's tap is lost. So while a pointer is
  // pressed on the table, redraws wait for its release (and run after the click it makes); a press that never
  // ends (the pointer left the window) holds them at most PRESS_HOLD_MS.
  const PRESS_HOLD_MS = 1500;
  let pressedAt = 0;
  let drawWhenReleased = false;
  const onPress = () => {
    pressedAt = performance.now();
  };
  const onRelease = () => {
    if (!pressedAt) return;
    pressedAt = 0;
    if (drawWhenReleased) {
      drawWhenReleased = false;
      setTimeout(drawMain, 0); // after the click this release makes
    }
  };
  main.addEventListener("pointerdown", onPress, true);

  // Where the player last tapped or pressed Enter on the table (its box then: the element may be redrawn since),
  // for a refusal to show there (dom.js toast's `near`).
  const TAP_FRESH_MS = 5000;
  let tapped = null;
  main.addEventListener(
    "click",
    (event) => {
      const el = event.target && event.target.closest ? event.target.closest("button, [role=button], .card") : null;
      if (el && el.closest("[data-testid=table]")) tapped = { box: el.getBoundingClientRect(), at: performance.now() };
    },
    true,
  );
  const lastTap = () => (tapped && performance.now() - tapped.at < TAP_FRESH_MS ? tapped.box : null);
  document.addEventListener("pointerup", onRelease, true);
  document.addEventListener("pointercancel", onRelease, true);

  function drawMain() {
    const room = rs.room;
    if (!room) return;
    if (pressedAt && performance.now() - pressedAt < PRESS_HOLD_MS) {
      if (!drawWhenReleased) setTimeout(() => drawWhenReleased && onRelease(), PRESS_HOLD_MS);
      drawWhenReleased = true;
      return;
    }
    if (!rs.mod) {
      main.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
      return;
    }
    if (rs.state && rs.room.match) {
      const gctx = gameCtx();
      let table;
      try {
        table = hook("renderTable")(gctx);
      } catch (error) {
        // A module that throws must not take the table away: fall back to the generic renderer.
        console.error("game module failed to draw the table", error);
        table = generic.renderTable(gctx);
      }
      table.dataset.testid = "table";
      table.dataset.version = String(rs.state.version);
      table.dataset.game = rs.spec.name;
      const focus = focusedPlace();
      const deadline = gctx.awaited ? gctx.deadline(gctx.seat) : null;
      // The turn timer at the decision: the module may place ctx.timer() itself; else it sits above the controls.
      const timer = deadline && !table.querySelector("[data-testid=turn-timer]") ? turnTimer(deadline) : null;
      const tip = gctx.over ? null : coach.panel(rs.spec && rs.spec.name);
      // Motion (motion.js): the table as it was, then the moves to the table as it is, for the states since.
      const before = rs.motionEvents && rs.motionEvents.length ? motion.snapshot(main.querySelector("[data-testid=table]")) : null;
      main.replaceChildren(table, ...(timer ? [timer] : []), ...(tip ? [tip] : []), social.bar({ seated: seatedHere() }), controls(gctx));
      page.classList.add("playing");
      restoreFocus(focus, gctx);
      if (before && rs.motionEvents.length) motion.play(table, before, rs.motionEvents);
      rs.motionEvents = [];
    } else {
      page.classList.remove("playing");
      const focus = document.activeElement && main.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
      // With the end-of-match card on top, the bar is on the card.
      main.replaceChildren(...(endShown() ? [] : [social.bar({ seated: seatedHere() })]), seatingPanel(true));
      if (focus) {
        const again = main.querySelector(`[data-testid="${CSS.escape(focus)}"]`);
        if (again) again.focus({ preventScroll: true });
      }
    }
    social.attach();
  }

  function turnTimer(deadline) {
    return h("div", { class: "turn-timer", testid: "turn-timer", "aria-label": t("alert.timer") }, clockEl(deadline, "my-clock"));
  }

  // ---- keyboard: focus stays in the hand or the decision bar across redraws
  /** Where focus is in the table before a redraw: the element's test id and its group ([data-focus-group]). */
  function focusedPlace() {
    const active = document.activeElement;
    if (!active || active === document.body) return { free: true };
    if (!main.contains(active)) return { free: false };
    const group = active.closest("[data-focus-group]");
    return { free: true, testid: active.dataset.testid || null, group: group ? group.dataset.focusGroup : null };
  }

  const FOCUSABLE = "button:not([disabled]), [tabindex='0']";
  /** FOCUSABLE within the elements ``scope`` selects (each alternative of the list scoped, not only the first). */
  const focusableIn = (scope) => FOCUSABLE.split(",").map((one) => `${scope} ${one.trim()}`).join(", ");

  /** Whether the last drawn table awaited a decision of this player's (none while an action of theirs is on its way). */
  let wasMine = false;
  function restoreFocus(place, gctx) {
    const mine = Boolean(gctx.awaited && !gctx.pending);
    const stillMine = mine && wasMine;
    wasMine = mine;
    if (!place.free) return;
    const byId = place.testid ? main.querySelector(`[data-testid="${CSS.escape(place.testid)}"]`) : null;
    // A control outside the focus groups (Guimenon's Confirm) keeps the focus while the same decision is awaited:
    // another seat's move redraws the table and must not pull the focus back to the hand.
    const outsideGroups = byId && byId.matches(FOCUSABLE) && !byId.closest("[data-focus-group]");
    // Your turn: the first choice of the decision (the bid bar, else the hand) takes focus.
    if (mine && !(stillMine && outsideGroups)) {
      const current = byId && byId.matches(FOCUSABLE) && byId.closest("[data-focus-group]") ? byId : null;
      const first =
        current ||
        main.querySelector(focusableIn("[data-focus-group='bid']")) ||
        main.querySelector(focusableIn("[data-focus-group='hand']")) ||
        main.querySelector(focusableIn("[data-focus-group]"));
      if (first) {
        first.focus({ preventScroll: true });
        return;
      }
    }
    if (byId && byId.matches(FOCUSABLE)) {
      byId.focus({ preventScroll: true });
      return;
    }
    if (place.group || place.testid) {
      // The group is still there (its buttons off until your next turn): focus stays on it.
      const group = main.querySelector(`[data-focus-group='${place.group || "hand"}']`) || main.querySelector("[data-focus-group]");
      if (group) {
        const inner = group.querySelector(FOCUSABLE);
        (inner || group).focus({ preventScroll: true });
      }
    }
  }

  let digits = "";
  let digitTimer = 0;
  function pressKey(key) {
    const target = main.querySelector(`[data-key="${CSS.escape(key)}"]:not([disabled])`);
    if (target) target.click();
  }
  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const el = event.target;
    if (el && el.closest && el.closest("input, textarea, select, dialog, [contenteditable]")) return;
    if (!rs.state || !main.querySelector("[data-testid=table]")) return;
    if ((event.key === "Enter" || event.key === " ") && el && el.getAttribute && el.getAttribute("role") === "button" && el.tagName !== "BUTTON" && main.contains(el)) {
      // A table element that acts as a button (a pile, a Location) answers Enter and Space as a button does.
      el.click();
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const group = (el && el.closest && el.closest("[data-focus-group]")) || main.querySelector("[data-focus-group='hand']");
      if (!group) return;
      const items = [...group.querySelectorAll(FOCUSABLE)];
      if (!items.length) return;
      const at = items.indexOf(document.activeElement);
      const step = event.key === "ArrowLeft" ? -1 : 1;
      const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
      items[next].focus();
      event.preventDefault();
      return;
    }
    if (/^[0-9]$/.test(event.key)) {
      // Number keys choose a numbered decision (a bid): "1" then "2" quickly is 12 when 12 is on offer.
      digits += event.key;
      clearTimeout(digitTimer);
      const longer = [...main.querySelectorAll("[data-key]:not([disabled])")].some((b) => b.dataset.key.length > digits.length && b.dataset.key.startsWith(digits));
      if (!longer) {
        const chosen = digits;
        digits = "";
        pressKey(chosen);
      } else {
        digitTimer = setTimeout(() => {
          const chosen = digits;
          digits = "";
          pressKey(chosen);
        }, 700);
      }
      event.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);

  /** What the platform offers now: the module's say (`offers`) over defaults from the capabilities. */
  function offers(gctx) {
    const statuses = (gctx.state && gctx.state.seat_status) || [];
    const status = gctx.seated ? statuses[gctx.seat] : undefined;
    const out = status === "out";
    const left = status === "left";
    const base = {
      leave: capable("forfeit") && gctx.seated && !gctx.over && !out && !left,
      show_hand: false,
      join: capable("join") && !gctx.seated && !gctx.over && seatCount() < (rs.spec.max_seats || 0),
      out: gctx.seated && !gctx.over && out,
      pause: gctx.seated && !gctx.over && !out && !left,
    };
    const say = rs.mod && typeof rs.mod.offers === "function" ? rs.mod.offers(gctx) || {} : {};
    const result = { ...base, ...say };
    if (!capable("forfeit")) result.leave = false;
    if (!capable("show_hand")) result.show_hand = false;
    if (!capable("join")) result.join = false;
    return result;
  }

  function controls(gctx) {
    const items = [];
    const offer = offers(gctx);
    const version = () => rs.state.version;
    if (offer.show_hand) {
      items.push(
        h(
          "button",
          {
            type: "button",
            testid: "show-hand",
            onclick: async () => {
              if (await confirmDialog(t("controls.show_confirm"))) send({ type: "action", action: { show: true }, version: version() });
            },
          },
          t("controls.show_hand"),
        ),
      );
    }
    if (offer.pause) {
      const pause = rs.room.pause;
      const me = currentPlayer();
      const voted = Boolean(pause && me && (pause.votes || []).includes(me.player_id));
      items.push(
        h(
          "button",
          { type: "button", testid: "pause-vote", class: voted ? "active" : "", onclick: () => send({ type: "pause", vote: !voted }) },
          rs.room.status === "paused" ? t("controls.resume") : voted ? t("controls.unvote_pause") : t("controls.pause"),
          pause && pause.needed ? ` (${(pause.votes || []).length}/${pause.needed})` : "",
        ),
      );
    }
    if (offer.leave) {
      items.push(
        h(
          "button",
          {
            type: "button",
            class: "danger",
            testid: "leave-match",
            onclick: async () => {
              // A game says what leaving means at its table (`<game>.leave_confirm`): a bot plays on for you in
              // King, One Man's Trash and Guimenon; the Se Fode family's leave forfeits.
              const own = `${rs.spec.name}.leave_confirm`;
              const text = hasKey(own, rs.spec.name) ? t(own) : t("controls.leave_confirm");
              if (await confirmDialog(text)) send({ type: "action", action: { leave: true }, version: version() });
            },
          },
          hasKey(`${rs.spec.name}.leave`, rs.spec.name) ? t(`${rs.spec.name}.leave`) : t("controls.leave"),
        ),
      );
    }
    if (offer.out) items.push(h("span", { class: "muted", testid: "you-are-out" }, t("controls.you_are_out")));
    if (gctx.seated && !gctx.over) items.push(soundSwitch(() => drawMain()));
    if (gctx.seated && !gctx.over && soloFor(gctx.seat)) items.push(coach.toggle());
    if (!gctx.seated && rs.room.match && !gctx.over) {
      items.push(h("span", { class: "muted", testid: "spectating" }, t("room.spectating")));
      if (offer.join) {
        items.push(
          h(
            "button",
            { type: "button", class: "primary", testid: "join-table", onclick: () => send({ type: "action", action: { join: true }, version: version() }) },
            t("controls.join_table"),
          ),
        );
      }
    }
    // The deal's commitment, one tap away (never a hash on the table itself).
    if (rs.room.match && rs.room.match.seed_hash) items.push(fairCheck({ hash: rs.room.match.seed_hash }));
    return h("div", { class: "controls", testid: "controls" }, items);
  }

  function seatingPanel(large) {
    const room = rs.room;
    const me = currentPlayer();
    const owner = isOwner();
    const between = !room.match || isOver();
    const levels = (rs.spec && rs.spec.bot_levels) || DEFAULT_LEVELS;
    const rows = (room.seats || []).map((info) => {
      const s = info.seat;
      const mine = me && info.player_id === me.player_id;
      let who;
      if (info.player_id) {
        who = h(
          "span",
          { class: "seat-who" },
          info.name || "?",
          info.bot_account ? [" ", botMark(`seat-bot-mark-${s}`)] : null,
          mine ? ` ${t("seat.you")}` : "",
          info.connected === false ? h("small", { class: "muted" }, ` ${t("seat.offline")}`) : null,
        );
      }
      else if (info.bot) who = h("span", { class: "seat-who" }, botLabel(s, info.bot));
      else who = h("span", { class: "seat-who muted" }, t("seat.empty"));
      const actions = [];
      if (!info.player_id && !info.bot && !mine) {
        actions.push(h("button", { type: "button", testid: `sit-${s}`, onclick: () => send({ type: "sit", seat: s }) }, t("seat.sit")));
      }
      if (mine && between) actions.push(h("button", { type: "button", testid: "stand", onclick: () => send({ type: "stand" }) }, t("seat.stand")));
      if (info.player_id && !mine) actions.push(...tableFriends.controls(info)); // add as a friend, block (issue 23)
      if (info.player_id && !mine && !info.bot_account) actions.push(reportButton(roomId, { ...info, seat: s })); // issue 28
      if (owner && between) {
        const sel = h(
          "select",
          { testid: `seat-bot-${s}`, "aria-label": t("seat.bot_select", { n: s + 1 }) },
          h("option", { value: "", selected: !info.bot }, info.player_id ? t("seat.human") : t("seat.free")),
          levels.map((l) => h("option", { value: l, selected: info.bot === l }, t("seat.bot_level", { level: t(`level.${l}`) }))),
        );
        sel.addEventListener("change", () => send({ type: "set_seat", seat: s, bot: sel.value || null }));
        actions.push(sel);
      }
      const team = room.teams ? room.teams.find((tm) => (tm.seats || []).includes(s)) : null;
      return h(
        "li",
        { class: `seat-row${mine ? " mine" : ""}`, testid: `seat-row-${s}`, "data-bubble-seat": String(s) },
        h("span", { class: "seat-no" }, t("seat.number", { n: s + 1 })),
        team ? h("span", { class: "team-symbol", style: { color: team.colour }, title: team.name }, team.symbol) : null,
        who,
        h("span", { class: "seat-actions" }, actions),
      );
    });
    tableFriends.sync((room.seats || []).map((info) => info.player_id).filter((id) => id && !(me && id === me.player_id)));
    const parts = [h("h2", {}, t("room.seating")), h("ul", { class: "seat-list", testid: "seat-list" }, rows)];
    // The rematch vote, when the end-of-match card that also shows it is closed (or gone: after a reconnection).
    if (between && !endShown()) parts.push(rematchBlock({ room, me: me && me.player_id, send, prefix: "seating-" }));
    if (room.teams && room.teams.length) parts.push(teamsEditor(owner && between));
    if (between) parts.push(seatSetup.panel({ room, mod: rs.mod, game: rs.spec }));
    if (owner && between) {
      parts.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "primary big", testid: "start-match", onclick: () => send({ type: "start" }) }, room.last_match ? t("room.start_again") : t("room.start")),
        ),
      );
    } else if (between) {
      parts.push(h("p", { class: "muted", testid: "waiting-owner" }, t("room.waiting_owner")));
    }
    if (room.match && !between) parts.push(h("p", { class: "muted" }, t("room.next_match_note")));
    parts.push(
      h(
        "p",
        { class: "muted small", testid: "room-summary" },
        [...optionSummary(rs.spec, room.options || {}), tn("room.seats_n", (room.seats || []).length), room.clock_s ? t("room.clock", { s: room.clock_s }) : null, t(room.outside_bots ? "room.outside_bots_yes" : "room.outside_bots_no")]
          .filter(Boolean)
          .join(" · "),
      ),
    );
    if (room.last_match && large) parts.push(placementsBlock(room.last_match, room.last_match.history_url, null, "last-placements"));
    if (large) parts.push(tournamentPanel(room, owner && between && !room.match && !room.last_match));
    return h("div", { class: `panel seating${large ? " large" : ""}`, testid: "seating" }, parts);
  }

  function teamsEditor(editable) {
    const room = rs.room;
    const n = (room.seats || []).length;
    const seatOptions = (selected) =>
      Array.from({ length: n }, (_, s) => h("option", { value: String(s), selected: s === selected }, `${t("seat.number", { n: s + 1 })} · ${seatName(room, s, null)}`));
    const rows = room.teams.map((team, i) => {
      if (!editable) return h("li", {}, teamBadge({ ...team, index: i }), " ", (team.seats || []).map((s) => seatName(room, s, null)).join(" + "));
      const name = h("input", { value: team.name || "", maxlength: "24", testid: `team-name-${i}`, "aria-label": t("team.name") });
      const colour = h("input", { type: "color", value: team.colour || "#d33f49", testid: `team-colour-${i}`, "aria-label": t("team.colour") });
      const symbol = h("input", { value: team.symbol || "", maxlength: "2", size: "2", testid: `team-symbol-${i}`, "aria-label": t("team.symbol") });
      const seats = team.seats || [i, i + n / 2];
      const first = h("select", { testid: `team-seat-${i}-0`, "aria-label": t("team.partner") }, seatOptions(seats[0]));
      const second = h("select", { testid: `team-seat-${i}-1`, "aria-label": t("team.partner") }, seatOptions(seats[1]));
      return h("li", { class: "team-edit" }, h("div", { class: "row" }, symbol, name, colour), h("div", { class: "row" }, first, "+", second));
    });
    const parts = [h("h3", {}, t("team.title")), h("ul", { class: "team-list", testid: "team-list" }, rows)];
    if (editable) {
      parts.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", testid: "teams-draw", onclick: () => send({ type: "set_teams", draw: true }) }, t("team.draw")),
          h(
            "button",
            {
              type: "button",
              testid: "teams-save",
              onclick: () => {
                const value = (id) => page.querySelector(`[data-testid=${id}]`).value;
                const teams = room.teams.map((_, i) => ({
                  name: value(`team-name-${i}`).trim() || t("team.default_name", { n: i + 1 }),
                  colour: value(`team-colour-${i}`),
                  symbol: value(`team-symbol-${i}`).trim() || "♠",
                }));
                const pairs = room.teams.map((_, i) => [Number(value(`team-seat-${i}-0`)), Number(value(`team-seat-${i}-1`))]);
                const flat = pairs.flat().sort((a, b) => a - b);
                if (flat.some((s, k) => s !== k)) {
                  toast(t("team.each_seat_once"), "error");
                  return;
                }
                send({ type: "set_teams", pairs, teams });
              },
            },
            t("team.save"),
          ),
        ),
      );
      parts.push(h("p", { class: "muted small" }, t("team.assign_note")));
    }
    return h("div", { class: "teams", testid: "teams" }, parts);
  }

  /** The end of a match: its places (from match_end, else the view), or "no winner" when the outcome says so. */
  function placementsBlock(result, historyUrl, view, testid = "placements") {
    const placements = result && result.placements;
    if (!placements) return null;
    const noWinner = Boolean(result.no_winner || (result.outcome && result.outcome.no_winner));
    const order = placements.map((place, seat) => ({ place, seat })).sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
    const me = mySeat();
    // The replay page names a seat's human from a kept match row (the public history never names them): keep this
    // table's names for it, as the profile does, so the replay says "Ana", not "Lugar 1".
    const matchId = historyUrl && (/\/api\/matches\/([^/]+)\/history/.exec(historyUrl) || [])[1];
    if (matchId) {
      rememberMatch({
        match_id: decodeURIComponent(matchId),
        players: placements.map((place, seat) => {
          const info = seatInfo(rs.room, seat);
          return { seat, place, name: info.name || null, bot: Boolean(info.bot) };
        }),
      });
    }
    return h(
      "div",
      { class: "placements", testid, "data-no-winner": noWinner ? "1" : null },
      h("h2", {}, t("end.title")),
      noWinner ? h("p", { class: "no-winner", testid: "no-winner" }, t("end.no_winner")) : null,
      h(
        "ol",
        { class: "place-list" },
        order.map(({ place, seat }) =>
          h(
            "li",
            { class: seat === me ? "mine" : "", testid: `place-${seat}`, "data-bubble-seat": testid === "placements" ? String(seat) : null },
            noWinner ? null : placeBadge(place),
            h("span", { class: "who" }, seatName(rs.room, seat, me)),
            teamBadge(teamOf(rs.room, view, seat)),
            noWinner ? null : h("span", { class: "muted" }, t("end.place_n", { n: place })),
          ),
        ),
      ),
      historyUrl ? h("a", { class: "button", href: historyUrl, download: "", testid: "download-history" }, t("end.download")) : null,
    );
  }

  /** The end-of-match card's result, or null when the card is not shown. */
  function endResult() {
    const state = rs.state;
    const view = state && state.view;
    const ended = matchEndFor(state);
    const result = ended || (view && Array.isArray(view.placements) ? { placements: view.placements, no_winner: view.no_winner } : null);
    if (!state || !result || !result.placements || !isOver() || rs.overlayClosedFor === state.match_id) return null;
    return result;
  }
  function endShown() {
    return endResult() !== null;
  }

  /** The game's own part of the end-of-match card (how the match was won: its renderEnd), or null. */
  function endHow() {
    const draw = rs.mod && typeof rs.mod.renderEnd === "function" ? rs.mod.renderEnd : null;
    if (!draw || !rs.state) return null;
    let el = null;
    try {
      el = draw(gameCtx());
    } catch (error) {
      console.error("game module failed to draw the end of the match", error);
    }
    return el ? h("div", { class: "end-how", testid: "end-how" }, el) : null;
  }

  const groupScores = createGroupScore(() => drawOverlay());
  function drawOverlay() {
    const state = rs.state;
    const view = state && state.view;
    const ended = matchEndFor(state);
    const result = endResult();
    if (!result) {
      overlay.hidden = true;
      return;
    }
    const focused = document.activeElement && overlay.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const me = currentPlayer();
    const url = (ended && ended.history_url) || (rs.room.last_match && rs.room.last_match.history_url) || `/api/matches/${state.match_id}/history`;
    overlay.replaceChildren(
      h(
        "div",
        { class: "panel end-panel", role: "dialog", "aria-modal": "false", "aria-label": t("end.title") },
        placementsBlock(result, url, view),
        endHow(),
        // Asked for once the match_end came: it is sent after the match is recorded (the state before it may
        // already say the match is over).
        ended ? groupScores.block(ended.match_id) : null,
        rematchBlock({ room: rs.room, me: me && me.player_id, send }),
        social.bar({ seated: seatedHere() }),
        coach.panel(rs.spec && rs.spec.name),
        h(
          "div",
          { class: "row end" },
          h(
            "button",
            {
              type: "button",
              testid: "end-close",
              onclick: () => {
                rs.overlayClosedFor = state.match_id;
                drawOverlay();
                drawMain(); // the room's panel shows the rematch vote now, and the reactions bar
              },
            },
            t("end.back_to_room"),
          ),
          h("a", { class: "button ghost", href: "/", "data-link": true, testid: "end-home" }, t("nav.back_home")),
        ),
      ),
    );
    const wasHidden = overlay.hidden;
    overlay.hidden = false;
    social.attach();
    if (focused) {
      const again = overlay.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
      else {
        const other = overlay.querySelector("[data-testid=rematch-decline]:not([disabled]), [data-testid=rematch-accept]:not([disabled]), [data-testid=end-close]");
        if (other) other.focus({ preventScroll: true });
      }
    }
    // The end of the match takes the keyboard focus (from a table that has no decision any more).
    if (wasHidden) {
      const active = document.activeElement;
      if (!active || active === document.body || main.contains(active)) {
        const button = overlay.querySelector("[data-testid=end-close]");
        if (button) button.focus({ preventScroll: true });
      }
    }
  }

  function drawScore() {
    if (!rs.state || !rs.mod) {
      panes.score.replaceChildren(h("p", { class: "muted" }, t("score.no_match")));
      return;
    }
    const el = hook("renderScore")(gameCtx());
    panes.score.replaceChildren(...(el ? [el] : [h("p", { class: "muted" }, t("score.no_match"))]));
  }

  function drawGamePanes() {
    const gctx = rs.mod ? gameCtx() : null;
    for (const pane of gamePanes) {
      const el = gctx && rs.state ? pane.render(gctx) : null;
      panes[pane.id].replaceChildren(...(el ? [el] : []));
    }
  }

  function eventText(ev, gctx) {
    const name = (s) => seatName(rs.room, s, gctx.seat);
    switch (ev.type) {
      case "played_for":
        return t(ev.reason === "absent" ? "event.played_for_absent" : "event.played_for_clock", { name: name(ev.seat) });
      case "match_end":
        return t("event.match_end");
      default: {
        const text = hook("eventText")(ev, gctx);
        if (text) return text;
        if (ev.type === "leave") return t("event.leave", { name: name(ev.seat) });
        if (ev.type === "join") return t("event.join", { name: name(ev.seat) });
        return rs.mod && rs.mod !== generic ? null : generic.eventText(ev, gctx);
      }
    }
  }

  function addLog(events) {
    for (const ev of events || []) rs.log.push(ev);
    if (rs.log.length > 200) rs.log.splice(0, rs.log.length - 200);
  }

  function drawLog() {
    const gctx = rs.mod ? gameCtx() : null;
    const lines = gctx ? rs.log.map((ev) => eventText(ev, gctx)).filter(Boolean) : [];
    panes.log.replaceChildren(
      lines.length ? h("ol", { class: "log", testid: "log", reversed: true }, [...lines].reverse().slice(0, 80).map((line) => h("li", {}, line))) : h("p", { class: "muted" }, t("log.empty")),
    );
  }

  function drawChat() {
    chatList.replaceChildren(
      ...rs.chat.map((m) =>
        h(
          "li",
          { class: "chat-msg" },
          h("time", { class: "muted" }, new Date(m.at || Date.now()).toLocaleTimeString(currentLang(), { hour: "2-digit", minute: "2-digit" })),
          " ",
          h("b", {}, (m.from && m.from.name) || "?"),
          m.from && m.from.bot ? [" ", botMark("chat-bot-mark")] : null,
          " ",
          h("span", { class: "chat-text" }, m.text),
          // Another player's message: report it to the moderators (issue 28).
          m.id !== undefined && m.from && m.from.player_id && !(currentPlayer() && m.from.player_id === currentPlayer().player_id)
            ? [" ", reportMessageButton(roomId, m)]
            : null,
        ),
      ),
    );
    chatList.scrollTop = chatList.scrollHeight;
  }

  function drawRoomPane() {
    const tableShown = Boolean(rs.state && rs.room && rs.room.match);
    panes.room.replaceChildren(...(tableShown && rs.mod ? [seatingPanel(false)] : []));
  }

  function drawAll() {
    drawHead();
    drawMain();
    drawScore();
    drawGamePanes();
    drawLog();
    drawRoomPane();
    drawOverlay();
    drawTabs();
    const paused = rs.room && rs.room.status === "paused";
    if (paused) {
      const until = rs.room.pause && rs.room.pause.until;
      banner(until ? t("room.paused_until", { time: new Date(until).toLocaleTimeString(currentLang(), { hour: "2-digit", minute: "2-digit" }) }) : t("room.paused"));
    } else if (rs.connStatus !== "reconnecting") banner("");
  }

  // ---- messages
  function onState(msg) {
    const fresh = rs.state === null || rs.state.match_id !== msg.match_id;
    rs.pendingAction = false;
    if (fresh) rs.memory = {};
    if (msg.recap && msg.recap.length && (fresh || !msg.events || !msg.events.length)) {
      rs.log = [];
      addLog(msg.recap);
    } else addLog(msg.events);
    if (fresh && msg.match_id !== rs.lastMatchId) rs.matchEnd = null;
    rs.lastMatchId = msg.match_id;
    rs.state = msg;
    // A new match, or a resync after a reconnection (no events), is drawn as it is; moves are for new events.
    if (fresh) rs.motionEvents = null;
    else if (msg.events && msg.events.length) rs.motionEvents = [...(rs.motionEvents || []), ...msg.events];
    const coachSeat = msg.seat ?? null;
    coach.onState(msg, coachSeat, soloFor(coachSeat));
    if (!rs.mod) return;
    const gctx = gameCtx();
    for (const ev of msg.events || []) {
      if (ev.type === "played_for" && ev.seat === gctx.seat) {
        const text = t(ev.reason === "absent" ? "event.played_for_you_absent" : "event.played_for_you_clock");
        toast(text, "error");
        announce(text);
      }
    }
    if (gctx.awaited && !rs.wasAwaited && !fresh) yourTurn();
    else if (gctx.awaited && !rs.wasAwaited) turnTitle(true);
    else if (!gctx.awaited) turnTitle(false);
    rs.wasAwaited = gctx.awaited;
    const moduleOnState = rs.mod.onState;
    if (typeof moduleOnState === "function") moduleOnState(gctx);
  }

  function onMessage(msg) {
    seatSetup.onMessage(msg);
    switch (msg.type) {
      case "hello":
        break;
      case "room":
        rs.room = msg.room;
        ensureGame(rs.room.game);
        if (!rs.room.match && rs.state && !isOver()) rs.state = null;
        drawAll();
        break;
      case "state":
        onState(msg);
        if (rs.room) drawAll();
        break;
      case "match_end":
        rs.matchEnd = msg;
        drawAll();
        break;
      case "chat":
        // The room's stored chat comes again (marked recap) on every join: keep each message once, by its id.
        if (msg.id !== undefined && rs.chat.some((m) => m.id === msg.id)) break;
        rs.chat.push(msg);
        if (msg.recap && msg.id !== undefined) rs.chat.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
        if (rs.chat.length > 200) rs.chat.shift();
        if (rs.tab !== "chat" && !msg.recap) rs.unread += 1;
        drawChat();
        drawTabs();
        social.onMessage(msg);
        if (!msg.recap && rs.room && rs.mod) {
          drawHead();
          drawMain();
        }
        break;
      case "reaction":
        social.onMessage(msg);
        break;
      case "room_closed":
        // A moderator closed the table (docs/operating.md "Moderation"): the match so far is kept.
        rs.conn.close();
        page.replaceChildren(notFoundPage(t("room.closed_by_moderator"), "room-closed"));
        break;
      case "error":
        rs.pendingAction = false;
        if (msg.code === "room/bad_password") {
          passwordPrompt(msg);
        } else if (msg.code === "room/bad_invite") {
          // An invite-only room has no password: there is nothing to type, only a link to ask for.
          rs.conn.close();
          page.replaceChildren(inviteOnlyPage());
        } else if (msg.code === "auth/required") {
          rs.conn.close();
          forgetSession();
          ctx.navigate(location.pathname, true);
        } else if (msg.code === "server/busy") {
          // The room is between two servers of a cluster: join again in a moment (nothing the player must do).
          setTimeout(() => rs.conn && rs.conn.rejoin(), 500);
        } else if (msg.code === "room/not_found" || msg.code === "room/kicked") {
          rs.conn.close();
          page.replaceChildren(notFoundPage(errorText(msg), "room-error"));
        } else {
          // Every refusal is shown (a stale submission included): the player must know their move did not count;
          // next to where they acted when that was a moment ago.
          toast(errorText(msg), "error", lastTap());
          if (rs.room && rs.mod) drawMain();
        }
        break;
      default:
        break;
    }
  }

  function passwordPrompt(msg) {
    rs.conn.close();
    const input = h("input", { type: "password", testid: "room-password", autocomplete: "current-password" });
    const form = h(
      "form",
      { class: "panel gate", testid: "password-gate" },
      h("p", { class: "error" }, errorText(msg)),
      h("label", { class: "field" }, h("span", { class: "label" }, t("create.password")), input),
      h("button", { type: "submit", class: "primary", testid: "room-password-submit" }, t("gate.enter")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      access.password = input.value;
      sessionStorage.setItem(`sefode.password.${roomId}`, input.value);
      main.replaceChildren();
      connect();
    });
    main.replaceChildren(form);
  }

  function onStatus(status) {
    rs.connStatus = status;
    page.dataset.conn = status;
    if (status === "reconnecting") banner(t("room.reconnecting"));
    else if (status === "open") banner("");
  }

  function connect() {
    rs.conn = new RoomConnection(roomId, access, onMessage, onStatus);
    rs.conn.connect();
  }

  drawTabs();
  drawHead();
  connect();
  const clockTimer = setInterval(() => {
    tickClocks(page);
    // The last 5 seconds of your own clock: a lower tone and a spoken warning, once per deadline.
    const gctx = rs.state && rs.mod ? gameCtx() : null;
    const deadline = gctx && gctx.awaited ? gctx.deadline(gctx.seat) : null;
    if (deadline && deadline - Date.now() < 5000 && deadline > Date.now() && rs.warnedFor !== deadline) {
      rs.warnedFor = deadline;
      tone("warn");
      announce(t("alert.time_low"));
      const bar = page.querySelector("[data-testid=turn-timer]");
      if (bar) bar.classList.add("low");
    }
  }, 250);
  ctx.onLeave(() => {
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("pointerup", onRelease, true);
    document.removeEventListener("pointercancel", onRelease, true);
    turnTitle(false);
    clearInterval(clockTimer);
    social.close();
    rs.conn.close();
    setActiveGame(null);
    banner("");
  });
}
