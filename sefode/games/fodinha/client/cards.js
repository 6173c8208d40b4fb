// The truco deck's order, as the Fodinha family ranks it (docs/rulings.md): the common cards weak to strong by rank
// (4 5 6 7 Q J K A 2 3), then the manilhas of the hand weak to strong. The shell draws the cards (/static/js/cards.js).
import { parseCard, SUITS } from "/static/js/cards.js";

/** Truco ranks, weak to strong for the common cards. */
export const TRUCO_RANKS = "4567QJKA23";

/** Sort key for the truco deck: commons weak to strong by rank, then the manilhas weak to strong (their list is strong to weak). */
export function strengthKey(name, manilhas) {
  const m = manilhas ? manilhas.indexOf(name) : -1;
  if (m >= 0) return 100 + (manilhas.length - m);
  const { rank, suit } = parseCard(name);
  return TRUCO_RANKS.indexOf(rank) * 4 + SUITS.indexOf(suit);
}

/** A truco hand, weak to strong (manilhas last). */
export function sortHand(cards, manilhas) {
  return [...cards].sort((a, b) => strengthKey(a, manilhas) - strengthKey(b, manilhas));
}
