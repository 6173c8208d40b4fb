// Small pieces the home page's forms share (home-solo.js, home-create.js): a labelled field, a select, a game picker,
// the game module's rules between option fields, and the words of a refusal of options.
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { gameTitle } from "./games.js";

export function field(labelKey, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "label" }, t(labelKey)), control, hint ? h("small", { class: "muted" }, hint) : null);
}

export function select(testid, options, value) {
  return h(
    "select",
    { testid },
    options.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label)),
  );
}

export function range(from, to) {
  const out = [];
  for (let i = from; i <= to; i += 1) out.push(i);
  return out;
}

/** A refusal of options says why (the engine's reason) after the catalogue's words. */
export function optionsErrorText(error) {
  const text = errorText(error);
  if (error && error.code === "options/invalid" && error.message && error.message !== text) return `${text} ${error.message}`;
  return text;
}

/** The game module's own rules between option fields (e.g. pairs only for an even table), when it has some. */
export function adjusterFor(modules, spec) {
  return (form) => {
    const mod = modules.get(spec.name);
    if (mod && typeof mod.adjustOptionForm === "function") mod.adjustOptionForm(form, spec);
  };
}

export function gamePicker(testid, games, chosen) {
  return select(
    testid,
    games.map((g) => [g.name, gameTitle(g)]),
    chosen,
  );
}

/** The game a form starts on, remembered by the page (`localStorage`). */
export const GAME_KEY = "sefode.game";
