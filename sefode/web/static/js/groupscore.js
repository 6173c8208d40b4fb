// The group's running score on the end-of-match card: the people who just played (two or more, bots aside) and
// who won how many of the matches they have played together in this game (GET /api/matches/{id}/group, from
// sefode/accounts/progress.py). Loaded once per match; the card draws it when it is there.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { groupScore } from "./profile.js";

export function createGroupScore(redraw) {
  const loaded = new Map(); // match id -> group (null: none) | undefined while loading

  function load(matchId) {
    if (!matchId || loaded.has(matchId)) return;
    loaded.set(matchId, undefined);
    api("GET", `/matches/${encodeURIComponent(matchId)}/group`)
      .then((data) => {
        loaded.set(matchId, (data && data.group) || null);
        if (data && data.group) redraw();
      })
      .catch(() => loaded.set(matchId, null)); // a view only: the card is whole without it
  }

  /** The block for the end card of ``matchId`` (null until loaded, and for a match of fewer than two people). */
  function block(matchId) {
    load(matchId);
    const group = loaded.get(matchId);
    if (!group || group.matches < 1) return null;
    return h("section", { class: "end-group", testid: "end-group" }, h("h3", {}, t("end.group_title")), groupScore(group, "end-group-score"));
  }

  return { block };
}
