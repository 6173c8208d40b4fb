// The generic renderer: how a game without a browser module plays in the page. Its public view is drawn as a tidy
// key/value list (lists of card names drawn as cards, lists with one entry per seat as rows named by seat), and its
// legal actions (the `state.legal` list) are buttons labelled by the server's `describe_action` labels. A game may
// still name its view keys and events in its catalogue: `view.<key>` and `event.<type>` (params: the event's
// fields, and `name` for its seat). A game may also declare a view schema (`GameSpec.view_schema`, sent as
// `ctx.game.view_schema`): which view keys hold seats, suits, cards and the scores; they are drawn as the players'
// names, suit symbols, cards and the score pane. This file follows the module contract of docs/client-modules.md.
import { backEl, cardEl, isCardName, moveText, SUIT_SYMBOL } from "./cards.js";
import { h } from "./dom.js";
import { hasKey, t, tg } from "./i18n.js";

const HIDDEN_KEYS = new Set(["legal", "game", "seat"]);
// A list as long as the table has seats is drawn one row per seat when its name says it is per seat, or when its
// entries are lists or objects (a seat's hand, a seat's record); a plain list of numbers ("hand": [3, 9]) is not.
const PER_SEAT = /(^|_)(scores?|points|counts?|submitted|alive|left|out|bids|won|tricks_won|placements|places|lives|hands|seats|names|ready|passed|shown|totals?)$/;
const MAX_DEPTH = 3;

function humanize(key) {
  const text = String(key).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function keyLabel(game, key) {
  const k = `view.${key}`;
  return hasKey(k, game) ? tg(game, k) : humanize(key);
}

/** The game's view schema, each part filled in (docs/writing-a-game.md, "The view schema"). */
export function viewSchema(ctx) {
  const raw = (ctx && ctx.game && ctx.game.view_schema) || {};
  return { seats: new Set(raw.seats || []), suits: new Set(raw.suits || []), cards: new Set(raw.cards || []), scores: raw.scores || null };
}

function seatEl(value, ctx) {
  if (!Number.isInteger(value) || value < 0) return scalar(value);
  const name = ctx.name ? ctx.name(value, true) : t("seat.number", { n: value + 1 });
  return h("span", { class: `val seat-name${value === ctx.seat ? " mine" : ""}`, "data-seat": String(value) }, name);
}

function suitEl(value) {
  if (typeof value !== "string" || !SUIT_SYMBOL[value]) return scalar(value);
  return h("span", { class: `suit-mark suit-${value}`, title: t(`suit.${value}`), "aria-label": t(`suit.${value}`), "data-suit": value }, SUIT_SYMBOL[value]);
}

/** A card place under a `cards` key: the card, or a face-down card where the value is null (a card not shown). */
function cardPlaceEl(value) {
  if (value === null || value === undefined) return backEl({ size: "sm" });
  return isCardName(value) ? cardEl(value, { size: "sm" }) : scalar(value);
}

/** A value under a key the schema marks: seats as names, suits as symbols, card places as cards (lists too). */
function markedEl(value, kind, ctx) {
  const one = kind === "seats" ? (v) => seatEl(v, ctx) : kind === "cards" ? cardPlaceEl : suitEl;
  if (Array.isArray(value)) return value.length ? h("span", { class: "kv-list" }, value.map(one)) : h("span", { class: "muted" }, t("generic.empty"));
  return one(value);
}

function scalar(value) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value === "boolean") return h("span", { class: `bool ${value ? "yes" : "no"}` }, value ? t("generic.yes") : t("generic.no"));
  if (isCardName(value)) return cardEl(value, { size: "sm" });
  return h("span", { class: "val" }, String(value));
}

