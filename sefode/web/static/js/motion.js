// Motion that helps (issue 22): a card played travels from your hand (or from the seat that played it) to the
// table, a finished trick travels to its winner, and a deal comes from the middle of the table into your hand.
//
// The shell calls snapshot() on the table before a redraw and play() after it, with the events of the states drawn.
// What the table module marks is all it needs (docs/client-modules.md, "Motion"):
//   [data-focus-group=hand]  your hand              [data-motion=table]  where cards are played to (trick, piles, board)
//   [data-seat=N]            seat N's box          [data-motion=deck]   where drawn cards come from (else the middle)
//   [data-card]              a card (its name)    [data-motion=still] on a card: drawn but hidden for now, not moved
//
// Every move is short (at most MAX_MS), none is made under prefers-reduced-motion, and none is in the way: the cards
// the table draws never move (they only fade in); a copy that takes no pointer events (a "ghost") does the
// travelling and removes itself. So a tap lands where the card is drawn, a redraw in the middle of a move only
// redraws, and nothing waits for a move to end.

const TRAVEL_MS = 220;
const DEAL_MS = 200;
const DEAL_STAGGER_MS = 12;
export const MAX_MS = 300;
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const where = (el) => (el.closest("[data-focus-group=hand]") ? "hand" : el.closest("[data-motion=table]") ? "table" : null);

/** What the table shows before a redraw: each card in your hand and on the table, with its box. */
export function snapshot(root) {
  if (!root || reducedMotion() || typeof Element.prototype.animate !== "function") return null;
  const cards = [];
  for (const el of root.querySelectorAll("[data-card]")) {
    const place = where(el);
    if (place) cards.push({ name: el.dataset.card, place, rect: el.getBoundingClientRect(), node: el });
  }
  return { cards };
}

function centreOf(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function visible(rect) {
  return rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < innerHeight && rect.right > 0 && rect.left < innerWidth;
}

/** A copy of a card that moves over the page: no test ids, hidden from assistive technology, no pointer events. */
function ghostOf(node, rect) {
  const ghost = node.cloneNode(true);
  for (const el of [ghost, ...ghost.querySelectorAll("*")]) {
    el.removeAttribute("data-testid");
    el.removeAttribute("id");
    el.removeAttribute("style");
    el.removeAttribute("tabindex");
  }
  // Classes that place or animate a card where the table drew it would pull the copy off its path.
  ghost.classList.remove("fresh", "playable", "selected", "in-trick");
  ghost.classList.add("motion-ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true; // a copy of a button must not take the focus either
  if (ghost.matches("button")) ghost.disabled = true;
  ghost.style.setProperty("left", `${rect.left}px`);
  ghost.style.setProperty("top", `${rect.top}px`);
  ghost.style.setProperty("width", `${rect.width}px`);
  ghost.style.setProperty("height", `${rect.height}px`);
  document.body.appendChild(ghost);
  return ghost;
}

function removeWhenDone(animation, ghost) {
  const remove = () => ghost.remove();
  animation.finished.then(remove, remove);
  setTimeout(remove, MAX_MS + 1000); // a page in the background may hold animations: the ghost goes anyway
}

/** ``node`` (drawn at ``to``) seen arriving from ``from``: a ghost travels, the card itself fades in as it lands. */
function travel(node, from, to, duration, delay = 0) {
  if (!visible(to) && !visible(from)) return;
  const a = centreOf(from);
  const b = centreOf(to);
  const scale = from.width > 0 && to.width > 0 ? from.width / to.width : 1;
  const ghost = ghostOf(node, to);
  const move = ghost.animate(
    [
      { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})` },
      { transform: "translate(0, 0) scale(1)" },
    ],
    { duration, delay, easing: EASE, fill: "both" },
  );
  removeWhenDone(move, ghost);
  // One motion per card: a pop-in the table gave the card where it lands (Fodinha's ``.fresh``) would play under the
  // travelling copy. The class goes before the page computes its style, so that animation never starts.
  node.classList.remove("fresh");
  node.animate([{ opacity: 0 }, { opacity: 0, offset: 0.9 }, { opacity: 1 }], { duration: duration + delay });
}

/**
 * Cards the table drew hidden for a while (``data-motion="still"``: Fodinha's next trick under the trick being taken),
 * seen arriving now from where they were played: each ``{node, from}`` (``from`` an element, the seat that played it)
 * travels as any card played. Call it once the nodes are in the page. Returns how many moves were started.
 */
export function arrive(items) {
  if (reducedMotion() || typeof Element.prototype.animate !== "function") return 0;
  let started = 0;
  for (const { node, from } of items) {
    if (!node || !from || !node.isConnected || !from.isConnected) continue;
    travel(node, from.getBoundingClientRect(), node.getBoundingClientRect(), TRAVEL_MS);
    started += 1;
  }
  return started;
}

/** Cards that left the table, seen going to the seat that won them. */
function collect(items, target) {
  const b = centreOf(target);
  for (const { node, rect } of items) {
    if (!visible(rect)) continue;
    const a = centreOf(rect);
    const ghost = ghostOf(node, rect);
    const move = ghost.animate(
      [
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.45)`, opacity: 0.2 },
      ],
      { duration: TRAVEL_MS + 60, easing: "ease-in", fill: "forwards" },
    );
    removeWhenDone(move, ghost);
  }
}

