// Home page: nickname (guest session), solo in one click, lobby of public rooms, create a room. The games, their
// options, bot levels and seat ranges come from `/api/games` (games.js); no game is named here.
import { api, currentPlayer, ensureSession, savedName } from "./api.js";
import { h, toast } from "./dom.js";
import { errorText, t, tn } from "./i18n.js";
import { gameModule, gameTitle, loadGames, matchTitle, optionSummary } from "./games.js";
import { optionForm } from "./optionsform.js";
import { friendsPanel } from "./friends.js";

const GAME_KEY = "sefode.game";

function field(labelKey, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "label" }, t(labelKey)), control, hint ? h("small", { class: "muted" }, hint) : null);
}

function select(testid, options, value) {
  return h(
    "select",
    { testid },
    options.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label)),
  );
}

function range(from, to) {
  const out = [];
  for (let i = from; i <= to; i += 1) out.push(i);
  return out;
}

/** A refusal of options says why (the engine's reason) after the catalogue's words. */
function optionsErrorText(error) {
  const text = errorText(error);
  if (error && error.code === "options/invalid" && error.message && error.message !== text) return `${text} ${error.message}`;
  return text;
}

/** The game module's own rules between option fields (e.g. pairs only for an even table), when it has some. */
function adjusterFor(modules, spec) {
  return (form) => {
    const mod = modules.get(spec.name);
    if (mod && typeof mod.adjustOptionForm === "function") mod.adjustOptionForm(form, spec);
  };
}

function gamePicker(testid, games, chosen) {
  return select(
    testid,
    games.map((g) => [g.name, gameTitle(g)]),
    chosen,
  );
}

