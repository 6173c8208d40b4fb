// Playing cards drawn with plain DOM and CSS, in the notation of docs/rulings.md §0.1: rank then suit letter.
// Any card of the 40-card truco deck (ranks 4 5 6 7 Q J K A 2 3), the 52-card deck (A 2 3 4 5 6 7 8 9 T J Q K) and the
// jokers X1 and X2 (the truco deck's order is Fodinha's own: games/fodinha/client/cards.js). Suits: c clubs, h hearts,
// s spades, d diamonds. Cards carry `data-card` (their name) and an accessible
// name in the page's language; the manilha mark is optional (opts.manilhas).
import { h } from "./dom.js";
import { hasKey, labelText, t, tg } from "./i18n.js";

/** The 52-card deck's ranks, ace high (the default order for sorting it; games may pass their own). */
export const RANKS_52 = "23456789TJQKA";
export const RANKS_52_ACE_LOW = "A23456789TJQK";
export const SUITS = "chsd";
export const SUIT_SYMBOL = { c: "♣", h: "♥", s: "♠", d: "♦" };
export const JOKERS = ["X1", "X2"];

const CARD_RE = /^(?:[2-9TJQKA][chsd]|X[12])$/;

/** Does this value look like a card name in the notation of docs/rulings.md §0.1 ("Ks", "Td", "4c", "X1")? */
export function isCardName(value) {
  return typeof value === "string" && CARD_RE.test(value);
}

export function isJoker(name) {
  return typeof name === "string" && /^X[12]$/.test(name);
}

