// The home page's solo panel: a game, its options (the seats come from the number of bots), how many bots and their
// level, and one click to play.
import { api } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { optionForm } from "./optionsform.js";
import { GAME_KEY, field, gamePicker, optionsErrorText, range, select } from "./home-forms.js";

/**
 * @param {{games: object[], byName: Map<string, object>, firstGame: string | null, adjusters: Map<string, Function>,
 *          session: () => Promise<object | null>, navigate: (path: string) => void}} home
 * @returns {HTMLElement} the panel
 */
export function soloPanel({ games, byName, firstGame, adjusters, session, navigate }) {
  const soloGame = gamePicker("solo-game", games, firstGame);
  const soloBox = h("div", { class: "solo-fields", testid: "solo-fields" });
  const soloButton = h("button", { class: "primary big", testid: "solo-start", type: "button" }, t("home.solo_start"));
  let solo = null;
  function drawSolo() {
    const spec = byName.get(soloGame.value);
    if (!spec) return;
    const most = Math.max(1, spec.max_seats - 1);
    const fewest = Math.min(most, Math.max(1, spec.min_seats - 1));
    const keep = solo && solo.spec === spec ? { bots: solo.bots.value, level: solo.level.value, values: solo.form.values() } : null;
    const bots = select("solo-bots", range(fewest, most).map((n) => [n, String(n)]), keep ? keep.bots : Math.min(3, most));
    const levels = spec.bot_levels || [];
    const level = select("solo-level", levels.map((l) => [l, t(`level.${l}`)]), keep ? keep.level : levels.includes("normal") ? "normal" : levels[0]);
    const form = optionForm(spec, {
      prefix: "solo",
      exclude: spec.seats_option ? [spec.seats_option] : [],
      values: keep ? keep.values : undefined,
      adjust: adjusters.get(spec.name),
      // One click to play: only the variant is in sight, every other option keeps its default unless opened.
      fold: (option) => option.key !== "variant",
    });
    solo = { spec, bots, level, form };
    soloBox.replaceChildren(h("div", { class: "grid3" }, field("home.solo_bots", bots), field("home.solo_level", level)), form.element);
  }
  soloGame.addEventListener("change", () => {
    localStorage.setItem(GAME_KEY, soloGame.value);
    drawSolo();
  });
  soloButton.addEventListener("click", async () => {
    if (!solo || !(await session())) return;
    soloButton.disabled = true;
    try {
      const body = { game: solo.spec.name, options: solo.form.values(), bots: Number(solo.bots.value), level: solo.level.value };
      const data = await api("POST", "/solo", body);
      navigate(`/room/${data.room_id}`);
    } catch (error) {
      toast(optionsErrorText(error), "error");
      soloButton.disabled = false;
    }
  });
  drawSolo();
  const soloGameField = field("create.game", soloGame);
  soloGameField.hidden = games.length < 2;
  return h(
    "article",
    { class: "panel solo", testid: "solo-panel" },
    h("h2", {}, t("home.solo_title")),
    h("p", { class: "muted" }, t("home.solo_text")),
    soloGameField,
    soloBox,
    soloButton,
  );
}