/** One value of a view, drawn readably. seats: how many seats (a list that long is drawn one row per seat). */
export function valueEl(value, ctx, depth = 0, key = "") {
  const schema = viewSchema(ctx);
  if (key && schema.seats.has(key)) return markedEl(value, "seats", ctx);
  if (key && schema.suits.has(key)) return markedEl(value, "suits", ctx);
  if (key && schema.cards.has(key) && (value === null || typeof value !== "object" || value.every((v) => v === null || typeof v !== "object"))) {
    if (Array.isArray(value) && ctx.seats && value.length === ctx.seats && depth === 0) {
      return h("ul", { class: "kv-seats" }, value.map((item, seat) => h("li", { class: seat === ctx.seat ? "mine" : "" }, h("span", { class: "kv-seat" }, ctx.name ? ctx.name(seat, true) : t("seat.number", { n: seat + 1 })), cardPlaceEl(item))));
    }
    return markedEl(value, "cards", ctx);
  }
  if (value === null || typeof value !== "object") return scalar(value);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, t("generic.empty"));
    if (value.every(isCardName)) return h("span", { class: "card-row", testid: key ? `view-cards-${key}` : null }, value.map((c) => cardEl(c, { size: "sm" })));
    const seats = ctx.seats || 0;
    const nested = value.some((v) => v === null || typeof v === "object");
    const perSeat = PER_SEAT.test(key) || (key && schema.scores === key);
    if (seats && value.length === seats && depth === 0 && (nested || perSeat)) {
      return h(
        "ul",
        { class: "kv-seats" },
        value.map((item, seat) =>
          h("li", { class: seat === ctx.seat ? "mine" : "" }, h("span", { class: "kv-seat" }, ctx.name ? ctx.name(seat, true) : t("seat.number", { n: seat + 1 })), valueEl(item, ctx, depth + 1)),
        ),
      );
    }
    if (value.every((v) => v === null || typeof v !== "object")) return h("span", { class: "kv-list" }, value.map((v) => scalar(v)));
    if (depth >= MAX_DEPTH) return h("code", {}, JSON.stringify(value));
    return h("ol", { class: "kv-items" }, value.map((item) => h("li", {}, valueEl(item, ctx, depth + 1))));
  }
  if (depth >= MAX_DEPTH) return h("code", {}, JSON.stringify(value));
  return kvList(value, ctx, depth + 1);
}

function kvList(obj, ctx, depth = 0) {
  const rows = Object.entries(obj).filter(([k]) => depth > 0 || !HIDDEN_KEYS.has(k));
  return h(
    "dl",
    { class: `kv depth-${depth}` },
    rows.map(([k, v]) => h("div", { class: "kv-row", "data-key": k }, h("dt", {}, keyLabel(ctx.gameName, k)), h("dd", {}, valueEl(v, ctx, depth, depth === 0 ? k : "")))),
  );
}

/** The turn line: whose decision the table waits for. */
function turnLine(ctx) {
  const awaiting = (ctx.state && ctx.state.awaiting) || [];
  let text;
  if (ctx.over) text = t("table.match_over");
  else if (ctx.paused) text = t("table.paused");
  else if (ctx.awaited) text = awaiting.length > 1 ? t("generic.your_turn_together") : t("generic.your_turn");
  else if (ctx.submitted) text = t("generic.submitted_waiting", { names: awaiting.map((s) => ctx.name(s)).join(", ") });
  else if (awaiting.length) text = t("generic.waiting_for", { names: awaiting.map((s) => ctx.name(s)).join(", ") });
  else text = "";
  return h("div", { class: `turn-line${ctx.awaited ? " mine" : ""}`, testid: "turn-line" }, text);
}

const MARK = "\u0001";

/**
 * An action's button face: its `describe_action` label in the page's language, with each card it names (a param
 * whose value is a card name, or a list of them) drawn as a card in place of its notation ("Jogar [4♣]").
 */
export function actionLabelEl(label, game) {
  const text = moveText(label, game);
  const params = label && typeof label === "object" ? label.params || {} : {};
  const cards = [];
  const marked = {};
  for (const [k, v] of Object.entries(params)) {
    const names = isCardName(v) ? [v] : Array.isArray(v) && v.length && v.every(isCardName) ? v : null;
    if (names) {
      marked[k] = `${MARK}${cards.length}${MARK}`;
      cards.push(names);
    } else marked[k] = v;
  }
  if (!cards.length) return [text];
  const parts = moveText({ ...label, params: marked }, game).split(MARK);
  // The game's text was used as it is (no catalogue key): it names no placeholder, so the notation stays text.
  if (parts.length < 3) return [text];
  return parts.map((part, i) => (i % 2 ? h("span", { class: "action-cards" }, cards[Number(part)].map((c) => cardEl(c, { size: "xs" }))) : part));
}

