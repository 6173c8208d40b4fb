// Profile page: a player's medals, trophies, rating in each game and finished matches (newest first, paginated);
// each match opens the replay viewer. /profile is the signed-in player's own, /players/{id} anyone's.
import { ApiError, api, getToken } from "./api.js";
import { h } from "./dom.js";
import { currentLang, t, tn } from "./i18n.js";
import { accountErrorText, awardIcon, medalBadges } from "./account.js";
import { gameTitle } from "./leaderboard.js";
import { rememberMatch } from "./replay.js";
import { botMark } from "./seats.js";

const PER_PAGE = 10;

export function displayName(entry) {
  if (!entry) return "?";
  if (entry.anonymous) return t("acct.anonymous");
  return entry.name || t("acct.anonymous");
}

export function formatTime(ms) {
  if (!ms) return "";
  return new Date(ms).toLocaleString(currentLang(), { dateStyle: "short", timeStyle: "short" });
}

function medalIcon(medal) {
  return medal === "gold" || medal === "silver" || medal === "bronze" ? awardIcon(medal) : null;
}

function ratingsPanel(ratings) {
  if (!ratings || !ratings.length) return null;
  return h(
    "div",
    { class: "panel" },
    h("h2", {}, t("prof.ratings_title")),
    h(
      "ul",
      { class: "prof-ratings", testid: "profile-ratings" },
      ratings.map((r) =>
        h(
          "li",
          { testid: `profile-rating-${r.game}` },
          h("a", { href: `/leaderboard?board=ratings&game=${encodeURIComponent(r.game)}`, "data-link": true }, gameTitle(r)),
          " ",
          t("prof.rating_line", { rating: Number(r.rating).toFixed(1), n: r.matches }),
        ),
      ),
    ),
  );
}

/** Per game: matches, wins, places, and the record against each bot level met (sefode/accounts/progress.py). */
function progressPanel(progress) {
  if (!progress || !progress.length) return null;
  return h(
    "div",
    { class: "panel", testid: "profile-progress" },
    h("h2", {}, t("prof.progress_title")),
    progress.map((g) =>
      h(
        "section",
        { class: "prof-game", testid: `progress-${g.game}` },
        h("h3", {}, gameTitle(g)),
        h(
          "p",
          { testid: `progress-line-${g.game}` },
          t("prof.progress_line", { matches: tn("prof.matches_n", g.matches), wins: tn("prof.group_wins", g.wins) }),
        ),
        h(
          "p",
          { class: "muted small" },
          Object.entries(g.places || {})
            .map(([place, n]) => t("prof.places_n", { place, n }))
            .join(" · "),
        ),
        (g.bots || []).length
          ? h(
              "ul",
              { class: "prof-bots" },
              g.bots.map((b) =>
                h(
                  "li",
                  { testid: `progress-bots-${g.game}-${b.level}` },
                  t("prof.against_bots", { level: t(`level.${b.level}`), ahead: b.ahead, behind: b.behind, level_with: b.level_with }),
                ),
              ),
            )
          : null,
      ),
    ),
  );
}

/** A group's running score: who won how many of the matches these people played together. */
export function groupScore(group, testid) {
  const people = group.players.map((p) => displayName(p));
  return h(
    "div",
    { class: "prof-group", testid },
    h("p", {}, h("b", {}, t("prof.group_title", { names: listNames(people) })), " ", h("span", { class: "muted small" }, `${gameTitle(group)} · ${tn("prof.group_matches", group.matches)}`)),
    h(
      "ol",
      { class: "prof-group-score" },
      group.players.map((p) => h("li", {}, `${displayName(p)}: ${tn("prof.group_wins", p.wins)}`)),
    ),
  );
}

