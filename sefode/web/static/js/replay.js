// Replay viewer: shows a finished match as the engine itself replays it. `GET /api/matches/{id}/replay` answers
// `{"history": <sefode-history/1>, "replay": <the `sefode replay` result>}`; every hand of `replay.hands` is open
// (number, dealer, cards, vira, bids, tricks with leader/plays/winner/value, won, score, out, void, bolo, dealt),
// one-card hands and 7 Letras included. This file only draws that report: no rule of the game is computed here
// (no trick winners, no cancellation, no scores); every rule lives in sefode/games/.
import { ApiError } from "./api.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { accountErrorText } from "./account.js";
import { scoreEl } from "./table.js";

const STORE_PREFIX = "sefode.match.";

/** Keep a profile's match row (names, places) so the viewer can name the seats. */
export function rememberMatch(row) {
  try {
    sessionStorage.setItem(STORE_PREFIX + row.match_id, JSON.stringify({ players: row.players || [], ended_at: row.ended_at }));
  } catch {
    // Storage full or disabled: the viewer falls back to seat numbers.
  }
}

function remembered(matchId) {
  try {
    return JSON.parse(sessionStorage.getItem(STORE_PREFIX + matchId) || "null");
  } catch {
    return null;
  }
}

function seatLabel(players, seat) {
  const p = players && players.find((x) => x.seat === seat);
  if (!p) return t("replay.seat_n", { n: seat + 1 });
  if (p.bot) return t("replay.bot_n", { n: seat + 1 });
  if (p.anonymous || !p.name) return t("acct.anonymous");
  return p.name;
}

/** The seed as written in the response text: a 63-bit integer loses its last digits as a JavaScript number. */
export function seedFromText(raw, fallback) {
  const found = /"seed"\s*:\s*(-?\d+)/.exec(raw);
  return found ? found[1] : fallback === undefined || fallback === null ? "" : String(fallback);
}

