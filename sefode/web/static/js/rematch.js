// The rematch vote at the end of a match (docs/protocol.md: `rematch`, `room.rematch`): who of the humans seated in
// the match that ended accepted or declined, live, and this player's own buttons when they may vote.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The rematch block, or null when no rematch is offered. `room` is the room message's object, `me` this player's
 * id, `send(message)` sends on the room's connection, `prefix` keeps test ids apart where two blocks could show.
 */
export function rematchBlock({ room, me, send, prefix = "" }) {
  const vote = room && room.rematch;
  if (!vote) return null;
  const seats = room.seats || [];
  const seatOf = (pid) => {
    const found = seats.find((s) => s.player_id === pid);
    return found ? found.seat : null;
  };
  const nameOf = (pid) => {
    const found = seats.find((s) => s.player_id === pid);
    return (found && found.name) || t("rematch.someone");
  };
  const state = (pid) => (vote.accepted.includes(pid) ? "accepted" : vote.declined.includes(pid) ? "declined" : "waiting");
  const mine = me && vote.voters.includes(me) ? state(me) : null;
  const declined = vote.declined.map(nameOf);
  const status = declined.length
    ? t("rematch.declined_by", { names: declined.join(", ") })
    : t("rematch.progress", { n: vote.accepted.length, total: vote.voters.length });
  const buttons = [];
  if (mine) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: mine === "accepted" ? "primary active" : "primary",
          testid: `${prefix}rematch-accept`,
          "aria-pressed": mine === "accepted" ? "true" : "false",
          disabled: mine === "accepted",
          onclick: () => send({ type: "rematch", accept: true, match: vote.match }),
        },
        mine === "accepted" ? t("rematch.accepted_you") : t("rematch.accept"),
      ),
      h(
        "button",
        {
          type: "button",
          class: mine === "declined" ? "active" : "",
          testid: `${prefix}rematch-decline`,
          "aria-pressed": mine === "declined" ? "true" : "false",
          disabled: mine === "declined",
          onclick: () => send({ type: "rematch", accept: false, match: vote.match }),
        },
        mine === "declined" ? t("rematch.declined_you") : t("rematch.decline"),
      ),
    );
  }
  return h(
    "section",
    { class: "rematch", testid: `${prefix}rematch`, "aria-label": t("rematch.title") },
    h("h3", {}, t("rematch.title")),
    h("p", { class: "muted small" }, mine ? t("rematch.explain") : t("rematch.explain_watching")),
    h(
      "ul",
      { class: "rematch-votes" },
      vote.voters.map((pid) => {
        const seat = seatOf(pid);
        const s = state(pid);
        return h(
          "li",
          { class: `vote-${s}`, testid: `${prefix}rematch-voter-${seat ?? pid}`, "data-vote": s },
          h("span", { class: "vote-mark", "aria-hidden": "true" }, s === "accepted" ? "✓" : s === "declined" ? "✗" : "…"),
          h("span", { class: "who" }, nameOf(pid), pid === me ? ` ${t("seat.you")}` : ""),
          h("span", { class: "muted vote-text" }, t(`rematch.vote_${s}`)),
        );
      }),
    ),
    h("p", { class: declined.length ? "rematch-status declined" : "rematch-status", role: "status", testid: `${prefix}rematch-status` }, status),
    buttons.length ? h("div", { class: "row rematch-buttons" }, buttons) : null,
  );
}
