// The seating panel: who sits where (sit, stand, the owner's bots per seat, friends and reports), pairs or teams and
// their editor, each seat's choice for the next match (setup.js), the rematch vote, Start, the room's one-line summary,
// the last match's places and the tournament. Drawn large in the main column between matches, small in the side's
// Room pane during one.
import { currentPlayer } from "./api.js";
import { h, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { optionSummary } from "./games.js";
import { botLabel, botMark, seatName, teamBadge } from "./seats.js";
import { tournamentPanel } from "./tournament.js";
import { reportButton } from "./mod.js";
import { rematchBlock } from "./rematch.js";
import { DEFAULT_LEVELS } from "./room-model.js";
import { placementsBlock } from "./room-overlay.js";

/** The pairs or teams: badges and partners, or (the owner, between matches) their names, colours, symbols and seats. */
function teamsEditor(room, send, editable) {
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
  const box = h("div", { class: "teams", testid: "teams" });
  if (editable) {
    const save = () => {
      const value = (id) => box.querySelector(`[data-testid=${id}]`).value;
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
    };
    parts.push(
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", testid: "teams-draw", onclick: () => send({ type: "set_teams", draw: true }) }, t("team.draw")),
        h("button", { type: "button", testid: "teams-save", onclick: save }, t("team.save")),
      ),
    );
    parts.push(h("p", { class: "muted small" }, t("team.assign_note")));
  }
  box.append(...parts);
  return box;
}

/**
 * @param {{model: import("./room-model.js").RoomModel, roomId: string, send: (m: object) => void,
 *          seatSetup: object, tableFriends: object}} deps
 * @returns {{panel: (large: boolean) => HTMLElement}}
 */
export function createSeating({ model, roomId, send, seatSetup, tableFriends }) {
  /** One seat's row: who sits there and what this player may do about it. */
  function seatRow(info, between) {
    const room = model.room;
    const me = currentPlayer();
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
    } else if (info.bot) who = h("span", { class: "seat-who" }, botLabel(s, info.bot));
    else who = h("span", { class: "seat-who muted" }, t("seat.empty"));
    const actions = [];
    if (!info.player_id && !info.bot && !mine) {
      actions.push(h("button", { type: "button", testid: `sit-${s}`, onclick: () => send({ type: "sit", seat: s }) }, t("seat.sit")));
    }
    if (mine && between) actions.push(h("button", { type: "button", testid: "stand", onclick: () => send({ type: "stand" }) }, t("seat.stand")));
    if (info.player_id && !mine) actions.push(...tableFriends.controls(info)); // add as a friend, block (issue 23)
    if (info.player_id && !mine && !info.bot_account) actions.push(reportButton(roomId, { ...info, seat: s })); // issue 28
    if (model.isOwner() && between) actions.push(botPicker(info));
    const team = room.teams ? room.teams.find((tm) => (tm.seats || []).includes(s)) : null;
    return h(
      "li",
      { class: `seat-row${mine ? " mine" : ""}`, testid: `seat-row-${s}`, "data-bubble-seat": String(s) },
      h("span", { class: "seat-no" }, t("seat.number", { n: s + 1 })),
      team ? h("span", { class: "team-symbol", style: { color: team.colour }, title: team.name }, team.symbol) : null,
      who,
      h("span", { class: "seat-actions" }, actions),
    );
  }

  /** The owner's choice for a seat between matches: a human (or free), or a bot of a level. */
  function botPicker(info) {
    const s = info.seat;
    const levels = (model.spec && model.spec.bot_levels) || DEFAULT_LEVELS;
    const sel = h(
      "select",
      { testid: `seat-bot-${s}`, "aria-label": t("seat.bot_select", { n: s + 1 }) },
      h("option", { value: "", selected: !info.bot }, info.player_id ? t("seat.human") : t("seat.free")),
      levels.map((l) => h("option", { value: l, selected: info.bot === l }, t("seat.bot_level", { level: t(`level.${l}`) }))),
    );
    sel.addEventListener("change", () => send({ type: "set_seat", seat: s, bot: sel.value || null }));
    return sel;
  }

  function summary(room) {
    return h(
      "p",
      { class: "muted small", testid: "room-summary" },
      [...optionSummary(model.spec, room.options || {}), tn("room.seats_n", (room.seats || []).length), room.clock_s ? t("room.clock", { s: room.clock_s }) : null, t(room.outside_bots ? "room.outside_bots_yes" : "room.outside_bots_no")]
        .filter(Boolean)
        .join(" · "),
    );
  }

  function panel(large) {
    const room = model.room;
    const me = currentPlayer();
    const owner = model.isOwner();
    const between = !room.match || model.isOver();
    const rows = (room.seats || []).map((info) => seatRow(info, between));
    tableFriends.sync((room.seats || []).map((info) => info.player_id).filter((id) => id && !(me && id === me.player_id)));
    const parts = [h("h2", {}, t("room.seating")), h("ul", { class: "seat-list", testid: "seat-list" }, rows)];
    // The rematch vote, when the end-of-match card that also shows it is closed (or gone: after a reconnection).
    if (between && !model.endShown()) parts.push(rematchBlock({ room, me: me && me.player_id, send, prefix: "seating-" }));
    if (room.teams && room.teams.length) parts.push(teamsEditor(room, send, owner && between));
    if (between) parts.push(seatSetup.panel({ room, mod: model.mod, game: model.spec }));
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
    parts.push(summary(room));
    if (room.last_match && large) parts.push(placementsBlock(model, room.last_match, room.last_match.history_url, null, "last-placements"));
    if (large) parts.push(tournamentPanel(room, owner && between && !room.match && !room.last_match));
    return h("div", { class: `panel seating${large ? " large" : ""}`, testid: "seating" }, parts);
  }

  return { panel };
}