async function loadReplay(matchId) {
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}/replay`, { credentials: "same-origin" });
  const raw = await response.text();
  if (!response.ok) {
    let err = {};
    try {
      err = JSON.parse(raw).error || {};
    } catch {
      // not JSON: keep the status only
    }
    throw new ApiError(response.status, err.code, err.message);
  }
  const data = JSON.parse(raw);
  // The response starts with the history, so the first "seed" in the text is the history's.
  return { history: data.history || {}, replay: data.replay || {}, seedText: seedFromText(raw, data.history && data.history.seed) };
}

export async function renderReplay(ctx, matchId) {
  const page = h("section", { class: "page replay-page", testid: "replay-page" }, h("p", { class: "muted" }, t("common.loading")));
  ctx.app.append(page);
  let loaded;
  try {
    loaded = await loadReplay(matchId);
  } catch (error) {
    const text = error && error.code === "match/not_over" ? t("replay.not_over") : error && error.code === "match/not_found" ? t("replay.not_found") : accountErrorText(error);
    page.replaceChildren(h("p", { class: "error panel", testid: "replay-error" }, text));
    return;
  }
  const { history, replay, seedText } = loaded;
  const options = history.options || {};
  const variant = options.variant === "7letras" ? "7letras" : "sefode";
  const hands = Array.isArray(replay.hands) ? replay.hands : [];
  const seats = Number(options.players) || (hands.length ? hands[0].bids.length : 0);
  const info = remembered(matchId);
  const players = info ? info.players : null;
  // Places: the engine's placements (by seat) when the replay reached the end, else what the profile row said.
  const places = Array.isArray(replay.placements)
    ? replay.placements.map((place, seat) => ({ seat, place }))
    : players && players.some((p) => p.place)
      ? players.map((p) => ({ seat: p.seat, place: p.place }))
      : null;
  const view = { hand: 0, step: hands.length ? hands[0].tricks.length : 0 };

  const header = h(
    "div",
    { class: "panel replay-head" },
    h("h1", { class: "page-title" }, t("replay.title")),
    h(
      "p",
      { class: "muted small", testid: "replay-meta" },
      [
        variant === "7letras" ? t("prof.variant_7letras") : t("prof.variant_sefode"),
        t("replay.players_n", { n: seats }),
        options.lives ? t("replay.lives_n", { n: options.lives }) : null,
        t("replay.hands_n", { n: hands.length }),
        t("replay.seed", { seed: seedText }),
      ]
        .filter(Boolean)
        .join(" · "),
    ),
    places
      ? h(
          "ul",
          { class: "replay-places", testid: "replay-places" },
          places
            .slice()
            .sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat)
            .map((p) => h("li", { testid: `replay-place-${p.seat}` }, t("prof.place_n", { n: p.place ?? "?" }), " ", seatLabel(players, p.seat))),
        )
      : null,
    h("p", { class: "muted small" }, t("replay.source_note")),
    replay.error ? h("p", { class: "error small", testid: "replay-engine-error" }, t("replay.engine_error", { message: replay.error.message || "" })) : null,
    h("a", { class: "button ghost", href: `/api/matches/${encodeURIComponent(matchId)}/history`, download: "", testid: "replay-download" }, t("replay.download")),
  );
  const nav = h("nav", { class: "tabs replay-hands", testid: "replay-hand-list", "aria-label": t("replay.hands_label") });
  const stage = h("div", { class: "replay-stage", testid: "replay-stage" });
  page.replaceChildren(header, nav, stage);
  page.dataset.hands = String(hands.length);
  page.dataset.error = replay.error ? String(replay.error.code || "error") : "";

  function go(hand, step) {
    view.hand = Math.max(0, Math.min(hands.length - 1, hand));
    const hd = hands[view.hand];
    view.step = step === undefined ? hd.tricks.length : Math.max(0, Math.min(hd.tricks.length, step));
    draw();
  }

  function seatRow(hd, seat, playedSoFar) {
    const bid = hd.bids[seat];
    const dealt = hd.dealt ? hd.dealt[seat] : null;
    const won = hd.won ? hd.won[seat] : null;
    const score = hd.score ? hd.score[seat] : null;
    const out = (hd.out || []).includes(seat);
    const left = playedSoFar[seat].slice();
    const cards = (dealt || []).map((card) => {
      const k = left.indexOf(card);
      if (k >= 0) left.splice(k, 1);
      return cardEl(card, { size: "sm", extraClass: k >= 0 ? "replay-played" : "" });
    });
    return h(
      "li",
      { class: "replay-seat", testid: `replay-seat-${seat}` },
      h(
        "div",
        { class: "replay-seat-head" },
        h("b", {}, seatLabel(players, seat)),
        seat === hd.dealer ? h("span", { class: "chip dealer-chip", title: t("replay.dealer"), testid: "replay-dealer" }, t("replay.dealer_short")) : null,
        h(
          "span",
          { class: "muted small", testid: `replay-bid-${seat}` },
          bid !== null && bid !== undefined ? t("replay.bid", { n: bid }) : "",
          won !== null && won !== undefined ? ` · ${t("replay.won", { n: won })}` : "",
        ),
        score !== null && score !== undefined
          ? h(
              "span",
              { class: "small replay-score", testid: `replay-score-${seat}`, dataset: { score: String(score) } },
              h("span", { class: "muted" }, `${variant === "7letras" ? t("score.letters") : t("score.lives_head")}: `),
              // Inside "scoreboard", the hearts and letters take the colours of the side panel's scoreboard.
              h("span", { class: "scoreboard" }, scoreEl({ scores: hd.score, variant, options }, seat)),
            )
          : null,
        out ? h("span", { class: "chip", testid: `replay-out-${seat}` }, t("replay.out_chip")) : null,
      ),
      h("div", { class: "replay-cards", testid: `replay-dealt-${seat}` }, cards),
    );
  }

  function trickRow(hd, trick, k) {
    const shown = k < view.step;
    const result =
      trick.winner === null || trick.winner === undefined
        ? t("replay.melou", { n: trick.value })
        : t("replay.trick_winner", { name: seatLabel(players, trick.winner), n: trick.value });
    return h(
      "li",
      {
        class: `replay-trick${shown ? "" : " hidden-trick"}`,
        testid: `replay-trick-${k + 1}`,
        dataset: {
          winner: trick.winner === null || trick.winner === undefined ? "null" : String(trick.winner),
          value: String(trick.value),
          leader: String(trick.leader),
          plays: trick.plays.map(([s, c]) => `${s}:${c}`).join(" "),
        },
      },
      h("span", { class: "trick-no" }, t("replay.trick_n", { n: k + 1 })),
      shown
        ? h(
            "span",
            { class: "trick-plays" },
            trick.plays.map(([seat, card]) =>
              h(
                "span",
                { class: `trick-play${seat === trick.winner ? " winner" : ""}`, title: seatLabel(players, seat) },
                cardEl(card, { size: "sm" }),
                h("small", {}, seatLabel(players, seat)),
              ),
            ),
          )
        : h("span", { class: "muted small" }, t("replay.trick_hidden")),
      shown ? h("span", { class: "trick-result small", testid: `replay-result-${k + 1}` }, result) : null,
    );
  }

  function draw() {
    nav.replaceChildren(
      ...hands.map((hd, i) =>
        h(
          "button",
          { type: "button", class: i === view.hand ? "active" : "", testid: `replay-hand-${hd.number}`, onclick: () => go(i) },
          String(hd.number),
        ),
      ),
    );
    if (!hands.length) {
      stage.replaceChildren(h("p", { class: "muted panel" }, t("replay.empty")));
      return;
    }
    const hd = hands[view.hand];
    const controls = h(
      "div",
      { class: "row replay-controls" },
      h("button", { type: "button", testid: "replay-prev-hand", disabled: view.hand === 0, onclick: () => go(view.hand - 1) }, t("replay.prev_hand")),
      h("button", { type: "button", testid: "replay-prev-trick", disabled: view.step === 0, onclick: () => go(view.hand, view.step - 1) }, t("replay.prev_trick")),
      h("span", { class: "muted", testid: "replay-step" }, t("replay.step", { step: view.step, total: hd.tricks.length })),
      h("button", { type: "button", testid: "replay-next-trick", disabled: view.step >= hd.tricks.length, onclick: () => go(view.hand, view.step + 1) }, t("replay.next_trick")),
      h("button", { type: "button", testid: "replay-next-hand", disabled: view.hand >= hands.length - 1, onclick: () => go(view.hand + 1, 0) }, t("replay.next_hand")),
    );
    const n = Math.max(seats, hd.bids.length, hd.dealt ? hd.dealt.length : 0);
    const playedSoFar = Array.from({ length: n }, () => []);
    hd.tricks.slice(0, view.step).forEach((trick) => trick.plays.forEach(([seat, card]) => playedSoFar[seat].push(card)));
    const seatRows = [];
    for (let seat = 0; seat < n; seat += 1) {
      const inHand = (hd.bids[seat] !== null && hd.bids[seat] !== undefined) || (hd.dealt && hd.dealt[seat]);
      if (inHand) seatRows.push(seatRow(hd, seat, playedSoFar));
    }
    const outNames = (hd.out || []).map((s) => seatLabel(players, s));
    const bolo = hd.bolo
      ? h(
          "p",
          { class: "small", testid: "replay-bolo" },
          hd.bolo.seat === null || hd.bolo.seat === undefined ? t("replay.bolo_none", { n: hd.bolo.value }) : t("replay.bolo", { n: hd.bolo.value, name: seatLabel(players, hd.bolo.seat) }),
        )
      : null;
    stage.replaceChildren(
      h(
        "div",
        { class: "panel replay-hand", testid: "replay-hand", dataset: { hand: String(hd.number), cards: String(hd.cards) } },
        h("h2", {}, t("replay.hand_title", { n: hd.number, cards: hd.cards })),
        controls,
        hd.vira
          ? h(
              "div",
              { class: "replay-seat-head", testid: "replay-vira" },
              h("b", {}, t("replay.vira")),
              h("div", { class: "replay-cards" }, cardEl(hd.vira, { size: "sm" })),
            )
          : null,
        h("ul", { class: "replay-seats" }, seatRows),
        hd.tricks.length ? h("ol", { class: "replay-tricks", testid: "replay-tricks" }, hd.tricks.map((trick, k) => trickRow(hd, trick, k))) : null,
        bolo,
        hd.void ? h("p", { class: "small", testid: "replay-void" }, t("score.void")) : null,
        outNames.length ? h("p", { class: "small", testid: "replay-out" }, t("replay.out", { names: outNames.join(", ") })) : null,
      ),
    );
  }

  go(0);
}