function listNames(names) {
  if (names.length < 2) return names.join("");
  try {
    return new Intl.ListFormat(currentLang(), { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

function groupsPanel(groups) {
  if (!groups || !groups.length) return null;
  return h(
    "div",
    { class: "panel", testid: "profile-groups" },
    h("h2", {}, t("prof.groups_title")),
    groups.map((g, i) => groupScore(g, `profile-group-${i}`)),
  );
}

export async function renderProfile(ctx, playerId) {
  const page = h("section", { class: "page prof-page", testid: "profile-page" }, h("p", { class: "muted" }, t("common.loading")));
  ctx.app.append(page);
  let matchesPage = 1;

  async function load() {
    if (!playerId && !getToken()) {
      page.replaceChildren(
        h(
          "div",
          { class: "panel", testid: "profile-no-session" },
          h("p", {}, t("prof.no_session")),
          h("a", { href: "/account", "data-link": true, class: "button primary" }, t("prof.go_account")),
        ),
      );
      return;
    }
    const query = `?page=${matchesPage}&per_page=${PER_PAGE}`;
    let data;
    try {
      data = await api("GET", playerId ? `/players/${encodeURIComponent(playerId)}${query}` : `/account/profile${query}`);
    } catch (error) {
      const text = error instanceof ApiError && error.code === "player/not_found" ? t("prof.not_found") : accountErrorText(error);
      page.replaceChildren(h("p", { class: "error panel", testid: "profile-error" }, text));
      return;
    }
    draw(data);
  }

  function draw(data) {
    const head = h(
      "div",
      { class: "panel prof-head" },
      h(
        "h1",
        { class: "prof-name", testid: "profile-name" },
        displayName(data),
        data.bot ? [" ", botMark("profile-bot")] : null,
        data.registered ? h("span", { class: "chip acct-chip", testid: "profile-registered" }, t("prof.registered")) : null,
      ),
      data.bot ? h("p", { class: "muted", testid: "profile-bot-note" }, t("prof.bot_note")) : null,
      medalBadges(data.medals, (data.trophies || []).length, "profile-medals"),
    );
    const trophies = h(
      "div",
      { class: "panel" },
      h("h2", {}, t("prof.trophies_title")),
      (data.trophies || []).length
        ? h(
            "ul",
            { class: "trophy-list", testid: "profile-trophies" },
            data.trophies.map((tr) =>
              h(
                "li",
                { testid: `trophy-${tr.tournament_id}` },
                awardIcon("trophy"),
                " ",
                t("prof.trophy_line", { n: tr.matches, date: formatTime(tr.awarded_at) }),
              ),
            ),
          )
        : h("p", { class: "muted", testid: "profile-no-trophies" }, t("prof.no_trophies")),
    );
    page.replaceChildren(
      ...[head, progressPanel(data.progress), groupsPanel(data.groups), ratingsPanel(data.ratings), trophies, matchesPanel(data.matches, data.player_id)].filter(Boolean),
    );
  }

  function matchesPanel(matches, ownerId) {
    const rows = (matches && matches.rows) || [];
    const items = rows.map((row) => {
      rememberMatch(row);
      const others = (row.players || [])
        .slice()
        .sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat)
        .map((p) =>
          h(
            "span",
            { class: `prof-player${p.player_id === ownerId ? " self" : ""}` },
            p.place ? `${p.place}º ` : "",
            p.bot ? t("prof.bot") : displayName(p),
          ),
        );
      return h(
        "li",
        { class: "prof-match", testid: `match-${row.match_id}` },
        h(
          "div",
          { class: "row between" },
          h(
            "span",
            { class: "prof-place" },
            medalIcon(row.medal),
            row.place ? h("b", { testid: `match-place-${row.match_id}` }, t("prof.place_n", { n: row.place })) : h("b", {}, t("prof.no_place")),
            " ",
            h("span", { class: "muted small" }, formatTime(row.ended_at)),
          ),
          h("a", { href: `/replay/${encodeURIComponent(row.match_id)}`, "data-link": true, class: "button", testid: `replay-${row.match_id}` }, t("prof.replay")),
        ),
        h(
          "div",
          { class: "muted small" },
          [
            row.game ? gameTitle(row) : null,
            row.no_winner ? t("prof.no_winner") : null,
            row.valid ? t("prof.valid") : null,
            row.tournament_id ? t("prof.tournament_match", { n: row.tournament_match || "?" }) : null,
          ]
            .filter(Boolean)
            .join(" · "),
        ),
        h("div", { class: "prof-players" }, others),
      );
    });
    const pages = (matches && matches.pages) || 1;
    const current = (matches && matches.page) || 1;
    return h(
      "div",
      { class: "panel" },
      h("h2", {}, t("prof.matches_title")),
      items.length ? h("ul", { class: "prof-matches", testid: "profile-matches" }, items) : h("p", { class: "muted", testid: "profile-no-matches" }, t("prof.no_matches")),
      pages > 1
        ? h(
            "div",
            { class: "row between pager" },
            h("button", { type: "button", testid: "prof-prev", disabled: current <= 1, onclick: () => ((matchesPage = current - 1), load()) }, t("lb.prev")),
            h("span", { class: "muted" }, t("lb.page_of", { page: current, pages })),
            h("button", { type: "button", testid: "prof-next", disabled: current >= pages, onclick: () => ((matchesPage = current + 1), load()) }, t("lb.next")),
          )
        : null,
    );
  }

  await load();
}
