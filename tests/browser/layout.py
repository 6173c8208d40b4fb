"""Geometry checks of a table as drawn (issue 22), written once for every game's layout test: the JavaScript runs in
the page and returns what is wrong with enough words (selector, text, boxes) for a failure message to say what
overlaps, what is cut and what is out of sight.

- :data:`OVERLAPS` – pairs of listed elements whose boxes intersect, as shown (a box cut by its ancestors that clip,
  such as a board scrolling within itself: what is scrolled away is over nothing; an element is never compared with
  its own ancestor or descendant, and elements of a group marked ``stack`` may overlap each other: a fanned pile).
- :data:`ESCAPES` – listed elements that run out of the box they belong to (a seat's letters out of the seat), or out
  of the screen sideways.
- :data:`OUT_OF_VIEW` – elements (the hand's cards, the decision's control) not wholly inside the viewport.
- :data:`SMALL_TEXT` – visible text under 12 px on the page.
- :data:`CUT_TEXT` – listed text cut short (clipped or ellipsised) with no tooltip (``title``) to read it whole.
- :data:`SPLIT_WORDS` – a word of listed text broken across two lines (or hyphenated), or running out of its box: a
  name must wrap between its words, or be set smaller, never split.
- :data:`HIDDEN_INSIDE` – listed elements partly hidden inside a box that scrolls within itself (or clips): the page
  may scroll, a nested scroller that hides part of the table may not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page

_COMMON = """
  const visible = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1;
  };
  const words = (el) =>
    (el.getAttribute('aria-label') || el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
  const box = (r) => [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  // What of an element shows: its box cut by every ancestor that clips its content (a board that scrolls within
  // itself hides what is scrolled away; that part is over nothing).
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      if (style.overflowX !== 'visible') { left = Math.max(left, c.left); right = Math.min(right, c.right); }
      if (style.overflowY !== 'visible') { top = Math.max(top, c.top); bottom = Math.min(bottom, c.bottom); }
    }
    return { left, top, right, bottom };
  };
  const describe = (sel, el) => {
    const id = el.dataset.testid ? ` [${el.dataset.testid}]` : '';
    return `${sel}${id} "${words(el)}" ${JSON.stringify(box(el.getBoundingClientRect()))}`;
  };
  // fn(sel, el) for every visible element each selector finds.
  const eachVisible = (selectors, fn) => {
    for (const sel of selectors) for (const el of document.querySelectorAll(sel)) if (visible(el)) fn(sel, el);
  };
