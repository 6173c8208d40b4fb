// Entry point: translations, session, and a small router over the client routes
// (/, /room/{id}, /invite/{token}, /rules/{variant}, a game's own pages at /games/{game}/{page}).
import { api, currentPlayer, loadSession } from "./api.js";
import { clear } from "./dom.js";
import { initI18n, t, toggleLang, translateTree } from "./i18n.js";
import { loadGames } from "./games.js";
import { renderHome } from "./home.js";
import { renderInvite, renderRoom } from "./room.js";
import { renderRules } from "./rules.js";
import { renderAccount } from "./account.js";
import { renderLeaderboard } from "./leaderboard.js";
import { renderMod } from "./mod.js";
import { renderProfile } from "./profile.js";
import { renderReplay } from "./replay.js";
import { renderNotFound } from "./notfound.js";
import { renderGamePage } from "./gamepage.js";

let cleanup = null;

export function navigate(path, replace = false) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  route();
}

export function refreshHeader() {
  const me = currentPlayer();
  document.querySelector("[data-testid=me-name]").textContent = me ? t("nav.playing_as", { name: me.name }) : "";
  translateTree(document.querySelector(".topbar"));
  translateTree(document.getElementById("confirm"));
  document.title = t("app.title");
}

/** The moderators' page is in the menu of moderators alone: the server says who is one (and checks it again on the
 * page itself). Guests are never moderators, and a session-less page asks nothing. */
async function showModeration() {
  const link = document.querySelector("[data-testid=nav-mod]");
  link.hidden = true;
  if (!currentPlayer()) return;
  try {
    const answer = await api("GET", "/mod/me");
    link.hidden = !(answer && answer.moderator);
  } catch {
    // Not a moderator (403), or the server is away: no link.
  }
}

async function route() {
  if (cleanup) {
    const done = cleanup;
    cleanup = null;
    done();
  }
  const app = clear(document.getElementById("app"));
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let m;
  const ctx = { app, navigate, refreshHeader, onLeave: (fn) => (cleanup = fn) };
  if ((m = /^\/room\/([^/]+)$/.exec(path))) await renderRoom(ctx, decodeURIComponent(m[1]));
  else if ((m = /^\/invite\/([^/]+)$/.exec(path))) await renderInvite(ctx, decodeURIComponent(m[1]));
  else if ((m = /^\/rules(?:\/([^/]+))?$/.exec(path))) await renderRules(ctx, m[1] ? decodeURIComponent(m[1]) : null);
  else if (path === "/account") await renderAccount(ctx);
  else if (path === "/leaderboard") await renderLeaderboard(ctx);
  else if (path === "/mod") await renderMod(ctx);
  else if (path === "/profile") await renderProfile(ctx, null);
  else if ((m = /^\/players\/([^/]+)$/.exec(path))) await renderProfile(ctx, decodeURIComponent(m[1]));
  else if ((m = /^\/replay\/([^/]+)$/.exec(path))) await renderReplay(ctx, decodeURIComponent(m[1]));
  else if ((m = /^\/games\/([^/]+)\/([^/]+)$/.exec(path))) await renderGamePage(ctx, decodeURIComponent(m[1]), decodeURIComponent(m[2]));
  else if (path === "/") await renderHome(ctx);
  else renderNotFound(ctx);
  refreshHeader();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || link.target) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});

window.addEventListener("popstate", route);

async function start() {
  await initI18n();
  try {
    await loadSession();
  } catch {
    // The server may be restarting: pages retry their own calls.
  }
  try {
    // Every game's catalogue is merged into the page's before the first page is drawn.
    const games = await loadGames();
    const first = games.find((g) => g.rules && g.rules.length);
    if (first) document.querySelector("[data-testid=nav-rules]").setAttribute("href", `/rules/${encodeURIComponent(first.rules[0])}`);
  } catch {
    // Pages that need the games ask again.
  }
  document.querySelector("[data-testid=lang-toggle]").addEventListener("click", async () => {
    await toggleLang();
    refreshHeader();
    route();
  });
  refreshHeader();
  showModeration();
  const first = route();
  document.body.dataset.ready = "1";
  await first;
}

start();
