// Truco cards drawn with plain DOM and CSS: rank, suit symbol and colour, manilha mark, face-down backs.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const RANKS = "4567QJKA23";
export const SUITS = "chsd";
export const SUIT_SYMBOL = { c: "♣", h: "♥", s: "♠", d: "♦" };

export function parseCard(name) {
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

/** Short printed form for text: rank and suit symbol, e.g. "K♠". */
export function cardShort(name) {
  const { rank, suit } = parseCard(name);
  return `${rank}${SUIT_SYMBOL[suit] || suit}`;
}

export function cardLabel(name) {
  const { rank, suit } = parseCard(name);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** Sort key: commons weak to strong by rank, then the manilhas weak to strong (their list is strong to weak). */
export function strengthKey(name, manilhas) {
  const m = manilhas ? manilhas.indexOf(name) : -1;
  if (m >= 0) return 100 + (manilhas.length - m);
  const { rank, suit } = parseCard(name);
  return RANKS.indexOf(rank) * 4 + SUITS.indexOf(suit);
}

export function sortHand(cards, manilhas) {
  return [...cards].sort((a, b) => strengthKey(a, manilhas) - strengthKey(b, manilhas));
}

/**
 * A face-up card. opts: manilhas (list), size ("sm"|"md"|"lg"), testid, onclick, playable, disabled.
 */
export function cardEl(name, opts = {}) {
  const { rank, suit } = parseCard(name);
  const symbol = SUIT_SYMBOL[suit] || "?";
  const isManilha = Boolean(opts.manilhas && opts.manilhas.includes(name));
  const classes = ["card", `suit-${suit}`, opts.size || "md"];
  if (isManilha) classes.push("manilha");
  if (opts.playable) classes.push("playable");
  if (opts.extraClass) classes.push(opts.extraClass);
  const label = cardLabel(name) + (isManilha ? ` (${t("card.manilha")})` : "");
  const tag = opts.onclick ? "button" : "div";
  return h(
    tag,
    {
      class: classes.join(" "),
      type: opts.onclick ? "button" : null,
      "data-card": name,
      testid: opts.testid || null,
      "aria-label": label,
      title: label,
      onclick: opts.onclick || null,
      disabled: opts.disabled || false,
      role: opts.onclick ? null : "img",
    },
    h("span", { class: "corner tl", "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, symbol)),
    h("span", { class: "pip", "aria-hidden": "true" }, symbol),
    h("span", { class: "corner br", "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, symbol)),
    isManilha ? h("span", { class: "manilha-mark", "aria-hidden": "true" }, "★") : null,
  );
}

/** A face-down card; label says what it is (for your own forehead card: "your card, hidden from you"). */
export function backEl(opts = {}) {
  const label = opts.label || t("card.back");
  return h(
    "div",
    {
      class: `card back ${opts.size || "md"}${opts.extraClass ? ` ${opts.extraClass}` : ""}`,
      role: "img",
      "aria-label": label,
      title: label,
      testid: opts.testid || null,
    },
    opts.mark ? h("span", { class: "back-mark", "aria-hidden": "true" }, opts.mark) : null,
  );
}
