// The home page's lobby: the public rooms (game and options in one line, seats taken, bots, playing or waiting), each
// to join or watch. Refreshed by the page.
import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText, t, tn } from "./i18n.js";
import { optionSummary } from "./games.js";

function lobbyItem(room, { games, byName, session, navigate }) {
  const spec = byName.get(room.game);
  const options = room.options || {};
  const seats = room.seats ?? (spec && spec.seats_option ? options[spec.seats_option] : null);
  const details = [
    ...(spec ? optionSummary(spec, options, games.length > 1) : [room.game || "?"]),
    t("lobby.seats_taken", { taken: room.seats_taken ?? 0, seats: seats ?? "?" }),
    room.bots ? tn("lobby.bots", room.bots) : null,
    room.playing ? t("lobby.playing") : t("lobby.waiting"),
    room.visibility === "password" ? t("lobby.password") : null,
  ].filter(Boolean);
  const join = async () => {
    if (await session()) navigate(`/room/${room.id}`);
  };
  return h(
    "li",
    { class: "lobby-item", testid: `lobby-room-${room.id}` },
    h("div", { class: "lobby-info" }, h("b", {}, room.name || room.id), h("small", { class: "muted" }, details.join(" · "))),
    h("button", { type: "button", testid: `lobby-join-${room.id}`, onclick: join }, room.playing ? t("lobby.watch") : t("lobby.join")),
  );
}

/**
 * @param {{games: object[], byName: Map<string, object>, session: () => Promise<object | null>,
 *          navigate: (path: string) => void}} home
 * @returns {{element: HTMLElement, refresh: () => Promise<void>}}
 */
export function lobbyPanel(home) {
  const lobbyList = h("div", { class: "lobby-list", testid: "lobby-list" });
  async function refresh() {
    try {
      const data = await api("GET", "/rooms");
      const rooms = Array.isArray(data) ? data : data.rooms || [];
      if (!rooms.length) {
        lobbyList.replaceChildren(h("p", { class: "muted" }, t("lobby.empty")));
        return;
      }
      lobbyList.replaceChildren(h("ul", { class: "lobby" }, rooms.map((room) => lobbyItem(room, home))));
    } catch (error) {
      lobbyList.replaceChildren(h("p", { class: "error" }, errorText(error)));
    }
  }
  const element = h(
    "article",
    { class: "panel lobby-panel" },
    h(
      "div",
      { class: "row between" },
      h("h2", {}, t("lobby.title")),
      h("button", { type: "button", class: "ghost", testid: "lobby-refresh", onclick: refresh }, t("lobby.refresh")),
    ),
    lobbyList,
  );
  return { element, refresh };
}
