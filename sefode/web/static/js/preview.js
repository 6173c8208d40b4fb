// What a visitor sees of a table before choosing a nickname (issue 23): the room's name, its game, whether a match
// is on and who holds each seat, from `GET /api/rooms/{id}?invite=` (an invite-only room's summary needs the invite
// from the link). And the page of an invite-only room reached without its invite: no password to type, a link to ask
// for.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { gameSpec, matchTitle, optionSummary } from "./games.js";
import { botAccountName, botLabel } from "./seats.js";

/**
 * The room's summary and its game's spec, `{summary, spec}`. Throws the API's error (`room/bad_invite`,
 * `room/not_found`); `invite` may be null.
 */
export async function loadPreview(roomId, invite) {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const summary = await api("GET", `/rooms/${encodeURIComponent(roomId)}${query}`);
  let spec = null;
  try {
    spec = await gameSpec(summary.game);
  } catch {
    // The game's name is all the preview loses.
  }
  return { summary, spec };
}

function seatText(entry) {
  if (entry.bot_account) return botAccountName(entry.name);
  if (entry.name) return entry.name;
  if (entry.bot) return botLabel(entry.seat, entry.bot);
  return t("seat.free");
}

/** The table's preview: a panel for the top of the nickname gate. */
export function tablePreview({ summary, spec }) {
  const game = spec ? matchTitle(spec, summary.options) : summary.game;
  const details = spec ? optionSummary(spec, summary.options).filter((part) => part !== game) : [];
  const status = summary.playing ? t("preview.playing") : t("preview.waiting");
  const seats = Array.isArray(summary.seat_list) ? summary.seat_list : null;
  return h(
    "div",
    { class: "panel table-preview", testid: "table-preview" },
    h("p", { class: "preview-kicker" }, t("preview.kicker")),
    h("h2", { class: "preview-room", testid: "preview-room" }, summary.name),
    h(
      "p",
      { class: "preview-game" },
      h("strong", { testid: "preview-game" }, game),
      details.length ? h("span", { class: "muted" }, ` · ${details.join(" · ")}`) : null,
    ),
    h(
      "p",
      { class: "preview-status", testid: "preview-status" },
      `${status} · ${t("lobby.seats_taken", { taken: summary.seats_taken, seats: summary.seats })}`,
    ),
    seats
      ? h(
          "ul",
          { class: "preview-seats", testid: "preview-seats", "aria-label": t("room.seating") },
          seats.map((entry) =>
            h(
              "li",
              { class: entry.name || entry.bot ? "taken" : "free", testid: `preview-seat-${entry.seat}` },
              h("span", { class: "preview-seat-n" }, t("seat.number", { n: entry.seat + 1 })),
              h("span", { class: "preview-seat-who" }, seatText(entry)),
            ),
          ),
        )
      : null,
  );
}

/** An invite-only room reached without its invite (its plain address): nothing to type, a link to ask for. */
export function inviteOnlyPage() {
  return h(
    "section",
    { class: "page narrow invite-only-page", testid: "invite-only-page" },
    h(
      "div",
      { class: "panel" },
      h("h1", {}, t("invite_only.title")),
      h("p", { testid: "invite-only" }, t("invite_only.text")),
      h("a", { class: "button primary", href: "/", "data-link": true, testid: "invite-only-home" }, t("nav.back_home")),
    ),
  );
}
