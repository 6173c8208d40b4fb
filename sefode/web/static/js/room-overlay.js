// The end-of-match card over the room: the places (match_end's, else the view's), "no winner", the game's own
// `renderEnd`, the group's scores, the rematch vote, the reactions bar, the coach's last tip, and the way back to the
// room. `placementsBlock` is also the seating panel's "last match" list.
import { currentPlayer } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { placeBadge, seatInfo, seatName, teamBadge, teamOf } from "./seats.js";
import { rememberMatch, replayLink } from "./replay.js";
import { rematchBlock } from "./rematch.js";
import { createGroupScore } from "./groupscore.js";

/** The replay page names a seat's human from a kept match row (the public history never names them): keep this
 * table's names for it, as the profile does, so the replay says "Ana", not "Lugar 1". */
function rememberNames(room, placements, matchId) {
  if (!matchId) return;
  rememberMatch({
    match_id: matchId,
    players: placements.map((place, seat) => {
      const info = seatInfo(room, seat);
      return { seat, place, name: info.name || null, bot: Boolean(info.bot) };
    }),
  });
}

/** The end of a match: its places (from match_end, else the view), or "no winner" when the outcome says so. */
export function placementsBlock(model, result, historyUrl, view, testid = "placements") {
  const placements = result && result.placements;
  if (!placements) return null;
  const noWinner = Boolean(result.no_winner || (result.outcome && result.outcome.no_winner));
  const order = placements.map((place, seat) => ({ place, seat })).sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
  const me = model.mySeat();
  const found = historyUrl && (/\/api\/matches\/([^/]+)\/history/.exec(historyUrl) || [])[1];
  const matchId = found ? decodeURIComponent(found) : null;
  rememberNames(model.room, placements, matchId);
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
          h("span", { class: "who" }, seatName(model.room, seat, me)),
          teamBadge(teamOf(model.room, view, seat)),
          noWinner ? null : h("span", { class: "muted" }, t("end.place_n", { n: place })),
        ),
      ),
    ),
    historyUrl ? h("a", { class: "button", href: historyUrl, download: "", testid: "download-history" }, t("end.download")) : null,
    matchId ? replayLink(matchId, `${testid}-replay`) : null,
  );
}

/**
 * The end-of-match card. `gameCtx()` is the module's ctx; `onClose()` redraws the room under the card once closed.
 * Returns `{element, draw()}`; `draw` hides the card when there is nothing to show.
 */
export function createEndOverlay({ model, main, send, social, coach, gameCtx, onClose }) {
  const overlay = h("div", { class: "end-overlay", testid: "end-overlay", hidden: true });
  const groupScores = createGroupScore(() => draw());

  /** The game's own part of the card (how the match was won: its renderEnd), or null. */
  function endHow() {
    const render = model.mod && typeof model.mod.renderEnd === "function" ? model.mod.renderEnd : null;
    if (!render || !model.state) return null;
    let el = null;
    try {
      el = render(gameCtx());
    } catch (error) {
      console.error("game module failed to draw the end of the match", error);
    }
    return el ? h("div", { class: "end-how", testid: "end-how" }, el) : null;
  }

  function card(result) {
    const state = model.state;
    const ended = model.matchEndFor(state);
    const me = currentPlayer();
    // This match's history: the room's last_match may still be the match before it until match_end comes (a
    // tournament's next match, a rematch), and a link to that one once sent the replay of the wrong match.
    const last = model.room.last_match;
    const url = (ended && ended.history_url) || (last && last.id === state.match_id && last.history_url) || `/api/matches/${encodeURIComponent(state.match_id)}/history`;
    const close = () => {
      model.overlayClosedFor = state.match_id;
      draw();
      onClose(); // the room's panel shows the rematch vote now, and the reactions bar
    };
    return h(
      "div",
      { class: "panel end-panel", role: "dialog", "aria-modal": "false", "aria-label": t("end.title") },
      placementsBlock(model, result, url, state.view),
      endHow(),
      // Asked for once the match_end came: it is sent after the match is recorded (the state before it may
      // already say the match is over).
      ended ? groupScores.block(ended.match_id) : null,
      rematchBlock({ room: model.room, me: me && me.player_id, send }),
      social.bar({ seated: model.seatedHere() }),
      coach.panel(model.spec && model.spec.name),
      h(
        "div",
        { class: "row end" },
        h("button", { type: "button", testid: "end-close", onclick: close }, t("end.back_to_room")),
        h("a", { class: "button ghost", href: "/", "data-link": true, testid: "end-home" }, t("nav.back_home")),
      ),
    );
  }

  /** The focus inside the card stays on the same control across redraws; a card just shown takes it. */
  function keepFocus(focused, wasHidden) {
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

  function draw() {
    const result = model.endResult();
    if (!result) {
      overlay.hidden = true;
      return;
    }
    const focused = document.activeElement && overlay.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    overlay.replaceChildren(card(result));
    const wasHidden = overlay.hidden;
    overlay.hidden = false;
    social.attach();
    keepFocus(focused, wasHidden);
  }

  return { element: overlay, draw };
}
