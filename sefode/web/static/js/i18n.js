// Translation catalogues: pt-BR by default, English on request. Every user-facing string goes through t().
const LANGS = ["pt-BR", "en"];
const KEY = "sefode.lang";
let fallback = {};
let catalog = {};
let lang = "pt-BR";

async function load(name) {
  const response = await fetch(`/static/i18n/${name}.json`);
  if (!response.ok) throw new Error(`catalogue ${name}: ${response.status}`);
  return response.json();
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
  document.documentElement.lang = lang;
}

/** The text for key, with {name} placeholders filled from params. */
export function t(key, params = {}) {
  let text = catalog[key] ?? fallback[key];
  if (text === undefined) {
    console.warn("missing i18n key", key);
    text = key;
  }
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

/** Plural helper: key.one / key.other. */
export function tn(key, count, params = {}) {
  return t(count === 1 ? `${key}.one` : `${key}.other`, { count, ...params });
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
  if (code && (catalog[key] !== undefined || fallback[key] !== undefined)) return t(key);
  return (error && error.message) || t("error.unknown");
}