export async function renderHome(ctx) {
  const me = currentPlayer();
  const nick = h("input", {
    testid: "nickname",
    maxlength: "24",
    autocomplete: "nickname",
    value: (me && me.name) || savedName(),
    placeholder: t("home.nickname_placeholder"),
  });
  async function session() {
    const name = nick.value.trim();
    if (!name) {
      nick.focus();
      toast(t("home.nickname_needed"), "error");
      return null;
    }
    try {
      const player = await ensureSession(name);
      ctx.refreshHeader();
      return player;
    } catch (error) {
      toast(errorText(error), "error");
      return null;
    }
  }

  let games = [];
  try {
    games = await loadGames();
  } catch (error) {
    ctx.app.append(h("section", { class: "page narrow" }, h("p", { class: "error", testid: "games-error" }, errorText(error))));
    return;
  }
  const byName = new Map(games.map((g) => [g.name, g]));
  const stored = localStorage.getItem(GAME_KEY);
  const firstGame = byName.has(stored) ? stored : games.length ? games[0].name : null;
  // The games' modules may add their own rules between option fields; the forms work without them.
  const modules = new Map();
  await Promise.all(games.map((g) => gameModule(g).then((mod) => modules.set(g.name, mod))));
  const adjusters = new Map(games.map((g) => [g.name, adjusterFor(modules, g)]));

  // ---- solo: a game, its options (the seats come from the number of bots), bots and their level
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
      ctx.navigate(`/room/${data.room_id}`);
    } catch (error) {
      toast(optionsErrorText(error), "error");
      soloButton.disabled = false;
    }
  });
  drawSolo();

  // ---- lobby
  const lobbyList = h("div", { class: "lobby-list", testid: "lobby-list" });
  async function refreshLobby() {
    try {
      const data = await api("GET", "/rooms");
      const rooms = Array.isArray(data) ? data : data.rooms || [];
      if (!rooms.length) {
        lobbyList.replaceChildren(h("p", { class: "muted" }, t("lobby.empty")));
        return;
      }
      lobbyList.replaceChildren(
        h(
          "ul",
          { class: "lobby" },
          rooms.map((room) => {
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
            return h(
              "li",
              { class: "lobby-item", testid: `lobby-room-${room.id}` },
              h("div", { class: "lobby-info" }, h("b", {}, room.name || room.id), h("small", { class: "muted" }, details.join(" · "))),
              h(
                "button",
                {
                  type: "button",
                  testid: `lobby-join-${room.id}`,
                  onclick: async () => {
                    if (await session()) ctx.navigate(`/room/${room.id}`);
                  },
                },
                room.playing ? t("lobby.watch") : t("lobby.join"),
              ),
            );
          }),
        ),
      );
    } catch (error) {
      lobbyList.replaceChildren(h("p", { class: "error" }, errorText(error)));
    }
  }

  // ---- create a room: the game, its options from the schema, who sits where, the clock, who may enter
  const roomName = h("input", { testid: "create-name", maxlength: "40", placeholder: t("create.name_placeholder") });
  const createGame = gamePicker("create-game", games, firstGame);
  const optionsBox = h("div", { class: "create-options", testid: "create-game-options" });
  const clock = select("create-clock", [[15, "15 s"], [30, "30 s"], [60, "60 s"], [120, "120 s"]], 30);
  const visibility = select(
    "create-visibility",
    ["public", "password", "invite"].map((v) => [v, t(`create.visibility_${v}`)]),
    "public",
  );
  const password = h("input", { type: "password", testid: "create-password", maxlength: "64", autocomplete: "new-password" });
  const passwordField = field("create.password", password);
  const botsBox = h("div", { class: "bot-seats", testid: "create-bots" });
  const botSelects = [];
  let create = null;

  function seatCount() {
    if (!create) return 0;
    const { spec, form } = create;
    const value = spec.seats_option ? form.values()[spec.seats_option] : null;
    return Number.isInteger(value) ? value : spec.min_seats;
  }
  function drawBotSeats() {
    if (!create) return;
    const n = seatCount();
    const keep = botSelects.map((s) => s.value);
    botSelects.length = 0;
    const levels = create.spec.bot_levels || [];
    botsBox.replaceChildren(
      ...range(0, n - 1).map((seat) => {
        const sel = select(
          `create-bot-${seat}`,
          [["", t("seat.human")], ...levels.map((l) => [l, t("seat.bot_level", { level: t(`level.${l}`) })])],
          levels.includes(keep[seat]) ? keep[seat] : "",
        );
        botSelects.push(sel);
        return h("label", { class: "seat-pick" }, h("span", {}, t("seat.number", { n: seat + 1 })), sel);
      }),
    );
  }
  function drawCreate() {
    const spec = byName.get(createGame.value);
    if (!spec) return;
    const keep = create && create.spec === spec ? create.form.values() : undefined;
    const form = optionForm(spec, {
      prefix: "create",
      values: keep,
      adjust: adjusters.get(spec.name),
      onChange: () => drawBotSeats(),
    });
    create = { spec, form };
    optionsBox.replaceChildren(form.element);
    drawBotSeats();
  }
  createGame.addEventListener("change", () => {
    localStorage.setItem(GAME_KEY, createGame.value);
    drawCreate();
  });
  visibility.addEventListener("change", () => {
    passwordField.hidden = visibility.value !== "password";
  });
  passwordField.hidden = true;
  // Bot accounts of other players (issue 15): off unless the owner says so; the server refuses them a seat otherwise.
  const outsideBots = h("input", { type: "checkbox", testid: "create-outside-bots", "aria-describedby": "create-outside-bots-hint" });
  const outsideBotsField = h(
    "label",
    { class: "check create-outside-bots" },
    outsideBots,
    h("span", {}, t("create.outside_bots")),
    h("small", { class: "muted", id: "create-outside-bots-hint" }, t("create.outside_bots_hint")),
  );
  const createButton = h("button", { class: "primary", type: "submit", testid: "create-room" }, t("create.submit"));
  const gameField = field("create.game", createGame);
  gameField.hidden = games.length < 2;
  const soloGameField = field("create.game", soloGame);
  soloGameField.hidden = games.length < 2;
  const form = h(
    "form",
    { class: "create-form", testid: "create-form" },
    field("create.name", roomName),
    gameField,
    optionsBox,
    h("div", { class: "grid2" }, field("create.clock", clock)),
    h("fieldset", {}, h("legend", {}, t("create.bots")), botsBox),
    outsideBotsField,
    field("create.visibility", visibility),
    passwordField,
    createButton,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!create || !(await session())) return;
    const bots = {};
    botSelects.forEach((sel, seat) => {
      if (sel.value) bots[String(seat)] = sel.value;
    });
    const body = {
      name: roomName.value.trim() || t("create.default_name", { name: currentPlayer().name }),
      game: create.spec.name,
      options: create.form.values(),
      bots,
      clock_s: Number(clock.value),
      visibility: visibility.value,
      outside_bots: outsideBots.checked,
    };
    if (visibility.value === "password") body.password = password.value;
    createButton.disabled = true;
    try {
      const data = await api("POST", "/rooms", body);
      if (data.invite_token) sessionStorage.setItem(`sefode.invite.${data.room_id}`, data.invite_token);
      if (body.password) sessionStorage.setItem(`sefode.password.${data.room_id}`, body.password);
      ctx.navigate(`/room/${data.room_id}`);
    } catch (error) {
      toast(optionsErrorText(error), "error");
      createButton.disabled = false;
    }
  });
  drawCreate();

  // ---- rules: every game's pages (a game with variants has one per variant)
  const rulesLinks = [];
  for (const spec of games) {
    for (const page of spec.rules || []) {
      const variant = (spec.variants || []).find((v) => v.rules === page);
      const title = variant ? matchTitle(spec, { variant: variant.id }) : gameTitle(spec);
      rulesLinks.push(h("li", {}, h("a", { href: `/rules/${encodeURIComponent(page)}`, "data-link": true, testid: `rules-link-${page}` }, title)));
    }
  }

  // ---- friends (issue 23): the list, requests and invitations of an account; a note for a guest
  const friends = friendsPanel();

  ctx.app.append(
    h(
      "section",
      { class: "page home" },
      h(
        "div",
        { class: "hero" },
        h("h1", {}, t("home.title")),
        h("p", { class: "muted" }, t("home.tagline")),
        field("home.nickname", nick),
      ),
      h(
        "div",
        { class: "home-grid" },
        h(
          "article",
          { class: "panel solo", testid: "solo-panel" },
          h("h2", {}, t("home.solo_title")),
          h("p", { class: "muted" }, t("home.solo_text")),
          soloGameField,
          soloBox,
          soloButton,
        ),
        friends.element,
        h(
          "article",
          { class: "panel lobby-panel" },
          h(
            "div",
            { class: "row between" },
            h("h2", {}, t("lobby.title")),
            h("button", { type: "button", class: "ghost", testid: "lobby-refresh", onclick: refreshLobby }, t("lobby.refresh")),
          ),
          lobbyList,
        ),
        h("article", { class: "panel create" }, h("h2", {}, t("create.title")), form),
        h("article", { class: "panel rules-links" }, h("h2", {}, t("rules.title")), h("ul", {}, rulesLinks)),
      ),
    ),
  );
  refreshLobby();
  friends.refresh();
  const timer = setInterval(() => {
    refreshLobby();
    friends.refresh(); // a friend's invitation shows up here within seconds
  }, 10000);
  ctx.onLeave(() => clearInterval(timer));
}
