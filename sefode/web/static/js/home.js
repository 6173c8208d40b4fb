// Home page: nickname (guest session), solo in one click, lobby of public rooms, create a room.
import { api, currentPlayer, ensureSession, savedName } from "./api.js";
import { h, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";

const LEVELS = ["easy", "normal", "hard"];

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

  // ---- solo
  const soloBots = select("solo-bots", range(1, 7).map((n) => [n, String(n)]), 3);
  const soloLevel = select("solo-level", LEVELS.map((l) => [l, t(`level.${l}`)]), "normal");
  const soloVariant = select("solo-variant", [["sefode", t("variant.sefode")], ["7letras", t("variant.7letras")]], "sefode");
  const soloButton = h("button", { class: "primary big", testid: "solo-start", type: "button" }, t("home.solo_start"));
  soloButton.addEventListener("click", async () => {
    if (!(await session())) return;
    soloButton.disabled = true;
    try {
      const body = { variant: soloVariant.value, bots: Number(soloBots.value), level: soloLevel.value };
      const data = await api("POST", "/solo", body);
      ctx.navigate(`/room/${data.room_id}`);
    } catch (error) {
      toast(errorText(error), "error");
      soloButton.disabled = false;
    }
  });

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
            const variant = room.variant || (room.options && room.options.variant) || "sefode";
            const seats = room.seats ?? (room.options && room.options.players);
            const details = [
              t(`variant.${variant}`),
              t("lobby.seats_taken", { taken: room.seats_taken ?? 0, seats: seats ?? "?" }),
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

  // ---- create a room
  const roomName = h("input", { testid: "create-name", maxlength: "40", placeholder: t("create.name_placeholder") });
  const variant = select("create-variant", [["sefode", t("variant.sefode")], ["7letras", t("variant.7letras")]], "sefode");
  const decks = select("create-decks", [[1, "1"], [2, "2"]], 1);
  const teams = h("input", { type: "checkbox", testid: "create-teams" });
  const players = select("create-players", range(2, 8).map((n) => [n, String(n)]), 4);
  const lives = h("input", { type: "number", min: "1", max: "99", value: "5", testid: "create-lives" });
  const maxCards = h("input", { type: "number", min: "1", max: "40", placeholder: t("create.max_cards_auto"), testid: "create-max-cards" });
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
  function drawBotSeats() {
    const n = Number(players.value);
    const keep = botSelects.map((s) => s.value);
    botSelects.length = 0;
    botsBox.replaceChildren(
      ...range(0, n - 1).map((seat) => {
        const sel = select(
          `create-bot-${seat}`,
          [["", t("seat.human")], ...LEVELS.map((l) => [l, t("seat.bot_level", { level: t(`level.${l}`) })])],
          keep[seat] || "",
        );
        botSelects.push(sel);
        return h("label", { class: "seat-pick" }, h("span", {}, t("seat.number", { n: seat + 1 })), sel);
      }),
    );
  }
  function syncForm() {
    const seven = variant.value === "7letras";
    decks.disabled = seven;
    teams.disabled = seven || ![4, 6, 8].includes(Number(players.value));
    if (teams.disabled) teams.checked = false;
    lives.disabled = seven;
    if (seven) decks.value = "1";
    passwordField.hidden = visibility.value !== "password";
    drawBotSeats();
  }
  for (const el of [variant, players, visibility]) el.addEventListener("change", syncForm);
  const createButton = h("button", { class: "primary", type: "submit", testid: "create-room" }, t("create.submit"));
  const form = h(
    "form",
    { class: "create-form", testid: "create-form" },
    field("create.name", roomName),
    h(
      "div",
      { class: "grid2" },
      field("create.variant", variant),
      field("create.players", players),
      field("create.decks", decks),
      field("create.lives", lives),
      field("create.max_cards", maxCards),
      field("create.clock", clock),
    ),
    h("label", { class: "check" }, teams, h("span", {}, t("create.teams"))),
    h("fieldset", {}, h("legend", {}, t("create.bots")), botsBox),
    field("create.visibility", visibility),
    passwordField,
    createButton,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!(await session())) return;
    const seven = variant.value === "7letras";
    const options = { variant: variant.value, players: Number(players.value) };
    if (!seven) {
      options.decks = Number(decks.value);
      options.teams = teams.checked;
      options.lives = Number(lives.value) || 5;
    }
    if (maxCards.value) options.max_cards = Number(maxCards.value);
    const bots = {};
    botSelects.forEach((sel, seat) => {
      if (sel.value) bots[String(seat)] = sel.value;
    });
    const body = {
      name: roomName.value.trim() || t("create.default_name", { name: currentPlayer().name }),
      game: "fodinha",
      options,
      bots,
      clock_s: Number(clock.value),
      visibility: visibility.value,
    };
    if (visibility.value === "password") body.password = password.value;
    createButton.disabled = true;
    try {
      const data = await api("POST", "/rooms", body);
      if (data.invite_token) sessionStorage.setItem(`sefode.invite.${data.room_id}`, data.invite_token);
      if (body.password) sessionStorage.setItem(`sefode.password.${data.room_id}`, body.password);
      ctx.navigate(`/room/${data.room_id}`);
    } catch (error) {
      toast(errorText(error), "error");
      createButton.disabled = false;
    }
  });
  syncForm();

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
          h("div", { class: "grid3" }, field("home.solo_bots", soloBots), field("home.solo_level", soloLevel), field("create.variant", soloVariant)),
          soloButton,
        ),
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
        h(
          "article",
          { class: "panel rules-links" },
          h("h2", {}, t("rules.title")),
          h(
            "ul",
            {},
            ["sefode", "7letras"].map((v) =>
              h("li", {}, h("a", { href: `/rules/${v}`, "data-link": true, testid: `rules-link-${v}` }, t(`variant.${v}`))),
            ),
          ),
        ),
      ),
    ),
  );
  refreshLobby();
  const timer = setInterval(refreshLobby, 10000);
  ctx.onLeave(() => clearInterval(timer));
}
