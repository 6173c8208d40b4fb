// Room page, the shell every game shares: the seating and owner controls between matches, the table during one (drawn
// by the game's module, or the generic renderer), the side panel (score, the module's own panes, chat, log, room),
// pause and clocks, the platform controls the game's capabilities offer (leave, show hand, join), the end screen
// with placements, reconnection and spectators. One WebSocket per page, reconnecting by itself. The module contract
// is docs/client-modules.md; this file names no game.
//
// This file wires the page together and takes the server's messages; the parts are modules of their own:
// room-model.js (the model the messages are folded into), room-ctx.js (the module's ctx), room-gate.js (session,
// invite, password), room-table.js (title line, table frame, controls), room-keys.js (focus and keys),
// room-seating.js (seating panel), room-panels.js (side panel) and room-overlay.js (end-of-match card).
import { forgetSession } from "./api.js";
import { banner, h, toast } from "./dom.js";
import { currentLang, errorText, setActiveGame, t } from "./i18n.js";
import { gameModule, gameSpec } from "./games.js";
import { seatName, tickClocks } from "./seats.js";
import { announce, tone, turnTitle, yourTurn } from "./alerts.js";
import { notFoundPage } from "./notfound.js";
import { RoomConnection } from "./ws.js";
import { createSeatSetup } from "./setup.js";
import { createCoach } from "./coach.js";
import { createShare } from "./share.js";
import { tableFriends as createTableFriends } from "./friends.js";
import { inviteOnlyPage } from "./preview.js";
import { createReactions } from "./reactions.js";
import { DEFAULT_LEVELS, RoomModel } from "./room-model.js";
import { gameContext } from "./room-ctx.js";
import { passwordForm, roomSession } from "./room-gate.js";
import { createTableFrame, drawHead, turnTimer } from "./room-table.js";
import { createSeating } from "./room-seating.js";
import { createSidePanels } from "./room-panels.js";
import { createEndOverlay } from "./room-overlay.js";

export { renderInvite } from "./room-gate.js";

/** The last seconds of your own clock, when a lower tone and a spoken warning are given (once per deadline). */
const WARN_MS = 5000;
const CLOCK_TICK_MS = 250;

/** The spec and module of the room's game, loaded once; a game /api/games does not list still plays (generic). */
async function loadGame(name) {
  let spec = null;
  try {
    spec = await gameSpec(name);
  } catch {
    spec = null;
  }
  const mod = await gameModule(spec);
  return {
    spec: spec || { name, title: name, capabilities: [], bot_levels: DEFAULT_LEVELS, options: [], variants: [], rules: [], summary: [] },
    mod,
  };
}

/** After a `state` entered the model: the coach, a seat played for you, turn alerts, the module's onState. */
function afterState(p, msg, fresh) {
  const { model } = p;
  const coachSeat = msg.seat ?? null;
  p.coach.onState(msg, coachSeat, p.soloFor(coachSeat));
  if (!model.mod) return;
  const gctx = p.gameCtx();
  for (const ev of msg.events || []) {
    if (ev.type === "played_for" && ev.seat === gctx.seat) {
      const text = t(ev.reason === "absent" ? "event.played_for_you_absent" : "event.played_for_you_clock");
      toast(text, "error");
      announce(text);
    }
  }
  if (gctx.awaited && !model.wasAwaited && !fresh) yourTurn();
  else if (gctx.awaited && !model.wasAwaited) turnTitle(true);
  else if (!gctx.awaited) turnTitle(false);
  model.wasAwaited = gctx.awaited;
  if (typeof model.mod.onState === "function") model.mod.onState(gctx);
}

