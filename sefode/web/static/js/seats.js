// Seat helpers every game's table shares: names as the table shows them, pairs/teams (from the room), places
// around an ellipse, and turn clocks (elements with data-deadline, updated by the room page's timer).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The room's record of a seat in the match on (else in the seating). */
export function seatInfo(room, seat) {
  const seats = (room && room.match && room.match.seats) || (room && room.seats) || [];
  return seats.find((s) => s.seat === seat) || seats[seat] || {};
}

/**
 * Seat name as the table shows it: the player's name, or "Bot n (level)"; "(you)" for your own seat. A bot account
 * (an outside bot, `bot_account` in the room's seats) is always marked in the text itself ("Robô [bot]"), so the
 * mark is in every place a game names the seat and in its accessible name.
 */
export function seatName(room, seat, mySeat, short = false) {
  const info = seatInfo(room, seat);
  // Bots are named one way everywhere: "Bot n (level)" (`short` is kept for callers; the name is the same).
  const botName = info.bot ? botLabel(seat, info.bot) : t("seat.bot_short", { n: seat + 1 });
  let name = info.name || (info.bot ? botName : t("seat.number", { n: seat + 1 }));
  if (info.bot_account) name = botAccountName(info.name);
  else if (info.player_id && info.bot && info.name) name = t("seat.bot_covering", { name: info.name });
  if (seat === mySeat) name = t("seat.you_named", { name });
  return name;
}

/** An outside bot's name with its mark: "Robô [bot]". */
export function botAccountName(name) {
  return t("seat.bot_account_named", { name: name || "?" });
}

/** The bot mark as a chip after a name the page draws itself (its text is part of the accessible name). */
export function botMark(testid) {
  return h("span", { class: "chip bot-mark", testid: testid || null }, t("seat.bot_mark"));
}

/** A bot's name: "Bot 2 (difícil)" (seat numbers from 1). */
export function botLabel(seat, level) {
  return level ? t("seat.bot_named", { n: seat + 1, level: t(`level.${level}`) }) : t("seat.bot_short", { n: seat + 1 });
}

const TEAM_COLOURS = ["#d33f49", "#2f6fdb", "#2e9d57", "#c98a12"];
const TEAM_SYMBOLS = ["♥", "♠", "♣", "♦"];

/**
 * The pair or team of a seat: {index, name, colour, symbol} from room.teams (the room's names and colours), else
 * from the view's `teams` list (unit per seat) with default names; null when the seat plays alone.
 */
export function teamOf(room, view, seat) {
  const teams = (room && room.teams) || [];
  const units = view && Array.isArray(view.teams) ? view.teams : null;
  if (!units && !teams.length) return null;
  const byList = teams.findIndex((team) => Array.isArray(team.seats) && team.seats.includes(seat));
  const unit = units ? units[seat] : byList;
  if (unit === null || unit === undefined || unit < 0) return null;
  const team = (byList >= 0 ? teams[byList] : teams[unit]) || {};
  return {
    index: unit,
    name: team.name || t("team.default_name", { n: unit + 1 }),
    colour: team.colour || TEAM_COLOURS[unit % 4],
    symbol: team.symbol || TEAM_SYMBOLS[unit % 4],
  };
}

export function teamBadge(team) {
  if (!team) return null;
  return h(
    "span",
    { class: "team-badge", style: { "--team": team.colour }, title: team.name, testid: `team-badge-${team.index}` },
    h("span", { class: "team-symbol" }, team.symbol),
    h("span", { class: "team-name" }, team.name),
  );
}

/**
 * Where seat s sits around the table, as an angle in degrees (screen coordinates: 90 is the bottom, `base` sits
 * there). `direction` 1 draws the order of play clockwise (the next seat on your left), -1 counter-clockwise (on
 * your right); seat numbers stay in the order of play either way.
 */
export function seatAngle(seat, seats, base, direction = 1) {
  const rel = (seat - base + seats) % seats;
  return 90 + (direction < 0 ? -1 : 1) * ((rel * 360) / seats);
}

/** A point on an ellipse around the centre of a box, in percent of the box. */
export function polar(angle, rx, ry) {
  const rad = (angle * Math.PI) / 180;
  return { x: 50 + rx * Math.cos(rad), y: 50 + ry * Math.sin(rad) };
}

/** The deadline (epoch ms, on this device's clock: ws.js) of a seat's clock in a state: `deadlines[seat]`, else `deadline` for the awaited seat. */
export function deadlineOf(state, seat) {
  if (!state) return null;
  if (state.deadlines && state.deadlines[String(seat)]) return Number(state.deadlines[String(seat)]);
  const awaiting = state.awaiting || [];
  if (state.deadline && (awaiting.length <= 1 ? awaiting.includes(seat) : seat === state.seat)) return Number(state.deadline);
  return null;
}

export function formatClock(deadline) {
  if (!deadline) return "";
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return `${left}s`;
}

/** How long each deadline's clock ran when first drawn (ms), so its bar shows the part of the time left. */
const clockTotals = new Map();

function clockFraction(deadline) {
  const left = Math.max(0, deadline - Date.now());
  if (!clockTotals.has(deadline)) {
    clockTotals.set(deadline, Math.max(left, 1));
    if (clockTotals.size > 64) clockTotals.delete(clockTotals.keys().next().value);
  }
  return Math.min(1, left / clockTotals.get(deadline));
}

/** A turn clock for a deadline (epoch ms): the seconds left and a bar; the room page's timer keeps it current. */
export function clockEl(deadline, testid = null) {
  if (!deadline) return null;
  const fraction = clockFraction(deadline);
  return h(
    "div",
    { class: `clock${deadline - Date.now() < 5000 ? " low" : ""}`, "data-deadline": String(deadline), testid, role: "timer" },
    h("span", { class: "clock-text" }, formatClock(deadline)),
    h("span", { class: "clock-bar", "aria-hidden": "true" }, h("span", { class: "clock-fill", style: { width: `${fraction * 100}%` } })),
  );
}

/** Update every clock on the page; called on a timer. */
export function tickClocks(root) {
  for (const el of root.querySelectorAll("[data-deadline]")) {
    const deadline = Number(el.dataset.deadline);
    const text = el.querySelector(".clock-text");
    if (text) text.textContent = formatClock(deadline);
    else el.textContent = formatClock(deadline);
    const fill = el.querySelector(".clock-fill");
    if (fill) fill.style.width = `${clockFraction(deadline) * 100}%`;
    el.classList.toggle("low", deadline - Date.now() < 5000);
  }
}

/** A place as a medal-coloured badge: "1º" gold, "2º" silver, "3º" bronze, then plain. */
export function placeBadge(place) {
  const medal = ["", "gold", "silver", "bronze"][place] || "plain";
  return h("span", { class: `place medal-${medal}`, title: t("end.place_n", { n: place }) }, `${place}º`);
}
