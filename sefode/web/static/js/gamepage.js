// A game's own page inside the shell, at `/games/<game>/<page>` (Guimenon's deck builder: `/games/guimenon/decks`).
// The game's module lists its pages (`export const pages = {decks: {title, render(ctx)}}`, docs/client-modules.md);
// the shell gives each the page's header, language switch and way home, and the game's catalogue first.
import { h } from "./dom.js";
import { setActiveGame } from "./i18n.js";
import { gameModule, gameSpec } from "./games.js";
import { notFoundPage } from "./notfound.js";

export async function renderGamePage(ctx, name, id) {
  let spec = null;
  try {
    spec = await gameSpec(name);
  } catch {
    spec = null;
  }
  const mod = spec ? await gameModule(spec) : null;
  const pages = mod && mod.pages && typeof mod.pages === "object" ? mod.pages : {};
  const page = Object.prototype.hasOwnProperty.call(pages, id) ? pages[id] : null;
  if (!page || typeof page.render !== "function") {
    ctx.app.replaceChildren(notFoundPage());
    return;
  }
  setActiveGame(name);
  ctx.onLeave(() => setActiveGame(null));
  const root = h("section", { class: "page game-page", testid: `game-page-${id}`, "data-game": name });
  ctx.app.replaceChildren(root);
  try {
    await page.render({ ...ctx, root, game: spec });
  } catch (error) {
    console.error("the game's page failed to draw", name, id, error);
    ctx.app.replaceChildren(notFoundPage());
  }
}