/** An `error` message: the ones that end the page (or ask a password), else a toast where the player acted. */
function onError(p, msg) {
  const { model, draw } = p;
  model.pendingAction = false;
  const leave = (element) => {
    p.conn.close();
    p.page.replaceChildren(element);
  };
  if (msg.code === "room/bad_password") p.askPassword(msg);
  // An invite-only room has no password: there is nothing to type, only a link to ask for.
  else if (msg.code === "room/bad_invite") leave(inviteOnlyPage());
  else if (msg.code === "auth/required") {
    p.conn.close();
    forgetSession();
    p.ctx.navigate(location.pathname, true);
  } else if (msg.code === "server/busy") {
    // The room is between two servers of a cluster: join again in a moment (nothing the player must do).
    setTimeout(() => p.conn && p.conn.rejoin(), 500);
  } else if (msg.code === "room/not_found" || msg.code === "room/kicked") leave(notFoundPage(errorText(msg), "room-error"));
  else {
    // Every refusal is shown (a stale submission included): the player must know their move did not count;
    // next to where they acted when that was a moment ago.
    toast(errorText(msg), "error", p.lastTap());
    if (model.ready()) draw.main();
  }
}

/** Every message of the room's connection: folded into the model, then drawn. */
function onMessage(p, msg) {
  const { model, draw } = p;
  p.seatSetup.onMessage(msg);
  switch (msg.type) {
    case "room":
      model.applyRoom(msg.room);
      p.ensureGame(model.room.game);
      draw.all();
      break;
    case "state": {
      const fresh = model.applyState(msg);
      afterState(p, msg, fresh);
      if (model.room) draw.all();
      break;
    }
    case "past":
      if (model.applyPast(msg) && model.ready()) p.side.draw();
      break;
    case "match_end":
      model.applyMatchEnd(msg);
      draw.all();
      break;
    case "chat":
      if (!model.applyChat(msg)) break;
      p.side.drawChat();
      p.side.drawTabs();
      p.social.onMessage(msg);
      if (!msg.recap && model.ready()) {
        draw.head();
        draw.main();
      }
      break;
    case "reaction":
      p.social.onMessage(msg);
      break;
    case "room_closed":
      // A moderator closed the table (docs/operating.md "Moderation"): the match so far is kept.
      p.conn.close();
      p.page.replaceChildren(notFoundPage(t("room.closed_by_moderator"), "room-closed"));
      break;
    case "error":
      onError(p, msg);
      break;
    default: // "hello", and anything newer than this page
      break;
  }
}

/** The paused banner (until when), cleared when the room plays on and the connection is not being restored. */
function pauseBanner(model) {
  if (model.paused()) {
    const until = model.room.pause && model.room.pause.until;
    banner(until ? t("room.paused_until", { time: new Date(until).toLocaleTimeString(currentLang(), { hour: "2-digit", minute: "2-digit" }) }) : t("room.paused"));
  } else if (model.connStatus !== "reconnecting") banner("");
}

/** The last seconds of your own clock: a lower tone and a spoken warning, once per deadline. */
function warnTimeLow(p) {
  const { model } = p;
  const gctx = model.state && model.mod ? p.gameCtx() : null;
  const deadline = gctx && gctx.awaited ? gctx.deadline(gctx.seat) : null;
  if (deadline && deadline - Date.now() < WARN_MS && deadline > Date.now() && model.warnedFor !== deadline) {
    model.warnedFor = deadline;
    tone("warn");
    announce(t("alert.time_low"));
    const bar = p.page.querySelector("[data-testid=turn-timer]");
    if (bar) bar.classList.add("low");
  }
}