export function parseCard(name) {
  if (isJoker(name)) return { rank: "X", suit: "", joker: Number(name.slice(1)) };
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

/** How a rank is printed on the card: "10" for T, the letter or digit otherwise. */
export function rankPrint(rank) {
  return rank === "T" ? "10" : rank;
}

/** Short printed form for text: rank and suit symbol, e.g. "K♠", "10♦", "★1" (a joker). */
export function cardShort(name) {
  if (isJoker(name)) return `★${name.slice(1)}`;
  const { rank, suit } = parseCard(name);
  return `${rankPrint(rank)}${SUIT_SYMBOL[suit] || suit}`;
}

const CARD_WORD = /(?<![\w])(?:[2-9TJQKA][chsd]|X[12])(?![\w])/g;

/**
 * A value of a server label's params as players read it: card names as symbols ("3c" → "3♣", "7h 7s" → "7♥ 7♠"), and
 * a value the game's catalogue names under `<game>.<param>.<value>` by that name (Guimenon's `card` "fagulha" →
 * `guimenon.card.fagulha`, "Fagulha").
 */
function paramText(key, value, game) {
  const named = game && typeof value === "string" ? `${game}.${key}.${value}` : null;
  if (named && hasKey(named, game)) return tg(game, named);
  if (isCardName(value)) return cardShort(value);
  if (Array.isArray(value) && value.length && value.every(isCardName)) return value.map(cardShort).join(" ");
  if (typeof value === "string" && value.includes(" ") && value.split(" ").every(isCardName)) return value.split(" ").map(cardShort).join(" ");
  return value;
}

/**
 * A server label (`describe_action`: {"key", "params", "text"}) as a player reads it: labelText() with every card
 * of its params as a symbol ("Jogar 3♣", never "Jogar 3c"); a label the catalogue lacks falls back to the server's
 * text, its card names printed the same way. Use it wherever a move is named in words (tips, analysis, buttons).
 */
export function moveText(label, game = null) {
  if (!label) return "";
  if (typeof label === "string") return label.replace(CARD_WORD, cardShort);
  const params = Object.fromEntries(Object.entries(label.params || {}).map(([k, v]) => [k, paramText(k, v, game)]));
  const text = labelText({ ...label, params }, game);
  return typeof label.text === "string" && text === label.text ? text.replace(CARD_WORD, cardShort) : text;
}

/** The card's accessible name in the page's language ("Rei de espadas", "10 of diamonds", "Joker 1"). */
export function cardLabel(name) {
  if (isJoker(name)) return t("card.joker", { n: name.slice(1) });
  const { rank, suit } = parseCard(name);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/**
 * Sort cards of any deck: by suit (opts.suits, default c h s d) then by rank (opts.ranks, default the 52-card deck
 * ace high; pass RANKS_52_ACE_LOW or TRUCO_RANKS), or by rank first with opts.byRank. Jokers go last.
 */
export function sortCards(cards, opts = {}) {
  const ranks = opts.ranks || RANKS_52;
  const suits = opts.suits || SUITS;
  const key = (name) => {
    if (isJoker(name)) return [1, 0, Number(name.slice(1))];
    const { rank, suit } = parseCard(name);
    const r = ranks.indexOf(rank);
    const s = suits.indexOf(suit);
    return opts.byRank ? [0, r, s] : [0, s, r];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  });
}

/**
 * A face-up card. opts: manilhas (list), size ("xs"|"sm"|"md"|"lg"), testid, onclick, playable, disabled,
 * selected, extraClass, label (extra words for the accessible name).
 */
/** A glyph of a card's face: its text, or (drawn) the same text painted from `data-glyph` by the stylesheet. */
function glyph(tag, text, drawn, attrs = {}) {
  return drawn ? h(tag, { ...attrs, "data-glyph": text }) : h(tag, attrs, text);
}

export function cardEl(name, opts = {}) {
  const joker = isJoker(name);
  const { rank, suit } = parseCard(name);
  const symbol = SUIT_SYMBOL[suit] || "?";
  const printed = joker ? "★" : rankPrint(rank);
  const isManilha = Boolean(opts.manilhas && opts.manilhas.includes(name));
  const classes = ["card", joker ? `joker joker-${name.slice(1)}` : `suit-${suit}`, opts.size || "md"];
  if (printed.length > 1) classes.push("wide-rank");
  if (isManilha) classes.push("manilha");
  if (opts.playable) classes.push("playable");
  if (opts.selected) classes.push("selected");
  if (opts.extraClass) classes.push(opts.extraClass);
  let label = cardLabel(name) + (isManilha ? ` (${t("card.manilha")})` : "");
  if (opts.label) label += ` (${opts.label})`;
  const tag = opts.onclick ? "button" : "div";
  // A card you can press is named by its words ("Ás de espadas"); its printed corners are drawn by the stylesheet, not
  // written as text, so that the name a voice-control user says matches what the button says (WCAG 2.5.3).
  const drawn = tag === "button";
  return h(
    tag,
    {
      class: classes.join(" "),
      type: opts.onclick ? "button" : null,
      "data-card": name,
      testid: opts.testid || null,
      "aria-label": label,
      "aria-pressed": opts.onclick && opts.selected !== undefined ? String(Boolean(opts.selected)) : null,
      title: label,
      onclick: opts.onclick || null,
      disabled: opts.disabled || false,
      role: opts.onclick ? null : "img",
    },
    h("span", { class: "corner tl", "aria-hidden": "true" }, glyph("b", printed, drawn), glyph("i", joker ? name.slice(1) : symbol, drawn)),
    joker
      ? glyph("span", t("card.joker_word"), drawn, { class: "pip joker-word", "aria-hidden": "true" })
      : glyph("span", symbol, drawn, { class: "pip", "aria-hidden": "true" }),
    h("span", { class: "corner br", "aria-hidden": "true" }, glyph("b", printed, drawn), glyph("i", joker ? name.slice(1) : symbol, drawn)),
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

/** A row of cards (a hand, a pile) drawn small; used by the generic renderer for any list of card names. */
export function cardRow(cards, opts = {}) {
  return h("span", { class: `card-row${opts.extraClass ? ` ${opts.extraClass}` : ""}` }, cards.map((c) => cardEl(c, { size: opts.size || "sm" })));
}
