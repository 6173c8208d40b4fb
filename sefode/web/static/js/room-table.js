// The table's frame: the room's title line (name, game, status, spectators, unread chat, rules, Invite) and the main
// column — during a match the module's table with the turn timer, the coach's tip, the reactions bar and the platform
// controls (show hand, pause, leave, join, sound, coach, the deal's commitment); between matches the seating. A tap on
// the table is never lost to a redraw, and the keyboard focus is kept (room-keys.js).
import { currentPlayer } from "./api.js";
import { confirmDialog, h } from "./dom.js";
import { hasKey, t, tn } from "./i18n.js";
import { matchTitle, rulesPage } from "./games.js";
import * as generic from "./generic.js";
import { clockEl } from "./seats.js";
import { soundSwitch } from "./alerts.js";
import { fairCheck } from "./fair.js";
import * as motion from "./motion.js";
import { createTableKeys } from "./room-keys.js";

// A tap is a press and a release on the same element. A redraw between the two (another seat's move arriving)
// replaces the element, and the browser then fires no click: the player's tap is lost. So while a pointer is
// pressed on the table, redraws wait for its release (and run after the click it makes); a press that never
// ends (the pointer left the window) holds them at most PRESS_HOLD_MS.
const PRESS_HOLD_MS = 1500;
/** How long a tap's place is where a refusal shows (dom.js toast's `near`). */
const TAP_FRESH_MS = 5000;

export function turnTimer(deadline) {
  return h("div", { class: "turn-timer", testid: "turn-timer", "aria-label": t("alert.timer") }, clockEl(deadline, "my-clock"));
}

/** The room's title line. `openChat()` opens the chat (the unread chip). */
export function drawHead(head, { model, share, access, openChat }) {
  const room = model.room;
  if (!room) {
    head.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
    return;
  }
  const spec = model.spec;
  share.update({ token: room.invite_token || access.invite || null, room: room.name || room.id, roomId: room.id, game: spec ? matchTitle(spec, room.options) : "" });
  const status = room.status === "paused" ? t("room.status_paused") : model.matchOn() ? t("room.status_playing") : t("room.status_waiting");
  const rules = spec ? rulesPage(spec, room.options) : null;
  head.replaceChildren(
    h(
      "div",
      { class: "room-title" },
      h("h1", { testid: "room-name" }, room.name || room.id),
      spec ? h("span", { class: "chip", testid: "room-game" }, matchTitle(spec, room.options)) : null,
      h("span", { class: `chip status-${room.status}`, testid: "room-status" }, status),
      h("span", { class: "chip", testid: "spectators", title: t("room.spectators_title") }, tn("room.spectators_n", room.spectators ?? 0)),
      // The unread chat, where a phone player sees it during play (the chat pane is below the table there).
      model.unread && model.tab !== "chat"
        ? h(
            "button",
            { type: "button", class: "chip chat-chip", testid: "chat-unread-head", "aria-label": t("reactions.chat_unread", { n: model.unread }), onclick: () => openChat() },
            t("tab.chat"),
            h("span", { class: "badge" }, String(model.unread)),
          )
        : null,
      rules ? h("a", { class: "chip rules-chip", href: `/rules/${encodeURIComponent(rules)}`, target: "_blank", rel: "noopener", testid: "room-rules" }, t("nav.rules")) : null,
    ),
    h("div", { class: "invite" }, share.button),
  );
}

/** What the platform offers now: the module's say (`offers`) over defaults from the capabilities. */
export function offers(model, gctx) {
  const statuses = (gctx.state && gctx.state.seat_status) || [];
  const status = gctx.seated ? statuses[gctx.seat] : undefined;
  const out = status === "out";
  const left = status === "left";
  const base = {
    leave: model.capable("forfeit") && gctx.seated && !gctx.over && !out && !left,
    show_hand: false,
    join: model.capable("join") && !gctx.seated && !gctx.over && model.seatCount() < (model.spec.max_seats || 0),
    out: gctx.seated && !gctx.over && out,
    pause: gctx.seated && !gctx.over && !out && !left,
  };
  const say = model.mod && typeof model.mod.offers === "function" ? model.mod.offers(gctx) || {} : {};
  const result = { ...base, ...say };
  if (!model.capable("forfeit")) result.leave = false;
  if (!model.capable("show_hand")) result.show_hand = false;
  if (!model.capable("join")) result.join = false;
  return result;
}

function pauseButton(model, send) {
  const pause = model.room.pause;
  const me = currentPlayer();
  const voted = Boolean(pause && me && (pause.votes || []).includes(me.player_id));
  return h(
    "button",
    { type: "button", testid: "pause-vote", class: voted ? "active" : "", onclick: () => send({ type: "pause", vote: !voted }) },
    model.paused() ? t("controls.resume") : voted ? t("controls.unvote_pause") : t("controls.pause"),
    pause && pause.needed ? ` (${(pause.votes || []).length}/${pause.needed})` : "",
  );
}

function leaveButton(model, sendAction) {
  const game = model.spec.name;
  const onclick = async () => {
    // A game says what leaving means at its table (`<game>.leave_confirm`): a bot plays on for you in
    // King, One Man's Trash and Guimenon; the Se Fode family's leave forfeits.
    const own = `${game}.leave_confirm`;
    const text = hasKey(own, game) ? t(own) : t("controls.leave_confirm");
    if (await confirmDialog(text)) sendAction({ leave: true });
  };
  return h("button", { type: "button", class: "danger", testid: "leave-match", onclick }, hasKey(`${game}.leave`, game) ? t(`${game}.leave`) : t("controls.leave"));
}