function seatRect(root, seat) {
  if (typeof seat !== "number") return null;
  const el = root.querySelector(`[data-seat="${seat}"]`);
  return el ? el.getBoundingClientRect() : null;
}

/** The seat that played ``name`` in these events (a play, a placement, a reveal), or null. */
function playedBy(events, name) {
  for (const ev of events) {
    if (ev && ev.card === name && typeof ev.seat === "number") return ev.seat;
    if (ev && Array.isArray(ev.plays)) {
      for (const p of ev.plays) {
        if (Array.isArray(p) && p[1] === name) return p[0];
        if (p && p.card === name && typeof p.seat === "number") return p.seat;
      }
    }
  }
  return null;
}

/**
 * After a redraw: make the moves between ``before`` (a snapshot()) and what ``root`` shows now, for the new
 * ``events`` (those of the states drawn since). Returns how many moves were started.
 */
export function play(root, before, events) {
  if (!root || !before || reducedMotion()) return 0;
  let started = 0;
  const now = [];
  for (const el of root.querySelectorAll("[data-card]")) {
    const place = where(el);
    if (place) now.push({ name: el.dataset.card, place, node: el });
  }
  // Pair each card drawn now with one of the same name drawn before (the same place first, then the other).
  const unused = [...before.cards];
  const take = (name, place) => {
    const i = unused.findIndex((c) => c.name === name && (place === null || c.place === place));
    return i < 0 ? null : unused.splice(i, 1)[0];
  };
  const fresh = [];
  for (const card of now) {
    if (take(card.name, card.place)) continue; // it was already there: it stays still
    if (card.node.dataset.motion === "still") continue; // the table hides it for now: nothing to see travel
    fresh.push(card);
  }
  const table = root.getBoundingClientRect();
  const deck = root.querySelector("[data-motion=deck]");
  const middle = deck ? deck.getBoundingClientRect() : { left: table.left + table.width / 2 - 1, top: table.top + table.height / 2 - 1, width: 2, height: 2 };
  const dealt = fresh.filter((c) => c.place === "hand");
  let dealIndex = 0;
  for (const card of fresh) {
    const to = card.node.getBoundingClientRect();
    const from = take(card.name, null); // it moved between your hand and the table
    if (from) {
      travel(card.node, from.rect, to, TRAVEL_MS);
      started += 1;
    } else if (card.place === "table") {
      const seat = seatRect(root, playedBy(events, card.name));
      if (seat) {
        travel(card.node, seat, to, TRAVEL_MS);
        started += 1;
      }
    } else {
      // A deal (or a draw): from the deck, or the middle of the table, one card after the other.
      const delay = dealt.length > 1 ? Math.min(dealIndex * DEAL_STAGGER_MS, MAX_MS - DEAL_MS) : 0;
      dealIndex += 1;
      travel(card.node, middle, to, DEAL_MS, delay);
      started += 1;
    }
  }
  // A trick taken: what left the table (and your card that completed it) goes to the winner's seat.
  const won = events.filter((ev) => ev && ev.type === "trick" && typeof ev.winner === "number").pop();
  if (won) {
    const target = seatRect(root, won.winner);
    const gone = unused.filter((c) => c.place === "table" || (c.place === "hand" && playedBy(events, c.name) !== null));
    if (target && gone.some((c) => c.place === "table")) {
      collect(gone, target);
      started += gone.length;
    }
  }
  return started;
}
