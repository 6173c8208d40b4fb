// Fodinha's part of the replay viewer: the engine's own report (`sefode replay`), every hand open (number, dealer,
// cards, vira, bids, tricks with leader/plays/winner/value, won, score, out, void, bolo, dealt), drawn hand by hand
// and trick by trick. Nothing here computes a rule (no trick winners, no cancellation, no scores).
import { cardEl } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t, tn } from "/static/js/i18n.js";
import { scoreEl } from "./table.js";

/** ctx: {history, replay, seats, name(seat)}; returns {meta, element} (docs/client-modules.md). */
export function renderReplay(ctx) {
  const { history, replay } = ctx;
  const options = history.options || {};
  const variant = options.variant === "7letras" ? "7letras" : "sefode";
  const hands = Array.isArray(replay.hands) ? replay.hands : [];
  const seats = Number(options.players) || ctx.seats || (hands.length ? hands[0].bids.length : 0);
  const view = { hand: 0, step: hands.length ? hands[0].tricks.length : 0 };
  const nav = h("nav", { class: "tabs replay-hands", testid: "replay-hand-list", "aria-label": t("replay.hands_label") });
  const stage = h("div", { class: "replay-stage", testid: "replay-stage" });

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
        h("b", {}, ctx.name(seat)),
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
        : t("replay.trick_winner", { name: ctx.name(trick.winner), n: trick.value });
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
                { class: `trick-play${seat === trick.winner ? " winner" : ""}`, title: ctx.name(seat) },
                cardEl(card, { size: "sm" }),
                h("small", {}, ctx.name(seat)),
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
    const outNames = (hd.out || []).map((s) => ctx.name(s));
    const bolo = hd.bolo
      ? h(
          "p",
          { class: "small", testid: "replay-bolo" },
          hd.bolo.seat === null || hd.bolo.seat === undefined ? t("replay.bolo_none", { n: hd.bolo.value }) : t("replay.bolo", { n: hd.bolo.value, name: ctx.name(hd.bolo.seat) }),
        )
      : null;
    stage.replaceChildren(
      h(
        "div",
        { class: "panel replay-hand", testid: "replay-hand", dataset: { hand: String(hd.number), cards: String(hd.cards) } },
        h("h2", {}, tn("replay.hand_title", hd.cards, { n: hd.number, cards: hd.cards })),
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

  if (hands.length) go(0);
  else draw();
  return {
    meta: [options.lives && variant !== "7letras" ? t("replay.lives_n", { n: options.lives }) : null, t("replay.hands_n", { n: hands.length })].filter(Boolean),
    hands: hands.length,
    element: h("div", { class: "fodinha-replay" }, nav, stage),
  };
}
