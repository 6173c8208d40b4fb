// Replay viewer: shows a finished match as the engine itself replays it. `GET /api/matches/{id}/replay` answers
// `{"history": <sefode-history/1>, "replay": <the `sefode replay` result>}`. This shell draws what every game shares
// (title, places, download, the engine's error; the seed only behind the "verifiable shuffle" disclosure) and hands the rest to the game's module (`renderReplay`, see
// docs/client-modules.md), or to the generic renderer. No rule of any game is computed here.
import { ApiError, api } from "./api.js";
import { h } from "./dom.js";
import { hasKey, setActiveGame, t, tg } from "./i18n.js";
import { moveText } from "./cards.js";
import { accountErrorText } from "./account.js";
import { gameModule, gameSpec, matchTitle } from "./games.js";
import { botAccountName } from "./seats.js";
import { fairCheck } from "./fair.js";
import * as generic from "./generic.js";

const STORE_PREFIX = "sefode.match.";

/** Keep a profile's match row (names, places) so the viewer can name the seats. */
export function rememberMatch(row) {
  try {
    sessionStorage.setItem(STORE_PREFIX + row.match_id, JSON.stringify({ players: row.players || [], ended_at: row.ended_at }));
  } catch {
    // Storage full or disabled: the viewer falls back to seat numbers.
  }
}

/** A link to the replay of a finished match (the end-of-match card, the room's last match). */
export function replayLink(matchId, testid) {
  return h("a", { class: "button", href: `/replay/${encodeURIComponent(matchId)}`, "data-link": true, testid }, t("end.replay"));
}

function remembered(matchId) {
  try {
    return JSON.parse(sessionStorage.getItem(STORE_PREFIX + matchId) || "null");
  } catch {
    return null;
  }
}

/**
 * A seat's name in the viewer. The history's own `seats` (who held each seat: a human, one of the table's bots, or
 * a bot account with its name) marks every bot, even when no profile row was kept; a profile row names the humans.
 */
function seatLabel(players, seat, kinds = []) {
  const kind = (Array.isArray(kinds) && kinds.find((k) => k && k.seat === seat)) || null;
  if (kind && kind.kind === "bot_account") return botAccountName(kind.name);
  if (kind && kind.kind === "bot") return kind.level ? t("replay.bot_level_n", { n: seat + 1, level: t(`level.${kind.level}`) }) : t("replay.bot_n", { n: seat + 1 });
  const p = players && players.find((x) => x.seat === seat);
  if (!p) return t("replay.seat_n", { n: seat + 1 });
  if (p.bot) return t("replay.bot_n", { n: seat + 1 });
  if (p.anonymous || !p.name) return t("acct.anonymous");
  return p.name;
}

/** The seed as written in the response text: a 63-bit integer loses its last digits as a JavaScript number. */
export function seedFromText(raw, fallback) {
  const found = /"seed"\s*:\s*(-?\d+)/.exec(raw);
  return found ? found[1] : fallback === undefined || fallback === null ? "" : String(fallback);
}

