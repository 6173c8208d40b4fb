// Home page: nickname (guest session), solo in one click, lobby of public rooms, create a room, the rules, friends. The
// games, their options, bot levels and seat ranges come from `/api/games` (games.js); no game is named here. The
// panels are modules of their own: home-solo.js, home-lobby.js, home-create.js (with home-forms.js).
import { currentPlayer, ensureSession, savedName } from "./api.js";
import { h, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { gameModule, gameTitle, loadGames, matchTitle } from "./games.js";
import { friendsPanel } from "./friends.js";
import { GAME_KEY, adjusterFor, field } from "./home-forms.js";
import { soloPanel } from "./home-solo.js";
import { lobbyPanel } from "./home-lobby.js";
import { createPanel } from "./home-create.js";

/** How often the lobby and the friends panel are refreshed. */
const REFRESH_MS = 10000;

/** Every game's rules pages (a game with variants has one per variant). */
function rulesPanel(games) {
  const links = [];
  for (const spec of games) {
    for (const page of spec.rules || []) {
      const variant = (spec.variants || []).find((v) => v.rules === page);
      const title = variant ? matchTitle(spec, { variant: variant.id }) : gameTitle(spec);
      links.push(h("li", {}, h("a", { href: `/rules/${encodeURIComponent(page)}`, "data-link": true, testid: `rules-link-${page}` }, title)));
    }
  }
  return h("article", { class: "panel rules-links" }, h("h2", {}, t("rules.title")), h("ul", {}, links));
}

/** The nickname box and `session()`: the player's guest session, made from the nickname when there is none. */
function nicknameField(ctx) {
  const me = currentPlayer();
  const nick = h("input", {
    testid: "nickname",
    maxlength: "24",
    autocomplete: "nickname",
    value: (me && me.name) || savedName(),
    placeholder: t("home.nickname_placeholder"),
  });
  async function session() {
    const name = nick.value.trim();
    if (!name) {
      nick.focus();
      toast(t("home.nickname_needed"), "error");
      return null;
    }
    try {
      const player = await ensureSession(name);
      ctx.refreshHeader();
      return player;
    } catch (error) {
      toast(errorText(error), "error");
      return null;
    }
  }
  return { element: field("home.nickname", nick), session };
}

export async function renderHome(ctx) {
  const nickname = nicknameField(ctx);
  let games = [];
  try {
    games = await loadGames();
  } catch (error) {
    ctx.app.append(h("section", { class: "page narrow" }, h("p", { class: "error", testid: "games-error" }, errorText(error))));
    return;
  }
  const byName = new Map(games.map((g) => [g.name, g]));
  const stored = localStorage.getItem(GAME_KEY);
  const firstGame = byName.has(stored) ? stored : games.length ? games[0].name : null;
  // The games' modules may add their own rules between option fields; the forms work without them.
  const modules = new Map();
  await Promise.all(games.map((g) => gameModule(g).then((mod) => modules.set(g.name, mod))));
  const adjusters = new Map(games.map((g) => [g.name, adjusterFor(modules, g)]));
  const home = { games, byName, firstGame, adjusters, session: nickname.session, navigate: (path) => ctx.navigate(path) };

  const solo = soloPanel(home);
  const lobby = lobbyPanel(home);
  const create = createPanel(home);
  // Friends (issue 23): the list, requests and invitations of an account; a note for a guest.
  const friends = friendsPanel();
  ctx.app.append(
    h(
      "section",
      { class: "page home" },
      h("div", { class: "hero" }, h("h1", {}, t("home.title")), h("p", { class: "muted" }, t("home.tagline")), nickname.element),
      h("div", { class: "home-grid" }, solo, friends.element, lobby.element, create, rulesPanel(games)),
    ),
  );
  lobby.refresh();
  friends.refresh();
  const timer = setInterval(() => {
    lobby.refresh();
    friends.refresh(); // a friend's invitation shows up here within seconds
  }, REFRESH_MS);
  ctx.onLeave(() => clearInterval(timer));
}