/** The decision panel: one button per legal action, labelled by `describe_action`. */
export function actionButtons(ctx) {
  const legal = (ctx.state && ctx.state.legal) || [];
  if (!ctx.awaited || !legal.length) return null;
  return h(
    "div",
    { class: "generic-actions", testid: "generic-actions", role: "group", "aria-label": t("generic.actions") },
    legal.map((entry, i) =>
      h(
        "button",
        {
          type: "button",
          class: "action",
          testid: `action-${i}`,
          "data-action": JSON.stringify(entry.action),
          disabled: ctx.paused || ctx.pending,
          onclick: () => ctx.act(entry.action),
          "aria-label": moveText(entry.label, ctx.gameName) || JSON.stringify(entry.action),
        },
        entry.label ? actionLabelEl(entry.label, ctx.gameName) : JSON.stringify(entry.action),
      ),
    ),
  );
}

export function renderTable(ctx) {
  const view = (ctx.state && ctx.state.view) || {};
  return h(
    "div",
    { class: "table generic-table", testid: "table" },
    turnLine(ctx),
    actionButtons(ctx),
    h("div", { class: "panel generic-view", testid: "generic-view" }, kvList(view, ctx)),
  );
}

/** Scores: the list the view schema's `scores` names, else a `scores` (or `score`) list, one entry per seat. */
export function renderScore(ctx) {
  const view = (ctx.state && ctx.state.view) || {};
  const key = viewSchema(ctx).scores;
  const scores = key && Array.isArray(view[key]) ? view[key] : Array.isArray(view.scores) ? view.scores : Array.isArray(view.score) ? view.score : null;
  const seats = ctx.seats || (scores ? scores.length : 0);
  if (!seats) return null;
  return h(
    "table",
    { class: "scoreboard", testid: "scoreboard" },
    h("thead", {}, h("tr", {}, h("th", {}, t("score.player")), scores ? h("th", {}, t("generic.score")) : null)),
    h(
      "tbody",
      {},
      Array.from({ length: seats }, (_, s) =>
        h("tr", { class: s === ctx.seat ? "mine" : "", testid: `score-row-${s}` }, h("td", {}, ctx.name(s)), scores ? h("td", {}, valueEl(scores[s], ctx, 1)) : null),
      ),
    ),
  );
}

/** An event's text: the game's `event.<type>` when its catalogue has one, else its type and fields. */
export function eventText(ev, ctx) {
  if (!ev || !ev.type) return null;
  const game = ctx.gameName;
  const params = {};
  for (const [k, v] of Object.entries(ev)) params[k] = typeof v === "object" && v !== null ? JSON.stringify(v) : v;
  if (ev.seat !== undefined && ev.seat !== null) params.name = ctx.name(ev.seat);
  const key = `event.${ev.type}`;
  if (hasKey(key, game)) return tg(game, key, params);
  if (ev.label) return moveText(ev.label, game);
  const details = Object.entries(ev)
    .filter(([k]) => !["type", "seat", "version"].includes(k))
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`);
  const who = params.name ? `${params.name}: ` : "";
  return `${who}${humanize(ev.type)}${details.length ? ` (${details.join(", ")})` : ""}`;
}

/** The replay viewer's part: the history's actions in order, then the engine's report, both drawn readably. */
export function renderReplay(ctx) {
  const actions = (ctx.history && ctx.history.actions) || [];
  const report = { ...(ctx.replay || {}) };
  delete report.error;
  const list = h(
    "ol",
    { class: "replay-actions", testid: "replay-actions" },
    actions.map((entry, i) => {
      const { seat, ...action } = entry;
      const label = Object.entries(action)
        .map(([k, v]) => `${humanize(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`)
        .join(", ");
      return h("li", { testid: `replay-action-${i}` }, h("b", {}, ctx.name(seat)), " ", h("span", {}, label), " ", Object.values(action).filter(isCardName).map((c) => cardEl(c, { size: "xs" })));
    }),
  );
  return {
    meta: [t("replay.actions_n", { n: actions.length })],
    element: h(
      "div",
      { class: "generic-replay" },
      h("section", { class: "panel" }, h("h2", {}, t("replay.actions")), actions.length ? list : h("p", { class: "muted" }, t("replay.empty"))),
      h("section", { class: "panel generic-view", testid: "replay-report" }, h("h2", {}, t("replay.report")), kvList(report, { ...ctx, seats: ctx.seats })),
    ),
  };
}