/** The platform's controls under the table. `coach` gives the solo coach's switch; `redraw` redraws the table. */
function controls(gctx, { model, send, coach, soloFor, redraw }) {
  const items = [];
  const offer = offers(model, gctx);
  const sendAction = (action) => send({ type: "action", action, version: model.state.version });
  if (offer.show_hand) {
    const onclick = async () => {
      if (await confirmDialog(t("controls.show_confirm"))) sendAction({ show: true });
    };
    items.push(h("button", { type: "button", testid: "show-hand", onclick }, t("controls.show_hand")));
  }
  if (offer.pause) items.push(pauseButton(model, send));
  if (offer.leave) items.push(leaveButton(model, sendAction));
  if (offer.out) items.push(h("span", { class: "muted", testid: "you-are-out" }, t("controls.you_are_out")));
  if (gctx.seated && !gctx.over) items.push(soundSwitch(() => redraw()));
  if (gctx.seated && !gctx.over && soloFor(gctx.seat)) items.push(coach.toggle());
  if (!gctx.seated && model.room.match && !gctx.over) {
    items.push(h("span", { class: "muted", testid: "spectating" }, t("room.spectating")));
    if (offer.join) {
      items.push(h("button", { type: "button", class: "primary", testid: "join-table", onclick: () => sendAction({ join: true }) }, t("controls.join_table")));
    }
  }
  // The deal's commitment, one tap away (never a hash on the table itself).
  if (model.room.match && model.room.match.seed_hash) items.push(fairCheck({ hash: model.room.match.seed_hash }));
  return h("div", { class: "controls", testid: "controls" }, items);
}

/**
 * The main column. `deps`: the model, the page and main elements, `send`, the coach and the reactions (`social`),
 * `soloFor(seat)`, `gameCtx()`, `seatingPanel(large)`. Returns `{draw, lastTap, close}`.
 */
export function createTableFrame(deps) {
  const { model, page, main, coach, social, gameCtx, seatingPanel } = deps;
  const keys = createTableKeys(main, () => Boolean(model.state));
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
      setTimeout(draw, 0); // after the click this release makes
    }
  };
  main.addEventListener("pointerdown", onPress, true);
  document.addEventListener("pointerup", onRelease, true);
  document.addEventListener("pointercancel", onRelease, true);

  // Where the player last tapped or pressed Enter on the table (its box then: the element may be redrawn since),
  // for a refusal to show there (dom.js toast's `near`).
  let tapped = null;
  const onClick = (event) => {
    const el = event.target && event.target.closest ? event.target.closest("button, [role=button], .card") : null;
    if (el && el.closest("[data-testid=table]")) tapped = { box: el.getBoundingClientRect(), at: performance.now() };
  };
  main.addEventListener("click", onClick, true);
  const lastTap = () => (tapped && performance.now() - tapped.at < TAP_FRESH_MS ? tapped.box : null);

  /** The module's table (the generic renderer's when the module throws), marked for the tests and the shell. */
  function table(gctx) {
    let el;
    try {
      el = model.hook("renderTable")(gctx);
    } catch (error) {
      // A module that throws must not take the table away: fall back to the generic renderer.
      console.error("game module failed to draw the table", error);
      el = generic.renderTable(gctx);
    }
    el.dataset.testid = "table";
    el.dataset.version = String(model.state.version);
    el.dataset.game = model.spec.name;
    return el;
  }

  function drawTable() {
    const gctx = gameCtx();
    const el = table(gctx);
    const focus = keys.focusedPlace();
    const deadline = gctx.awaited ? gctx.deadline(gctx.seat) : null;
    // The turn timer at the decision: the module may place ctx.timer() itself; else it sits above the controls.
    const timer = deadline && !el.querySelector("[data-testid=turn-timer]") ? turnTimer(deadline) : null;
    const tip = gctx.over ? null : coach.panel(model.spec && model.spec.name);
    // Motion (motion.js): the table as it was, then the moves to the table as it is, for the states since.
    const before = model.motionEvents && model.motionEvents.length ? motion.snapshot(main.querySelector("[data-testid=table]")) : null;
    main.replaceChildren(el, ...(timer ? [timer] : []), ...(tip ? [tip] : []), social.bar({ seated: model.seatedHere() }), controls(gctx, { ...deps, redraw: draw }));
    page.classList.add("playing");
    // The module fits its table to the screen now that it is in the page, before anything measures it (the focus,
    // the moves) and before anything can act on it: no tap or test ever meets the table as drawn before fitting.
    const fit = model.mod && typeof model.mod.fitTable === "function" ? model.mod.fitTable : null;
    if (fit) {
      try {
        fit(el);
      } catch (error) {
        console.error("game module failed to fit the table", error);
      }
    }
    keys.restoreFocus(focus, gctx);
    if (before && model.motionEvents.length) motion.play(el, before, model.motionEvents);
    model.motionEvents = [];
  }

  function drawSeating() {
    page.classList.remove("playing");
    const focus = document.activeElement && main.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    // With the end-of-match card on top, the bar is on the card.
    main.replaceChildren(...(model.endShown() ? [] : [social.bar({ seated: model.seatedHere() })]), seatingPanel(true));
    if (focus) {
      const again = main.querySelector(`[data-testid="${CSS.escape(focus)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function draw() {
    if (!model.room) return;
    if (pressedAt && performance.now() - pressedAt < PRESS_HOLD_MS) {
      if (!drawWhenReleased) setTimeout(() => drawWhenReleased && onRelease(), PRESS_HOLD_MS);
      drawWhenReleased = true;
      return;
    }
    if (!model.mod) {
      main.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
      return;
    }
    if (model.state && model.room.match) drawTable();
    else drawSeating();
    social.attach();
  }

  function close() {
    keys.close();
    document.removeEventListener("pointerup", onRelease, true);
    document.removeEventListener("pointercancel", onRelease, true);
  }

  return { draw, lastTap, close };
}
