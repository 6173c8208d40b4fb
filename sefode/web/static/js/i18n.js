// Translation catalogues: pt-BR by default, English on request. Every user-facing string goes through t().
//
// The page's own catalogue is `/static/i18n/<lang>.json`. Each game brings its own (`/games/<name>/i18n/<lang>.json`,
// announced by `/api/games`); addGameCatalogue() merges it into the page's. t() looks a key up in the active game's
// catalogue (setActiveGame: the game of the room on screen), then the page's, then any other game's; tg() asks for
// one game's catalogue first, whichever game is active (the home page names options of every game).
const LANGS = ["pt-BR", "en"];
const KEY = "sefode.lang";
let fallback = {};
let catalog = {};
let lang = "pt-BR";
/** name -> {urls: {lang: url}, fallback, catalog} */
const games = new Map();
let active = null;
const warned = new Set();

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`catalogue ${url}: ${response.status}`);
  return response.json();
}

function load(name) {
  return fetchJson(`/static/i18n/${name}.json`);
}

async function loadGame(entry) {
  const urls = entry.urls || {};
  const get = (which) => (urls[which] ? fetchJson(urls[which]).catch(() => ({})) : Promise.resolve({}));
  entry.fallback = await get("pt-BR");
  entry.catalog = lang === "pt-BR" ? entry.fallback : await get(lang);
}

export async function initI18n() {
  const stored = localStorage.getItem(KEY);
  lang = LANGS.includes(stored) ? stored : "pt-BR";
  fallback = await load("pt-BR");
  catalog = lang === "pt-BR" ? fallback : await load(lang);
  document.documentElement.lang = lang;
}

export function currentLang() {
  return lang;
}

export async function toggleLang() {
  lang = lang === "pt-BR" ? "en" : "pt-BR";
  localStorage.setItem(KEY, lang);
  catalog = lang === "pt-BR" ? fallback : await load(lang);
  await Promise.all([...games.values()].map(loadGame));
  document.documentElement.lang = lang;
}

/** Merge a game's catalogues ({"pt-BR": url, "en": url}) into the page's; loaded once per game. */
export async function addGameCatalogue(name, urls) {
  if (!name || !urls || games.has(name)) return;
  const entry = { urls, fallback: {}, catalog: {} };
  games.set(name, entry);
  await loadGame(entry);
}

/** The game whose catalogue t() reads first (the room on screen), or null. */
export function setActiveGame(name) {
  active = name || null;
}

function lookup(key, game) {
  // A named game: its catalogue, then the page's. Else the active game's, the page's, then any game's.
  const first = game ? games.get(game) : active ? games.get(active) : null;
  if (first && first.catalog[key] !== undefined) return first.catalog[key];
  if (catalog[key] !== undefined) return catalog[key];
  if (first && first.fallback[key] !== undefined) return first.fallback[key];
  if (fallback[key] !== undefined) return fallback[key];
  if (game) return undefined;
  for (const entry of games.values()) {
    if (entry === first) continue;
    if (entry.catalog[key] !== undefined) return entry.catalog[key];
    if (entry.fallback[key] !== undefined) return entry.fallback[key];
  }
  return undefined;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (match, name) => (params && name in params ? String(params[name]) : match));
}

/** Is there a text for key (with a game: in its catalogue or the page's; else also the active game's or any game's)? */
export function hasKey(key, game = null) {
  return typeof key === "string" && lookup(key, game) !== undefined;
}

/** The text for key, with {name} placeholders filled from params. */
export function t(key, params = {}) {
  let text = lookup(key, null);
  if (text === undefined) {
    if (!warned.has(key)) {
      warned.add(key);
      console.warn("missing i18n key", key);
    }
    text = key;
  }
  return fill(String(text), params);
}

/** The text for key as the game `game` says it (its catalogue first, then the page's). */
export function tg(game, key, params = {}) {
  const text = lookup(key, game);
  if (text === undefined) return t(key, params);
  return fill(String(text), params);
}

/** Plural helper: key.one / key.other. */
export function tn(key, count, params = {}) {
  return t(count === 1 ? `${key}.one` : `${key}.other`, { count, ...params });
}

/**
 * A label from the server (`describe_action`): {"key", "params", "text"}. The catalogue's text for key with
 * params when there is one, else the server's own text.
 */
export function labelText(label, game = null) {
  if (!label) return "";
  if (typeof label === "string") return label;
  if (label.key && hasKey(label.key, game)) return tg(game, label.key, label.params || {});
  return label.text || label.key || "";
}

/** Fill [data-i18n], [data-i18n-title], [data-i18n-placeholder] and [data-i18n-aria-label] under root. */
export function translateTree(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  }
}

/** The readable text for a server error: the catalogue's text for its code, else the server's own message. */
export function errorText(error) {
  const code = error && error.code;
  const key = code ? `error.${code}` : "";
  if (code && hasKey(key)) return t(key);
  return (error && error.message) || t("error.unknown");
}
