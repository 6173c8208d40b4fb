// The table's keyboard (docs/client-modules.md, "Keyboard and focus"): the focus stays in the hand or the decision
// bar across redraws and goes to the decision when your turn comes; ←/→ move in a focus group, Enter and Space press
// an element that acts as a button, number keys press `data-key` buttons (two digits quickly for 10–20).

const FOCUSABLE = "button:not([disabled]), [tabindex='0']";
/** FOCUSABLE within the elements ``scope`` selects (each alternative of the list scoped, not only the first). */
const focusableIn = (scope) => FOCUSABLE.split(",").map((one) => `${scope} ${one.trim()}`).join(", ");
/** How long a first digit waits for a second one (12 is "1" then "2"). */
const DIGIT_WAIT_MS = 700;

/**
 * @param {HTMLElement} main the room's main column, where the table is drawn
 * @param {() => boolean} hasState whether a match's state is on the page
 */
export function createTableKeys(main, hasState) {
  /** Whether the last drawn table awaited a decision of this player's (none while an action of theirs is on its way). */
  let wasMine = false;
  let digits = "";
  let digitTimer = 0;

  /** Where focus is in the table before a redraw: the element's test id and its group ([data-focus-group]). */
  function focusedPlace() {
    const active = document.activeElement;
    if (!active || active === document.body) return { free: true };
    if (!main.contains(active)) return { free: false };
    const group = active.closest("[data-focus-group]");
    return { free: true, testid: active.dataset.testid || null, group: group ? group.dataset.focusGroup : null };
  }

  /** After a redraw: the focus back where it was (`place`, from focusedPlace), or to the decision on your turn. */
  function restoreFocus(place, gctx) {
    const mine = Boolean(gctx.awaited && !gctx.pending);
    const stillMine = mine && wasMine;
    wasMine = mine;
    if (!place.free) return;
    const byId = place.testid ? main.querySelector(`[data-testid="${CSS.escape(place.testid)}"]`) : null;
    // A control outside the focus groups (Guimenon's Confirm) keeps the focus while the same decision is awaited:
    // another seat's move redraws the table and must not pull the focus back to the hand.
    const outsideGroups = byId && byId.matches(FOCUSABLE) && !byId.closest("[data-focus-group]");
    // Your turn: the first choice of the decision (the bid bar, else the hand) takes focus.
    if (mine && !(stillMine && outsideGroups)) {
      const current = byId && byId.matches(FOCUSABLE) && byId.closest("[data-focus-group]") ? byId : null;
      const first =
        current ||
        main.querySelector(focusableIn("[data-focus-group='bid']")) ||
        main.querySelector(focusableIn("[data-focus-group='hand']")) ||
        main.querySelector(focusableIn("[data-focus-group]"));
      if (first) {
        first.focus({ preventScroll: true });
        return;
      }
    }
    if (byId && byId.matches(FOCUSABLE)) {
      byId.focus({ preventScroll: true });
      return;
    }
    if (place.group || place.testid) {
      // The group is still there (its buttons off until your next turn): focus stays on it.
      const group = main.querySelector(`[data-focus-group='${place.group || "hand"}']`) || main.querySelector("[data-focus-group]");
      if (group) {
        const inner = group.querySelector(FOCUSABLE);
        (inner || group).focus({ preventScroll: true });
      }
    }
  }

  function pressKey(key) {
    const target = main.querySelector(`[data-key="${CSS.escape(key)}"]:not([disabled])`);
    if (target) target.click();
  }

  function moveInGroup(event, el) {
    const group = (el && el.closest && el.closest("[data-focus-group]")) || main.querySelector("[data-focus-group='hand']");
    if (!group) return;
    const items = [...group.querySelectorAll(FOCUSABLE)];
    if (!items.length) return;
    const at = items.indexOf(document.activeElement);
    const step = event.key === "ArrowLeft" ? -1 : 1;
    const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
    items[next].focus();
    event.preventDefault();
  }

  /** Number keys choose a numbered decision (a bid): "1" then "2" quickly is 12 when 12 is on offer. */
  function typeDigit(event) {
    digits += event.key;
    clearTimeout(digitTimer);
    const longer = [...main.querySelectorAll("[data-key]:not([disabled])")].some((b) => b.dataset.key.length > digits.length && b.dataset.key.startsWith(digits));
    const press = () => {
      const chosen = digits;
      digits = "";
      pressKey(chosen);
    };
    if (!longer) press();
    else digitTimer = setTimeout(press, DIGIT_WAIT_MS);
    event.preventDefault();
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const el = event.target;
    if (el && el.closest && el.closest("input, textarea, select, dialog, [contenteditable]")) return;
    if (!hasState() || !main.querySelector("[data-testid=table]")) return;
    if ((event.key === "Enter" || event.key === " ") && el && el.getAttribute && el.getAttribute("role") === "button" && el.tagName !== "BUTTON" && main.contains(el)) {
      // A table element that acts as a button (a pile, a Location) answers Enter and Space as a button does.
      el.click();
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      moveInGroup(event, el);
      return;
    }
    if (/^[0-9]$/.test(event.key)) typeDigit(event);
  }

  document.addEventListener("keydown", onKey);
  return {
    focusedPlace,
    restoreFocus,
    close: () => {
      document.removeEventListener("keydown", onKey);
      clearTimeout(digitTimer);
    },
  };
}
