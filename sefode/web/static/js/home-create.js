// The home page's form to create a room: its name, the game and its options from the schema, who sits where (a human or
// a bot of a level, per seat), the clock, outside bot accounts, and who may enter (public, password, invite).
import { api, currentPlayer } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { optionForm } from "./optionsform.js";
import { GAME_KEY, field, gamePicker, optionsErrorText, range, select } from "./home-forms.js";

/** One select per seat of the table the options say (a human, or a bot of a level); `draw(spec, n)` keeps choices. */
function botSeats() {
  const box = h("div", { class: "bot-seats", testid: "create-bots" });
  const selects = [];
  function draw(spec, n) {
    const keep = selects.map((s) => s.value);
    selects.length = 0;
    const levels = spec.bot_levels || [];
    box.replaceChildren(
      ...range(0, n - 1).map((seat) => {
        const sel = select(
          `create-bot-${seat}`,
          [["", t("seat.human")], ...levels.map((l) => [l, t("seat.bot_level", { level: t(`level.${l}`) })])],
          levels.includes(keep[seat]) ? keep[seat] : "",
        );
        selects.push(sel);
        return h("label", { class: "seat-pick" }, h("span", {}, t("seat.number", { n: seat + 1 })), sel);
      }),
    );
  }
  /** The seats given to bots: {"<seat>": level}. */
  function values() {
    const bots = {};
    selects.forEach((sel, seat) => {
      if (sel.value) bots[String(seat)] = sel.value;
    });
    return bots;
  }
  return { box, draw, values };
}

/** Who may enter: the visibility select and the password field it shows for "password". */
function visibilityFields() {
  const visibility = select(
    "create-visibility",
    ["public", "password", "invite"].map((v) => [v, t(`create.visibility_${v}`)]),
    "public",
  );
  const password = h("input", { type: "password", testid: "create-password", maxlength: "64", autocomplete: "new-password" });
  const passwordField = field("create.password", password);
  visibility.addEventListener("change", () => {
    passwordField.hidden = visibility.value !== "password";
  });
  passwordField.hidden = true;
  return { visibility, password, passwordField };
}

/** Bot accounts of other players (issue 15): off unless the owner says so; the server refuses them a seat otherwise. */
function outsideBotsField() {
  const box = h("input", { type: "checkbox", testid: "create-outside-bots", "aria-describedby": "create-outside-bots-hint" });
  const label = h(
    "label",
    { class: "check create-outside-bots" },
    box,
    h("span", {}, t("create.outside_bots")),
    h("small", { class: "muted", id: "create-outside-bots-hint" }, t("create.outside_bots_hint")),
  );
  return { box, label };
}

/** The room is created, then opened; its invite and password are kept for this tab. */
async function createRoom(body, navigate) {
  const data = await api("POST", "/rooms", body);
  if (data.invite_token) sessionStorage.setItem(`sefode.invite.${data.room_id}`, data.invite_token);
  if (body.password) sessionStorage.setItem(`sefode.password.${data.room_id}`, body.password);
  navigate(`/room/${data.room_id}`);
}

/**
 * @param {{games: object[], byName: Map<string, object>, firstGame: string | null, adjusters: Map<string, Function>,
 *          session: () => Promise<object | null>, navigate: (path: string) => void}} home
 * @returns {HTMLElement} the panel
 */
export function createPanel({ games, byName, firstGame, adjusters, session, navigate }) {
  const roomName = h("input", { testid: "create-name", maxlength: "40", placeholder: t("create.name_placeholder") });
  const createGame = gamePicker("create-game", games, firstGame);
  const optionsBox = h("div", { class: "create-options", testid: "create-game-options" });
  const clock = select("create-clock", [[15, "15 s"], [30, "30 s"], [60, "60 s"], [120, "120 s"]], 30);
  const { visibility, password, passwordField } = visibilityFields();
  const bots = botSeats();
  const outsideBots = outsideBotsField();
  let create = null;

  function seatCount() {
    if (!create) return 0;
    const { spec, form } = create;
    const value = spec.seats_option ? form.values()[spec.seats_option] : null;
    return Number.isInteger(value) ? value : spec.min_seats;
  }
  const drawBotSeats = () => create && bots.draw(create.spec, seatCount());
  function drawCreate() {
    const spec = byName.get(createGame.value);
    if (!spec) return;
    const keep = create && create.spec === spec ? create.form.values() : undefined;
    const form = optionForm(spec, { prefix: "create", values: keep, adjust: adjusters.get(spec.name), onChange: () => drawBotSeats() });
    create = { spec, form };
    optionsBox.replaceChildren(form.element);
    drawBotSeats();
  }
  createGame.addEventListener("change", () => {
    localStorage.setItem(GAME_KEY, createGame.value);
    drawCreate();
  });
  const createButton = h("button", { class: "primary", type: "submit", testid: "create-room" }, t("create.submit"));
  const gameField = field("create.game", createGame);
  gameField.hidden = games.length < 2;
  const form = h(
    "form",
    { class: "create-form", testid: "create-form" },
    field("create.name", roomName),
    gameField,
    optionsBox,
    h("div", { class: "grid2" }, field("create.clock", clock)),
    h("fieldset", {}, h("legend", {}, t("create.bots")), bots.box),
    outsideBots.label,
    field("create.visibility", visibility),
    passwordField,
    createButton,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!create || !(await session())) return;
    const body = {
      name: roomName.value.trim() || t("create.default_name", { name: currentPlayer().name }),
      game: create.spec.name,
      options: create.form.values(),
      bots: bots.values(),
      clock_s: Number(clock.value),
      visibility: visibility.value,
      outside_bots: outsideBots.box.checked,
    };
    if (visibility.value === "password") body.password = password.value;
    createButton.disabled = true;
    try {
      await createRoom(body, navigate);
    } catch (error) {
      toast(optionsErrorText(error), "error");
      createButton.disabled = false;
    }
  });
  drawCreate();
  return h("article", { class: "panel create" }, h("h2", {}, t("create.title")), form);
}