export async function renderRoom(ctx, roomId) {
  if (!(await roomSession(ctx, roomId))) return;
  ctx.app.replaceChildren();
  const model = new RoomModel();
  const access = {
    invite: sessionStorage.getItem(`sefode.invite.${roomId}`) || undefined,
    password: sessionStorage.getItem(`sefode.password.${roomId}`) || undefined,
  };
  /** `p`: the page's parts, for the message handlers above. `draw`: what each kind of change redraws. */
  const p = { ctx, model, conn: null };
  const draw = {
    head: () => drawHead(head, { model, share, access, openChat: () => side.openChat() }),
    main: () => frame.draw(),
    overlay: () => overlay.draw(),
    all: () => {
      draw.head();
      draw.main();
      side.draw();
      draw.overlay();
      side.drawTabs();
      pauseBanner(model);
    },
  };
  p.draw = draw;
  const send = (message) => {
    if (!p.conn.send(message)) toast(t("error.offline"), "error");
  };
  const askPast = () => p.conn.send({ type: "past" });
  p.gameCtx = () => gameContext(model, { act, redraw: draw.main, lastTap: () => frame.lastTap(), turnTimer, askPast });
  function act(action) {
    if (!model.state || model.pendingAction) return;
    if (!p.conn.send({ type: "action", action, version: model.state.version })) {
      toast(t("error.offline"), "error");
      return;
    }
    model.pendingAction = true;
    draw.main();
  }
  const redrawTable = () => {
    if (!model.ready()) return;
    draw.main();
    draw.overlay();
  };

  const head = h("div", { class: "room-head", testid: "room-head" });
  const main = h("div", { class: "room-main", testid: "room-main" });
  const share = createShare();
  const tableFriends = createTableFriends(
    () => draw.all(),
    (playerId) => {
      model.dropChatFrom(playerId);
      side.drawChat();
    },
  );
  p.seatSetup = createSeatSetup({ send, redraw: () => draw.all() });
  /** The solo coach's "Dica" after each hand (coach.js): its panel under the table, its switch in the controls. */
  p.coach = createCoach({ roomId, redraw: redrawTable });
  p.soloFor = (seat) => p.coach.solo(model.room, seat);
  /** Reactions and seat bubbles (reactions.js): the bar near the table, bubbles on the seats. */
  p.social = createReactions({
    send,
    seatOfPlayer: (pid) => model.seatOfPlayer(pid),
    nameOf: (seat) => seatName(model.room, seat, model.mySeat()),
    roots: () => [overlay.element, main],
    openChat: () => side.openChat(),
    unread: () => model.unread,
    redraw: redrawTable,
  });
  const seating = createSeating({ model, roomId, send, seatSetup: p.seatSetup, tableFriends });
  const side = createSidePanels({
    model,
    roomId,
    sendChat: (text) => p.conn.send({ type: "chat", text }),
    gameCtx: p.gameCtx,
    seatingPanel: (large) => seating.panel(large),
    onChatOpened: () => {
      draw.head();
      if (model.ready()) draw.main();
    },
  });
  const overlay = createEndOverlay({ model, main, send, social: p.social, coach: p.coach, gameCtx: p.gameCtx, onClose: draw.main });
  const page = h("section", { class: "page room-page", testid: "room-page" }, head, h("div", { class: "room-body" }, main, side.element), overlay.element, share.dialog);
  p.page = page;
  const frame = createTableFrame({ model, page, main, send, coach: p.coach, social: p.social, soloFor: p.soloFor, gameCtx: p.gameCtx, seatingPanel: seating.panel });
  p.lastTap = frame.lastTap;
  p.side = side;
  ctx.app.append(page);

  let loading = null;
  p.ensureGame = (name) => {
    if (loading || !name) return;
    loading = loadGame(name).then(({ spec, mod }) => {
      model.setGame(spec, mod);
      setActiveGame(name);
      side.setGamePanes(mod.panes);
      draw.all();
    });
  };
  const connect = () => {
    p.conn = new RoomConnection(roomId, access, (msg) => onMessage(p, msg), onStatus);
    p.conn.connect();
  };
  p.askPassword = (msg) => {
    p.conn.close();
    main.replaceChildren(
      passwordForm(msg, (password) => {
        access.password = password;
        sessionStorage.setItem(`sefode.password.${roomId}`, password);
        main.replaceChildren();
        connect();
      }),
    );
  };
  function onStatus(status) {
    model.connStatus = status;
    page.dataset.conn = status;
    if (status === "reconnecting") banner(t("room.reconnecting"));
    else if (status === "open") banner("");
  }

  side.drawTabs();
  draw.head();
  connect();
  const clockTimer = setInterval(() => {
    tickClocks(page);
    warnTimeLow(p);
  }, CLOCK_TICK_MS);
  ctx.onLeave(() => {
    frame.close();
    turnTitle(false);
    clearInterval(clockTimer);
    p.social.close();
    p.conn.close();
    setActiveGame(null);
    banner("");
  });
}
