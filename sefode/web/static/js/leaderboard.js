// Leaderboard: players by gold, then silver, then bronze (trophies beside), or by trophies, or one tab per game
// with that game's rating table (the games come from the server's registry: this page names none); paginated;
// "show me" ("Onde estou") opens the page holding the viewer's row and highlights it. A rating is called a score,
// explained in plain words one tap away (a disclosure under the table), with the method (OpenSkill, μ − 3σ) there.
import { api, getToken } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { accountErrorText, awardIcon } from "./account.js";

const PER_PAGE = 20;

function playerName(row) {
  return row.name || t("acct.anonymous");
}

/** A game's display name: its catalogue title, else its registry name. */
export function gameTitle(entry) {
  if (entry && entry.title) {
    const text = t(entry.title);
    if (text !== entry.title) return text;
  }
  return (entry && entry.game) || "?";
}

function formatRating(value) {
  return Number(value).toFixed(1);
}

export async function renderLeaderboard(ctx) {
  const params = new URLSearchParams(location.search);
  const asked = params.get("board");
  const view = {
    board: asked === "trophies" || asked === "ratings" ? asked : "medals",
    game: params.get("game") || null,
    page: Math.max(1, Number(params.get("page")) || 1),
    me: params.get("me") === "1",
  };
  let games = [];
  try {
    games = (await api("GET", "/ratings")).games || [];
  } catch (error) {
    games = []; // the medal tabs still work; the rating tabs come back with the server
  }
  if (view.board === "ratings" && !games.some((g) => g.game === view.game)) {
    view.board = "medals";
    view.game = null;
  }
  const body = h("div", { class: "lb-body", testid: "lb-body" });
  const tabs = h("div", { class: "row lb-tab-row" });
  const page = h("section", { class: "page lb-page", testid: "leaderboard-page" }, h("h1", { class: "page-title" }, t("lb.title")), tabs, body);
  ctx.app.append(page);

  function drawTabs() {
    const tab = (board, game, label, testid) => {
      const active = view.board === board && (board !== "ratings" || view.game === game);
      return h(
        "button",
        {
          type: "button",
          role: "tab",
          class: active ? "active" : "",
          "aria-selected": active ? "true" : "false",
          testid,
          onclick: () => {
            view.board = board;
            view.game = game;
            view.page = 1;
            view.me = false;
            load();
          },
        },
        label,
      );
    };
    // The tabs are a tablist of tabs only; "show me" is a plain button beside it.
    tabs.replaceChildren(
      ...[
      h(
        "nav",
        { class: "tabs lb-tabs", role: "tablist" },
        tab("medals", null, t("lb.tab_medals"), "lb-tab-medals"),
        tab("trophies", null, t("lb.tab_trophies"), "lb-tab-trophies"),
        ...games.map((g) => tab("ratings", g.game, gameTitle(g), `lb-tab-game-${g.game}`)),
      ),
      getToken()
        ? h(
            "button",
            {
              type: "button",
              class: "lb-show-me",
              testid: "lb-show-me",
              onclick: () => {
                view.me = true;
                load();
              },
            },
            t("lb.show_me"),
          )
        : null,
      ].filter(Boolean),
    );
  }

  function ratingTable(data) {
    const head = h(
      "tr",
      {},
      h("th", { class: "num" }, t("lb.rank")),
      h("th", {}, t("lb.player")),
      h("th", { class: "num", title: t("lb.rating_hint") }, t("lb.rating")),
      h("th", { class: "num" }, t("lb.matches")),
    );
    const rows = data.rows.map((row) =>
      h(
        "tr",
        { class: row.you ? "you" : "", testid: `lb-row-${row.player_id}`, dataset: { rank: String(row.rank) }, "aria-current": row.you ? "true" : null },
        h("td", { class: "num rank" }, String(row.rank)),
        h(
          "td",
          { class: "who" },
          h("a", { href: `/players/${encodeURIComponent(row.player_id)}`, "data-link": true }, playerName(row)),
          row.you ? h("span", { class: "you-tag" }, t("lb.you")) : null,
        ),
        h("td", { class: "num strong", testid: "lb-rating", title: `μ ${formatRating(row.mu)} · σ ${formatRating(row.sigma)}` }, formatRating(row.rating)),
        h("td", { class: "num", testid: "lb-matches" }, String(row.matches)),
      ),
    );
    return h("div", { class: "table-scroll" }, h("table", { class: "lb-table lb-ratings", testid: "lb-table" }, h("thead", {}, head), h("tbody", {}, rows)));
  }

  function table(data) {
    const trophiesFirst = data.board === "trophies";
    const head = h(
      "tr",
      {},
      h("th", { class: "num" }, t("lb.rank")),
      h("th", {}, t("lb.player")),
      trophiesFirst ? h("th", { class: "num", title: t("acct.trophies") }, awardIcon("trophy")) : null,
      h("th", { class: "num", title: t("acct.gold") }, awardIcon("gold")),
      h("th", { class: "num", title: t("acct.silver") }, awardIcon("silver")),
      h("th", { class: "num", title: t("acct.bronze") }, awardIcon("bronze")),
      trophiesFirst ? null : h("th", { class: "num", title: t("acct.trophies") }, awardIcon("trophy")),
    );
    const rows = data.rows.map((row) =>
      h(
        "tr",
        { class: row.you ? "you" : "", testid: `lb-row-${row.player_id}`, dataset: { rank: String(row.rank) }, "aria-current": row.you ? "true" : null },
        h("td", { class: "num rank" }, String(row.rank)),
        h(
          "td",
          { class: "who" },
          h("a", { href: `/players/${encodeURIComponent(row.player_id)}`, "data-link": true }, playerName(row)),
          row.you ? h("span", { class: "you-tag" }, t("lb.you")) : null,
        ),
        trophiesFirst ? h("td", { class: "num strong" }, String(row.trophies)) : null,
        h("td", { class: "num" }, String(row.gold)),
        h("td", { class: "num" }, String(row.silver)),
        h("td", { class: "num" }, String(row.bronze)),
        trophiesFirst ? null : h("td", { class: "num trophies" }, row.trophies ? [awardIcon("trophy"), ` ${row.trophies}`] : "·"),
      ),
    );
    return h("div", { class: "table-scroll" }, h("table", { class: "lb-table", testid: "lb-table" }, h("thead", {}, head), h("tbody", {}, rows)));
  }

  function pager(data) {
    const go = (p) => () => {
      view.page = p;
      view.me = false;
      load();
    };
    return h(
      "div",
      { class: "row between pager", testid: "lb-pager" },
      h("button", { type: "button", testid: "lb-prev", disabled: data.page <= 1, onclick: go(data.page - 1) }, t("lb.prev")),
      h("span", { class: "muted", testid: "lb-page" }, t("lb.page_of", { page: data.page, pages: Math.max(1, data.pages) })),
      h("button", { type: "button", testid: "lb-next", disabled: data.page >= data.pages, onclick: go(data.page + 1) }, t("lb.next")),
    );
  }

  async function load() {
    drawTabs();
    const ratings = view.board === "ratings";
    const query = new URLSearchParams({ page: String(view.page), per_page: String(PER_PAGE) });
    if (view.me) query.set("me", "1");
    const shown = new URLSearchParams({ board: view.board, ...(ratings ? { game: view.game } : {}), ...Object.fromEntries(query) });
    history.replaceState({}, "", `/leaderboard?${shown.toString()}`);
    body.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
    let data;
    try {
      if (ratings) data = await api("GET", `/ratings/${encodeURIComponent(view.game)}?${query.toString()}`);
      else data = await api("GET", `/leaderboard?${new URLSearchParams({ board: view.board, ...Object.fromEntries(query) }).toString()}`);
    } catch (error) {
      body.replaceChildren(h("p", { class: "error", testid: "lb-error" }, accountErrorText(error)));
      return;
    }
    view.page = data.page;
    const parts = [];
    if (view.me && data.me && data.me.position === null) parts.push(h("p", { class: "muted", testid: "lb-not-ranked" }, t("lb.not_ranked")));
    if (!data.rows.length) parts.push(h("p", { class: "muted", testid: "lb-empty" }, ratings ? t("lb.empty_ratings") : t("lb.empty")));
    else parts.push(ratings ? ratingTable(data) : table(data));
    parts.push(pager(data));
    const order = ratings ? t("lb.order_ratings", { game: gameTitle(data) }) : data.board === "trophies" ? t("lb.order_trophies") : t("lb.order_medals");
    parts.push(h("p", { class: "muted small", testid: "lb-order" }, order));
    if (ratings) {
      // The score in plain words one tap away, and the method behind it (never on the board itself).
      parts.push(
        h(
          "details",
          { class: "lb-explain small", testid: "lb-score-explain" },
          h("summary", {}, t("lb.score_what")),
          h("p", {}, t("lb.score_explain")),
          h("p", { class: "muted" }, t("lb.score_method")),
        ),
      );
    }
    body.replaceChildren(h("div", { class: "panel" }, parts));
    const mine = body.querySelector("tr.you");
    if (mine && view.me) mine.scrollIntoView({ block: "center" });
  }

  await load();
}
