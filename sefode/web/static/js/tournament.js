// Tournament standings shown in a room between matches (rank, points, 1st places, last-match place, points per
// match), its status and champion, and for the room's owner before the first match the choice of 3 or 5 matches.
// room-seating.js calls tournamentPanel(room, canDeclare) each time it draws the seating; answers are cached per room and
// last match, so a redraw does not ask the server again.
import { ApiError, api } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { accountErrorText, awardIcon } from "./account.js";

const cache = new Map();

function keyOf(room) {
  return `${room.id}|${room.last_match ? room.last_match.id : ""}`;
}

async function fetchTournament(room) {
  const lastId = room.last_match ? room.last_match.id : null;
  // The standings may trail the room's last match by a moment (it is recorded as the match ends): ask again briefly.
  for (let attempt = 0; ; attempt += 1) {
    try {
      // ?missing=null: a room without a tournament answers null (not a 404 in the console).
      const data = await api("GET", `/rooms/${encodeURIComponent(room.id)}/tournament?missing=null`);
      if (data === null) return null;
      const counted = !lastId || (data.match_ids || []).includes(lastId) || data.status !== "playing";
      if (counted || attempt >= 20) return data;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      if (attempt >= 5) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

function load(room) {
  const key = keyOf(room);
  let entry = cache.get(key);
  if (!entry) {
    entry = fetchTournament(room).catch((error) => {
      cache.delete(key);
      throw error;
    });
    cache.set(key, entry);
    // No tournament before the first match: ask again on the next draw (the owner may declare one meanwhile).
    const open = !room.last_match && !room.match;
    entry.then((data) => data === null && open && cache.get(key) === entry && cache.delete(key), () => {});
  }
  return entry;
}

function who(row) {
  if (row.bot) return t("tour.bot");
  if (row.anonymous || !row.name) return t("acct.anonymous");
  return row.name;
}

function statusText(data) {
  if (data.status === "abandoned") return t("tour.abandoned");
  if (data.status === "finished") return t("tour.finished");
  return t("tour.playing", { played: data.played, matches: data.matches });
}

/** The standings table and status of a tournament (also usable outside a room). */
export function standingsEl(data) {
  const matchCols = Array.from({ length: data.matches }, (_, i) => i);
  const head = h(
    "tr",
    {},
    h("th", { class: "num" }, t("tour.rank")),
    h("th", {}, t("tour.player")),
    h("th", { class: "num", title: t("tour.points_title") }, t("tour.points")),
    h("th", { class: "num", title: t("tour.firsts_title") }, t("tour.firsts")),
    h("th", { class: "num", title: t("tour.last_title") }, t("tour.last")),
    matchCols.map((i) => h("th", { class: "num per-match", title: t("tour.match_n", { n: i + 1 }) }, `#${i + 1}`)),
  );
  const champions = new Set((data.champions || []).map((c) => (c.bot ? null : c.player_id)).filter(Boolean));
  const rows = (data.standings || []).map((row, k) =>
    h(
      "tr",
      { class: champions.has(row.player_id) ? "champion" : "", testid: `tour-row-${k}`, dataset: { player: row.player_id || "", points: String(row.points) } },
      h("td", { class: "num" }, String(row.rank)),
      h("td", { class: "who" }, champions.has(row.player_id) ? [awardIcon("trophy"), " "] : "", who(row)),
      h("td", { class: "num strong" }, String(row.points)),
      h("td", { class: "num" }, String(row.firsts)),
      h("td", { class: "num" }, row.last_place === null || row.last_place === undefined ? "—" : `${row.last_place}º`),
      matchCols.map((i) => {
        const v = (row.per_match || [])[i];
        return h("td", { class: "num per-match" }, v === null || v === undefined ? "—" : String(v));
      }),
    ),
  );
  const championNames = (data.champions || []).map((c) => (c.bot ? t("tour.bot") : c.name || t("acct.anonymous")));
  return h(
    "div",
    { class: "tour-standings", testid: "tour-standings", dataset: { status: data.status, played: String(data.played) } },
    h("p", { class: `tour-status status-${data.status}`, testid: "tour-status" }, statusText(data)),
    data.status === "finished" && championNames.length
      ? h("p", { class: "tour-champion", testid: "tour-champion" }, t("tour.champion", { names: championNames.join(", ") }))
      : null,
    h("p", { class: "muted small", testid: "tour-valid" }, data.valid ? t("tour.valid") : t("tour.not_valid")),
    data.status === "finished" && data.valid && !(data.trophies || []).length ? h("p", { class: "muted small" }, t("tour.no_human_champion")) : null,
    (data.standings || []).length
      ? h("div", { class: "table-scroll" }, h("table", { class: "tour-table", testid: "tour-table" }, h("thead", {}, head), h("tbody", {}, rows)))
      : h("p", { class: "muted small" }, t("tour.no_matches_yet")),
    h("p", { class: "muted small" }, t("tour.points_rule")),
  );
}

function declareControls(room, box) {
  const pick = (n) =>
    h(
      "button",
      {
        type: "button",
        testid: `tour-declare-${n}`,
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            const data = await api("POST", `/rooms/${encodeURIComponent(room.id)}/tournament`, { matches: n });
            cache.set(keyOf(room), Promise.resolve(data));
            toast(t("tour.declared", { n }));
            fill(box, room, false);
          } catch (error) {
            toast(accountErrorText(error), "error");
            event.currentTarget.disabled = false;
          }
        },
      },
      t("tour.declare_n", { n }),
    );
  return h(
    "div",
    { class: "tour-declare", testid: "tour-declare" },
    h("p", { class: "muted small" }, t("tour.declare_hint")),
    h("div", { class: "row" }, pick(3), pick(5)),
  );
}

async function fill(box, room, canDeclare) {
  let data;
  try {
    data = await load(room);
  } catch (error) {
    box.replaceChildren(h("p", { class: "error small" }, accountErrorText(error)));
    box.hidden = false;
    return;
  }
  if (!data) {
    if (canDeclare) {
      box.replaceChildren(h("h3", {}, t("tour.title")), declareControls(room, box));
      box.hidden = false;
    } else box.hidden = true;
    return;
  }
  box.replaceChildren(h("h3", {}, t("tour.title_n", { n: data.matches })), standingsEl(data));
  box.hidden = false;
}

/**
 * The room's tournament block: filled once the server answers; hidden when the room has none (unless
 * `canDeclare`, the owner before the first match, who gets the 3 / 5 matches buttons).
 */
export function tournamentPanel(room, canDeclare) {
  const box = h("div", { class: "tour-panel", testid: "tour-panel", hidden: true });
  if (room && room.id) fill(box, room, Boolean(canDeclare));
  return box;
}
