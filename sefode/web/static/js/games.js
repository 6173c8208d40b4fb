// The games the server offers (`GET /api/games`: each game's spec, its client module's URL, its catalogues and its
// rules pages), their catalogues merged into the page's, and their browser modules loaded on demand. The shell knows
// no game by name: everything it says about one comes from here.
import { api } from "./api.js";
import { addGameCatalogue, hasKey, tg } from "./i18n.js";
import * as generic from "./generic.js";

let cache = null;
const modules = new Map();

/** Every game (cached for the page's life; a failed call is tried again next time). */
export function loadGames() {
  if (!cache) {
    cache = api("GET", "/games")
      .then(async (data) => {
        const list = (data && data.games) || [];
        await Promise.all(list.map((g) => addGameCatalogue(g.name, g.i18n)));
        return list;
      })
      .catch((error) => {
        cache = null;
        throw error;
      });
  }
  return cache;
}

/** One game's entry from `/api/games`, or null when the server does not offer it. */
export async function gameSpec(name) {
  const list = await loadGames();
  return list.find((g) => g.name === name) || null;
}

/**
 * A game's browser module: the module at the URL the server gives, or the generic renderer (`generic.js`) when the
 * game has none or it fails to load. Modules are loaded once per page.
 */
export function gameModule(spec) {
  if (!spec || !spec.client) return Promise.resolve(generic);
  if (!modules.has(spec.name)) {
    modules.set(
      spec.name,
      import(spec.client)
        .then(async (mod) => {
          await addStylesheets(spec, mod.stylesheets); // the first table is drawn styled, and measured so
          return mod;
        })
        .catch((error) => {
          console.error("game module failed to load; using the generic renderer", spec.name, error);
          return generic;
        }),
    );
  }
  return modules.get(spec.name);
}

/** A module's own stylesheets (`export const stylesheets = ["./table.css"]`, relative to the module), linked once;
 * settles when each has loaded (or failed: the table is still drawn, plainer). */
function addStylesheets(spec, sheets) {
  if (!Array.isArray(sheets)) return Promise.resolve();
  const base = new URL(spec.client, location.origin);
  const loading = [];
  for (const sheet of sheets) {
    const href = new URL(sheet, base).pathname;
    if (document.querySelector(`link[data-game-css="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.dataset.gameCss = href;
    loading.push(new Promise((done) => {
      link.addEventListener("load", done, { once: true });
      link.addEventListener("error", done, { once: true });
    }));
    document.head.appendChild(link);
  }
  return Promise.all(loading);
}

/** The game's display name. */
export function gameTitle(spec) {
  if (!spec) return "";
  return hasKey(spec.title, spec.name) ? tg(spec.name, spec.title) : spec.name;
}

/** The variant chosen by these options ({id, title, rules}), or null for a game without variants. */
export function variantOf(spec, options) {
  const variants = (spec && spec.variants) || [];
  if (!variants.length) return null;
  const chosen = options && options.variant;
  return variants.find((v) => v.id === chosen) || variants[0];
}

/**
 * The display name of a game and variant: "7 Letras", or the game's title when it has no variants. A switch that
 * renames the variant when on has its own key, `<variant title>.with.<option>` ("Se Fode Junto": Se Fode in pairs).
 */
export function matchTitle(spec, options) {
  const variant = variantOf(spec, options);
  if (!variant) return gameTitle(spec);
  for (const [key, value] of Object.entries(options || {})) {
    const named = `${variant.title}.with.${key}`;
    if (value === true && hasKey(named, spec.name)) return tg(spec.name, named);
  }
  return tg(spec.name, variant.title);
}

/** The rules page for these options (the variant's, else the game's first). */
export function rulesPage(spec, options) {
  const variant = variantOf(spec, options);
  if (variant) return variant.rules;
  return (spec && spec.rules && spec.rules[0]) || (spec && spec.name) || "";
}

/** Whether an option applies given the values of the others (its `when`). */
export function applies(option, values) {
  if (!option.when) return true;
  return Object.entries(option.when).every(([key, allowed]) => allowed.includes(values[key]));
}

/** An option's value as text: the choice's label, "yes" options by their label, numbers as they are. */
export function optionValueText(spec, option, value) {
  if (value === null || value === undefined) return null;
  if (option.kind === "choice") {
    const i = option.choices.findIndex((c) => c === value);
    const label = i >= 0 ? option.choice_labels && option.choice_labels[i] : null;
    return label ? tg(spec.name, label) : `${tg(spec.name, option.label)}: ${value}`;
  }
  if (option.kind === "bool") return value ? tg(spec.name, option.label) : null;
  return `${tg(spec.name, option.label)}: ${value}`;
}

/**
 * The one-line summary of a room's options (the lobby, the room's seating panel): the game (when asked), the variant,
 * then the options listed in the spec's `summary` that apply, except the seats option (shown as seats taken).
 */
export function optionSummary(spec, options, withGame = false) {
  if (!spec) return [];
  const values = options || {};
  const parts = [];
  const variant = variantOf(spec, values);
  if (withGame || !variant) parts.push(gameTitle(spec));
  if (variant) parts.push(tg(spec.name, variant.title));
  for (const key of spec.summary || []) {
    if (key === "variant" || key === spec.seats_option) continue;
    const option = (spec.options || []).find((o) => o.key === key);
    if (!option || !applies(option, values)) continue;
    const text = optionValueText(spec, option, values[key]);
    if (text) parts.push(text);
  }
  return parts;
}