async function loadReplay(matchId) {
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}/replay`, { credentials: "same-origin" });
  const raw = await response.text();
  if (!response.ok) {
    let err = {};
    try {
      err = JSON.parse(raw).error || {};
    } catch {
      // not JSON: keep the status only
    }
    throw new ApiError(response.status, err.code, err.message);
  }
  const data = JSON.parse(raw);
  // The response starts with the history, so the first "seed" in the text is the history's.
  return { history: data.history || {}, replay: data.replay || {}, seedText: seedFromText(raw, data.history && data.history.seed) };
}

export async function renderReplay(ctx, matchId) {
  const page = h("section", { class: "page replay-page", testid: "replay-page" }, h("p", { class: "muted" }, t("common.loading")));
  ctx.app.append(page);
  let loaded;
  try {
    loaded = await loadReplay(matchId);
  } catch (error) {
    const text = error && error.code === "match/not_over" ? t("replay.not_over") : error && error.code === "match/not_found" ? t("replay.not_found") : accountErrorText(error);
    page.replaceChildren(h("p", { class: "error panel", testid: "replay-error" }, text));
    return;
  }
  const { history, replay, seedText } = loaded;
  const options = history.options || {};
  let spec = null;
  try {
    spec = await gameSpec(history.game);
  } catch {
    spec = null;
  }
  const mod = await gameModule(spec);
  setActiveGame(history.game);
  ctx.onLeave(() => setActiveGame(null));
  const info = remembered(matchId);
  const players = info ? info.players : null;
  const placements = Array.isArray(replay.placements) ? replay.placements : null;
  const seats = (spec && spec.seats_option && Number(options[spec.seats_option])) || (placements ? placements.length : 0) || (players ? players.length : 0);
  // Places: the engine's placements (by seat) when the replay reached the end, else what the profile row said.
  const places = placements
    ? placements.map((place, seat) => ({ seat, place }))
    : players && players.some((p) => p.place)
      ? players.map((p) => ({ seat: p.seat, place: p.place }))
      : null;
  const label = (seat) => seatLabel(players, seat, history.seats);
  const rctx = { history, replay, seats, players, game: spec, gameName: history.game, name: label };
  const draw = typeof mod.renderReplay === "function" ? mod.renderReplay : generic.renderReplay;
  let part;
  try {
    part = draw(rctx);
  } catch (error) {
    console.error("game module failed to draw the replay", error);
    part = generic.renderReplay(rctx);
  }

  const header = h(
    "div",
    { class: "panel replay-head" },
    h("h1", { class: "page-title" }, t("replay.title")),
    h(
      "p",
      { class: "muted small", testid: "replay-meta" },
      [spec ? matchTitle(spec, options) : history.game, seats ? t("replay.players_n", { n: seats }) : null, ...(part.meta || [])]
        .filter(Boolean)
        .join(" · "),
    ),
    places
      ? h(
          "ul",
          { class: "replay-places", testid: "replay-places" },
          places
            .slice()
            .sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat)
            .map((p) => h("li", { testid: `replay-place-${p.seat}` }, t("prof.place_n", { n: p.place ?? "?" }), " ", label(p.seat))),
        )
      : null,
    h("p", { class: "muted small" }, t("replay.source_note")),
    replay.error ? h("p", { class: "error small", testid: "replay-engine-error" }, t("replay.engine_error", { message: replay.error.message || "" })) : null,
    h("a", { class: "button ghost", href: `/api/matches/${encodeURIComponent(matchId)}/history`, download: "", testid: "replay-download" }, t("replay.download")),
    fairCheck({ seed: seedText, testid: "replay-fair" }),
  );
  page.replaceChildren(header, part.element, analysisPanel(matchId, seats, label, history.game));
  page.dataset.game = history.game || "";
  page.dataset.hands = String(part.hands ?? (Array.isArray(replay.hands) ? replay.hands.length : 0));
  page.dataset.error = replay.error ? String(replay.error.code || "error") : "";
}

// ------------------------------------------------------------------ analysis ("Analisar", docs/bots.md)
// The server runs the hard bot's evaluation of each decision of one seat (`POST /api/matches/{id}/analysis?seat=N`,
// progress by `GET`). Game-neutral: the options are labelled by the server's `describe_action` labels, and the
// figures a game adds (`SearchHooks.measures`) are named by its catalogue (`analysis.measure.<name>`).

const POLL_MS = 400;

function figureName(key, game) {
  const full = `analysis.measure.${key}`;
  return hasKey(full, game) ? tg(game, full) : key;
}

function figures(option, game) {
  const parts = [`${t("analysis.value")} ${Number(option.value ?? 0).toFixed(2)}`];
  for (const [key, value] of Object.entries(option)) {
    if (["action", "label", "visits", "value"].includes(key) || typeof value !== "number") continue;
    parts.push(`${figureName(key, game)} ${value.toFixed(2)}`);
  }
  return parts.join(" · ");
}

function renderAnalysis(analysis, game) {
  const decisions = analysis.decisions || [];
  if (!decisions.length) return h("p", { class: "muted small", testid: "analysis-empty" }, t("analysis.empty"));
  return h(
    "div",
    {},
    h("p", { class: "small", testid: "analysis-summary" }, t("analysis.summary", { n: decisions.length, mistakes: analysis.mistakes || 0 })),
    h(
      "ol",
      { class: "analysis-decisions", testid: "analysis-decisions" },
      decisions.map((d, i) =>
        h(
          "li",
          { class: d.mistake ? "analysis-mistake" : "", testid: `analysis-decision-${i}`, dataset: { index: String(d.index), mistake: d.mistake ? "1" : "0" } },
          d.mistake ? h("b", { class: "error", testid: "analysis-mark" }, t("analysis.mistake"), " ") : null,
          h("span", { testid: "analysis-chosen" }, t("analysis.chosen", { move: moveText(d.chosen_label, game) })),
          " · ",
          h("span", { testid: "analysis-preferred" }, t("analysis.preferred", { move: moveText(d.preferred_label, game) })),
          h(
            "ul",
            { class: "small muted" },
            (d.options || []).map((o) => h("li", {}, h("b", {}, moveText(o.label, game)), " ", figures(o, game))),
          ),
        ),
      ),
    ),
  );
}

function analysisPanel(matchId, seats, name, game) {
  const select = h("select", { testid: "analysis-seat", "aria-label": t("analysis.seat") }, Array.from({ length: seats }, (_, s) => h("option", { value: String(s) }, name(s))));
  const bar = h("progress", { testid: "analysis-progress", max: "1", value: "0", hidden: true });
  const out = h("div", { testid: "analysis-result", "aria-live": "polite" });
  const button = h("button", { class: "button", type: "button", testid: "analysis-start" }, t("analysis.start"));
  async function run() {
    button.disabled = true;
    bar.hidden = false;
    bar.value = 0;
    out.replaceChildren(h("p", { class: "muted small" }, t("analysis.running")));
    const path = `/matches/${encodeURIComponent(matchId)}/analysis?seat=${encodeURIComponent(select.value)}`;
    try {
      let status = await api("POST", path);
      while (status.status === "running") {
        bar.max = Math.max(1, status.total || 1);
        bar.value = status.done || 0;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        status = await api("GET", path);
      }
      if (status.status !== "done") throw new Error(status.error || "failed");
      bar.max = 1;
      bar.value = 1;
      out.replaceChildren(renderAnalysis(status.analysis || {}, game));
    } catch (error) {
      console.warn("analysis failed", error);
      out.replaceChildren(h("p", { class: "error small", testid: "analysis-error" }, t("analysis.failed")));
    } finally {
      button.disabled = false;
    }
  }
  button.addEventListener("click", run);
  return h(
    "section",
    { class: "panel replay-analysis", testid: "replay-analysis" },
    h("h2", {}, t("analysis.title")),
    h("p", { class: "muted small" }, t("analysis.no_hindsight")),
    h("label", {}, t("analysis.seat"), " ", select),
    " ",
    button,
    " ",
    bar,
    out,
  );
}