"""

OVERLAPS = (
    """(groups) => {"""
    + _COMMON
    + """
  // groups: [[selector, stack]]; stack: elements of this group may overlap each other.
  const items = [];
  groups.forEach(([sel, stack], g) => {
    for (const el of document.querySelectorAll(sel)) {
      if (visible(el)) items.push({ sel, stack, g, el, r: shown(el) });
    }
  });
  const hits = [];
  const seen = new Set();
  for (let i = 0; i < items.length; i += 1) {
    for (let j = i + 1; j < items.length; j += 1) {
      const a = items[i], b = items[j];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (a.g === b.g && a.stack) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1) {
        const key = describe(a.sel, a.el) + ' <> ' + describe(b.sel, b.el);
        if (!seen.has(key)) { seen.add(key); hits.push(key); }
      }
    }
  }
  return hits;
}"""
)

ESCAPES = (
    """([container, parts]) => {"""
    + _COMMON
    + """
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const box of document.querySelectorAll(container)) {
    if (!visible(box)) continue;
    const c = box.getBoundingClientRect();
    if (c.left < -0.5 || c.right > width + 0.5) out.push(`${describe(container, box)} leaves the screen sideways`);
    for (const sel of parts) {
      for (const el of box.querySelectorAll(sel)) {
        if (!visible(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1) {
          out.push(`${describe(sel, el)} runs out of ${describe(container, box)}`);
        }
      }
    }
  }
  return out;
}"""
)

OUT_OF_VIEW = (
    """(selectors) => {"""
    + _COMMON
    + """
  const out = [];
  const w = window.innerWidth, h = window.innerHeight;
  for (const sel of selectors) {
    const found = [...document.querySelectorAll(sel)];
    if (!found.length) out.push(`${sel}: none on the page`);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
        out.push(`${describe(sel, el)} is not inside the ${w}x${h} screen`);
      }
    }
  }
  return out;
}"""
)

SMALL_TEXT = (
    """(root) => {"""
    + _COMMON
    + """
  const small = [];
  const walker = document.createTreeWalker(document.querySelector(root) || document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || !visible(el) || el.closest('.sr-only')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const name = el.tagName.toLowerCase() + '.' + [...el.classList].join('.');
    if (size < 11.95) small.push(`${describe(name, el)} is ${size}px`);
  }
  return [...new Set(small)];
}"""
)

CUT_TEXT = (
    """(selectors) => {"""
    + _COMMON
    + """
  const out = [];
  eachVisible(selectors, (sel, el) => {
    if (el.closest('[title]')) return;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
      const style = getComputedStyle(el);
      if (style.overflowX !== 'visible' || style.textOverflow === 'ellipsis') out.push(`${describe(sel, el)} is cut`);
    }
  });
  return out;
}"""
)


SPLIT_WORDS = (
    """(selectors) => {"""
    + _COMMON
    + """
  const out = [];
  eachVisible(selectors, (sel, el) => {
    const c = el.getBoundingClientRect();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
        const lines = new Set(rects.map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(`${describe(sel, el)} splits "${m[0]}" across lines`);
        else if (rects.some((r) => r.left < c.left - 1 || r.right > c.right + 1)) {
          out.push(`${describe(sel, el)}: "${m[0]}" runs out of it`);
        }
      }
    }
  });
  return out;
}"""
)

HIDDEN_INSIDE = (
    """(selectors) => {"""
    + _COMMON
    + """
  const out = [];
  eachVisible(selectors, (sel, el) => {
    const r = el.getBoundingClientRect();
    const s = shown(el);
    if (s.left > r.left + 1 || s.top > r.top + 1 || s.right < r.right - 1 || s.bottom < r.bottom - 1) {
      const part = JSON.stringify(box(s));
      out.push(`${describe(sel, el)} is partly hidden inside a box that scrolls or clips (shown: ${part})`);
    }
  });
  return out;
}"""
)


@dataclass(frozen=True)
class Layout:
    """What to check on one game's table: the elements that must not overlap (``(selector, stack)`` pairs), the boxes
    whose parts must stay inside them, the text that must not be cut (nor its words split), what must not hide inside
    a nested scroller, and what must be in view when the player is awaited."""

    parts: tuple[tuple[str, bool], ...]
    container: str = "[data-testid^=seat-][data-seat]"
    contained: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()
    root: str = "[data-testid=room-page]"
    words: tuple[str, ...] = ()
    """Text whose words must stay whole (wrap between words, never inside one)."""
    whole: tuple[str, ...] = ()
    """Elements that must not be partly hidden inside a box that scrolls within itself."""


def problems(page: Page, layout: Layout, in_view: tuple[str, ...]) -> list[str]:
    """Everything wrong with the table as it is now: overlaps, parts out of their box, cut text, text under 12 px,
    and anything of ``in_view`` (the hand's cards, the decision's control) outside the viewport."""
    found: list[Any] = []
    found += page.evaluate(OVERLAPS, [list(part) for part in layout.parts])
    if layout.contained:
        found += page.evaluate(ESCAPES, [layout.container, list(layout.contained)])
    if layout.texts:
        found += page.evaluate(CUT_TEXT, list(layout.texts))
    if layout.words:
        found += page.evaluate(SPLIT_WORDS, list(layout.words))
    if layout.whole:
        found += page.evaluate(HIDDEN_INSIDE, list(layout.whole))
    found += page.evaluate(SMALL_TEXT, layout.root)
    if in_view:
        found += page.evaluate(OUT_OF_VIEW, list(in_view))
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        found.append(f"the page is {overflow}px wider than the screen")
    return [str(item) for item in found]
