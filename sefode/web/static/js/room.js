// Room page: the seating and owner controls between matches, the table during one, and the side panel
// (scoreboard, tricks by winner, chat, recap). One WebSocket per page, reconnecting by itself.
import { api, currentPlayer, ensureSession, forgetSession, getToken, loadSession, savedName } from "./api.js";
import { cardEl, cardShort } from "./cards.js";
import { banner, confirmDialog, copyText, h, toast } from "./dom.js";
import { errorText, t, tn } from "./i18n.js";
import { TRICK_COLLECT_MS, TRICK_SHOW_MS, renderTable, scoreEl, seatName, teamBadge, teamOf, tickClocks } from "./table.js";
import { RoomConnection } from "./ws.js";
import { tournamentPanel } from "./tournament.js";

const LEVELS = ["easy", "normal", "hard"];

function placeBadge(place) {
  const medal = ["", "gold", "silver", "bronze"][place] || "plain";
  return h("span", { class: `place medal-${medal}`, title: t("end.place_n", { n: place }) }, `${place}º`);
}

/** Ask for a nickname when there is no session yet (arriving by a shared link). Resolves once there is one. */
function nicknameGate(ctx) {
  return new Promise((resolve) => {
    const input = h("input", { testid: "nickname", maxlength: "24", value: savedName(), placeholder: t("home.nickname_placeholder") });
    const form = h(
      "form",
      { class: "panel gate", testid: "nickname-gate" },
      h("h2", {}, t("gate.title")),
      h("label", { class: "field" }, h("span", { class: "label" }, t("home.nickname")), input),
      h("button", { class: "primary", type: "submit", testid: "nickname-submit" }, t("gate.enter")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      try {
        await ensureSession(input.value);
        ctx.refreshHeader();
        form.remove();
        resolve();
      } catch (error) {
        toast(errorText(error), "error");
      }
    });
    ctx.app.append(h("section", { class: "page narrow" }, form));
    input.focus();
  });
}

export async function renderInvite(ctx, token) {
  if (!currentPlayer()) await nicknameGate(ctx);
  try {
    const data = await api("GET", `/invite/${encodeURIComponent(token)}`);
    sessionStorage.setItem(`sefode.invite.${data.room_id}`, token);
    ctx.navigate(`/room/${data.room_id}`, true);
  } catch (error) {
    ctx.app.replaceChildren(
      h("section", { class: "page narrow" }, h("p", { class: "error", testid: "invite-error" }, errorText(error)), h("a", { href: "/", "data-link": true }, t("nav.back_home"))),
    );
  }
}

/** With a saved token but no answer yet (the server may be restarting), keep asking for a while. */
async function resumeSession() {
  for (let attempt = 0; attempt < 30 && getToken() && !currentPlayer(); attempt += 1) {
    try {
      await loadSession();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500 + attempt * 250));
    }
  }
}

export async function renderRoom(ctx, roomId) {
  await resumeSession();
  if (!currentPlayer() || !getToken()) await nicknameGate(ctx);
  ctx.app.replaceChildren();
  const rs = {
    room: null,
    state: null,
    matchEnd: null,
    chat: [],
    log: [],
    tab: "score",
    unread: 0,
    conn: null,
    lastVersion: -1,
    lastMatchId: null,
    pendingAction: false,
  };
  const access = {
    invite: sessionStorage.getItem(`sefode.invite.${roomId}`) || undefined,
    password: sessionStorage.getItem(`sefode.password.${roomId}`) || undefined,
  };

  // ---- persistent layout
  const head = h("div", { class: "room-head", testid: "room-head" });
  const main = h("div", { class: "room-main", testid: "room-main" });
  const overlay = h("div", { class: "end-overlay", testid: "end-overlay", hidden: true });
  const tabButtons = h("nav", { class: "tabs side-tabs", role: "tablist" });
  const panes = {
    score: h("div", { class: "pane", testid: "pane-score" }),
    tricks: h("div", { class: "pane", testid: "pane-tricks" }),
    chat: h("div", { class: "pane chat-pane", testid: "pane-chat" }),
    log: h("div", { class: "pane", testid: "pane-log" }),
    room: h("div", { class: "pane", testid: "pane-room" }),
  };
  const chatList = h("ul", { class: "chat-list", testid: "chat-list" });
  const chatInput = h("input", { testid: "chat-input", maxlength: "500", placeholder: t("chat.placeholder"), autocomplete: "off" });
  const chatForm = h("form", { class: "chat-form" }, chatInput, h("button", { type: "submit", testid: "chat-send" }, t("chat.send")));
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (rs.conn.send({ type: "chat", text })) chatInput.value = "";
  });
  panes.chat.append(chatList, chatForm);
  const side = h("aside", { class: "side", testid: "side" }, tabButtons, ...Object.values(panes));
  const page = h("section", { class: "page room-page", testid: "room-page" }, head, h("div", { class: "room-body" }, main, side), overlay);
  ctx.app.append(page);

  function drawTabs() {
    const tableShown = Boolean(rs.state && rs.room && rs.room.match);
    const names = tableShown ? ["score", "tricks", "chat", "log", "room"] : ["score", "tricks", "chat", "log"];
    if (!names.includes(rs.tab)) rs.tab = "score";
    tabButtons.replaceChildren(
      ...names.map((name) =>
        h(
          "button",
          {
            type: "button",
            role: "tab",
            class: rs.tab === name ? "active" : "",
            "aria-selected": rs.tab === name ? "true" : "false",
            testid: `tab-${name}`,
            onclick: () => {
              rs.tab = name;
              if (name === "chat") rs.unread = 0;
              drawTabs();
            },
          },
          t(`tab.${name}`),
          name === "chat" && rs.unread ? h("span", { class: "badge" }, String(rs.unread)) : null,
        ),
      ),
    );
    for (const [name, pane] of Object.entries(panes)) pane.hidden = name !== rs.tab;
  }

  // ---- sending
  const send = (message) => {
    if (!rs.conn.send(message)) toast(t("error.offline"), "error");
  };
  function act(action) {
    if (!rs.state || rs.pendingAction) return;
    rs.pendingAction = true;
    send({ type: "action", action, version: rs.state.version });
  }

  // ---- drawing
  function mySeat() {
    if (rs.state && rs.state.seat !== null && rs.state.seat !== undefined) return rs.state.seat;
    return rs.room ? rs.room.your_seat ?? null : null;
  }
  function isOwner() {
    return Boolean(rs.room && currentPlayer() && rs.room.owner === currentPlayer().player_id);
  }
  function matchOn() {
    return Boolean(rs.room && rs.room.match && rs.state && rs.state.view.phase !== "over");
  }

  function drawHead() {
    const room = rs.room;
    if (!room) {
      head.replaceChildren(h("p", { class: "muted" }, t("common.loading")));
      return;
    }
    const inviteToken = room.invite_token || access.invite;
    const inviteUrl = inviteToken ? `${location.origin}/invite/${inviteToken}` : null;
    const linkInput = h("input", { readonly: true, class: "invite-input", testid: "invite-link", value: inviteUrl || location.href });
    const variant = (room.options && room.options.variant) || "sefode";
    const status = room.status === "paused" ? t("room.status_paused") : matchOn() ? t("room.status_playing") : t("room.status_waiting");
    head.replaceChildren(
      h(
        "div",
        { class: "room-title" },
        h("h1", { testid: "room-name" }, room.name || room.id),
        h("span", { class: "chip" }, t(`variant.${variant}`)),
        h("span", { class: `chip status-${room.status}`, testid: "room-status" }, status),
        h("span", { class: "chip", testid: "spectators", title: t("room.spectators_title") }, tn("room.spectators_n", room.spectators ?? 0)),
      ),
      h(
        "div",
        { class: "invite" },
        linkInput,
        h(
          "button",
          {
            type: "button",
            testid: "invite-copy",
            onclick: async () => toast((await copyText(linkInput.value, linkInput)) ? t("room.link_copied") : t("room.link_copy_failed")),
          },
          t("room.copy_link"),
        ),
      ),
    );
  }

  function drawMain() {
    const room = rs.room;
    if (!room) return;
    const resolving = rs.resolving && Date.now() - rs.resolving.since < TRICK_SHOW_MS + TRICK_COLLECT_MS ? rs.resolving : null;
    if (rs.state && rs.room.match) {
      const table = renderTable({
        room,
        state: rs.state,
        onBid: (b) => act({ bid: b }),
        onPlay: (card) => act({ play: card }),
        animateTrick: resolving,
      });
      main.replaceChildren(table, controls());
    } else {
      main.replaceChildren(seatingPanel(true));
    }
  }

  function controls() {
    const view = rs.state.view;
    const seat = mySeat();
    const seated = seat !== null && seat !== undefined && view.seat === seat;
    const items = [];
    if (seated && view.phase !== "over" && view.alive[seat] && !(view.left && view.left[seat])) {
      if (view.variant === "7letras" && view.cards > 1 && !view.shown[seat] && Array.isArray(view.hands[seat]) && view.hands[seat].length) {
        items.push(
          h(
            "button",
            {
              type: "button",
              testid: "show-hand",
              onclick: async () => {
                if (await confirmDialog(t("controls.show_confirm"))) send({ type: "action", action: { show: true }, version: rs.state.version });
              },
            },
            t("controls.show_hand"),
          ),
        );
      }
      const pause = rs.room.pause;
      const me = currentPlayer();
      const voted = Boolean(pause && me && (pause.votes || []).includes(me.player_id));
      items.push(
        h(
          "button",
          { type: "button", testid: "pause-vote", class: voted ? "active" : "", onclick: () => send({ type: "pause", vote: !voted }) },
          rs.room.status === "paused" ? t("controls.resume") : voted ? t("controls.unvote_pause") : t("controls.pause"),
          pause && pause.needed ? ` (${(pause.votes || []).length}/${pause.needed})` : "",
        ),
      );
      items.push(
        h(
          "button",
          {
            type: "button",
            class: "danger",
            testid: "leave-match",
            onclick: async () => {
              if (await confirmDialog(t("controls.leave_confirm"))) send({ type: "action", action: { leave: true }, version: rs.state.version });
            },
          },
          t("controls.leave"),
        ),
      );
    }
    if (seated && view.phase !== "over" && !view.alive[seat]) items.push(h("span", { class: "muted", testid: "you-are-out" }, t("controls.you_are_out")));
    if (!seated && rs.room.match && view.phase !== "over") {
      items.push(h("span", { class: "muted", testid: "spectating" }, t("room.spectating")));
      const boundary = view.phase === "bidding" && view.bids.every((b) => b === null) && !view.shown.some(Boolean);
      if (view.variant === "7letras" && boundary && view.seats < 8) {
        items.push(
          h(
            "button",
            { type: "button", class: "primary", testid: "join-table", onclick: () => send({ type: "action", action: { join: true }, version: rs.state.version }) },
            t("controls.join_table"),
          ),
        );
      }
    }
    if (rs.room.match && rs.room.match.seed_hash) {
      items.push(h("span", { class: "seed muted", title: t("room.seed_hash_title"), testid: "seed-hash" }, t("room.seed_hash", { hash: rs.room.match.seed_hash.slice(0, 12) })));
    }
    return h("div", { class: "controls", testid: "controls" }, items);
  }

  function seatingPanel(large) {
    const room = rs.room;
    const me = currentPlayer();
    const owner = isOwner();
    const between = !room.match || (rs.state && rs.state.view.phase === "over");
    const rows = (room.seats || []).map((info) => {
      const s = info.seat;
      const mine = me && info.player_id === me.player_id;
      let who;
      if (info.player_id) who = h("span", { class: "seat-who" }, info.name || "?", mine ? ` ${t("seat.you")}` : "", info.connected === false ? h("small", { class: "muted" }, ` ${t("seat.offline")}`) : null);
      else if (info.bot) who = h("span", { class: "seat-who" }, t("seat.bot_level", { level: t(`level.${info.bot}`) }));
      else who = h("span", { class: "seat-who muted" }, t("seat.empty"));
      const actions = [];
      if (!info.player_id && !info.bot && !mine) {
        actions.push(h("button", { type: "button", testid: `sit-${s}`, onclick: () => send({ type: "sit", seat: s }) }, t("seat.sit")));
      }
      if (mine && between) actions.push(h("button", { type: "button", testid: "stand", onclick: () => send({ type: "stand" }) }, t("seat.stand")));
      if (owner && between) {
        const sel = h(
          "select",
          { testid: `seat-bot-${s}`, "aria-label": t("seat.bot_select", { n: s + 1 }) },
          h("option", { value: "", selected: !info.bot }, info.player_id ? t("seat.human") : t("seat.free")),
          LEVELS.map((l) => h("option", { value: l, selected: info.bot === l }, t("seat.bot_level", { level: t(`level.${l}`) }))),
        );
        sel.addEventListener("change", () => send({ type: "set_seat", seat: s, bot: sel.value || null }));
        actions.push(sel);
      }
      const team = room.teams ? room.teams.find((tm) => (tm.seats || []).includes(s)) : null;
      return h(
        "li",
        { class: `seat-row${mine ? " mine" : ""}`, testid: `seat-row-${s}` },
        h("span", { class: "seat-no" }, t("seat.number", { n: s + 1 })),
        team ? h("span", { class: "team-symbol", style: { color: team.colour }, title: team.name }, team.symbol) : null,
        who,
        h("span", { class: "seat-actions" }, actions),
      );
    });
    const parts = [h("h2", {}, t("room.seating")), h("ul", { class: "seat-list", testid: "seat-list" }, rows)];
    if (room.teams && room.teams.length) parts.push(teamsEditor(owner && between));
    if (owner && between) {
      parts.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "primary big", testid: "start-match", onclick: () => send({ type: "start" }) }, room.last_match ? t("room.start_again") : t("room.start")),
        ),
      );
    } else if (between) {
      parts.push(h("p", { class: "muted", testid: "waiting-owner" }, t("room.waiting_owner")));
    }
    if (room.match && !between) parts.push(h("p", { class: "muted" }, t("room.next_match_note")));
    const opts = room.options || {};
    parts.push(
      h(
        "p",
        { class: "muted small" },
        [
          t(`variant.${opts.variant || "sefode"}`),
          tn("room.seats_n", (room.seats || []).length),
          opts.decks ? tn("room.decks_n", opts.decks) : null,
          opts.lives ? tn("score.lives", opts.lives) : null,
          opts.teams ? t("create.teams") : null,
          opts.max_cards ? t("room.max_cards", { n: opts.max_cards }) : null,
          room.clock_s ? t("room.clock", { s: room.clock_s }) : null,
        ]
          .filter(Boolean)
          .join(" · "),
      ),
    );
    if (room.last_match && large) parts.push(placementsBlock(room.last_match.placements, room.last_match.history_url, null, "last-placements"));
    if (large) parts.push(tournamentPanel(room, owner && between && !room.match && !room.last_match));
    return h("div", { class: `panel seating${large ? " large" : ""}`, testid: "seating" }, parts);
  }

  function teamsEditor(editable) {
    const room = rs.room;
    const n = (room.seats || []).length;
    const seatOptions = (selected) =>
      Array.from({ length: n }, (_, s) => h("option", { value: String(s), selected: s === selected }, `${t("seat.number", { n: s + 1 })} · ${seatName(room, s, null)}`));
    const rows = room.teams.map((team, i) => {
      if (!editable) return h("li", {}, teamBadge({ ...team, index: i }), " ", (team.seats || []).map((s) => seatName(room, s, null)).join(" + "));
      const name = h("input", { value: team.name || "", maxlength: "24", testid: `team-name-${i}`, "aria-label": t("team.name") });
      const colour = h("input", { type: "color", value: team.colour || "#d33f49", testid: `team-colour-${i}`, "aria-label": t("team.colour") });
      const symbol = h("input", { value: team.symbol || "", maxlength: "2", size: "2", testid: `team-symbol-${i}`, "aria-label": t("team.symbol") });
      const seats = team.seats || [i, i + n / 2];
      const first = h("select", { testid: `team-seat-${i}-0`, "aria-label": t("team.partner") }, seatOptions(seats[0]));
      const second = h("select", { testid: `team-seat-${i}-1`, "aria-label": t("team.partner") }, seatOptions(seats[1]));
      return h("li", { class: "team-edit" }, h("div", { class: "row" }, symbol, name, colour), h("div", { class: "row" }, first, "+", second));
    });
    const parts = [h("h3", {}, t("team.title")), h("ul", { class: "team-list", testid: "team-list" }, rows)];
    if (editable) {
      parts.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", testid: "teams-draw", onclick: () => send({ type: "set_teams", draw: true }) }, t("team.draw")),
          h(
            "button",
            {
              type: "button",
              testid: "teams-save",
              onclick: () => {
                const value = (id) => page.querySelector(`[data-testid=${id}]`).value;
                const teams = room.teams.map((_, i) => ({
                  name: value(`team-name-${i}`).trim() || t("team.default_name", { n: i + 1 }),
                  colour: value(`team-colour-${i}`),
                  symbol: value(`team-symbol-${i}`).trim() || "♠",
                }));
                const pairs = room.teams.map((_, i) => [Number(value(`team-seat-${i}-0`)), Number(value(`team-seat-${i}-1`))]);
                const flat = pairs.flat().sort((a, b) => a - b);
                if (flat.some((s, k) => s !== k)) {
                  toast(t("team.each_seat_once"), "error");
                  return;
                }
                send({ type: "set_teams", pairs, teams });
              },
            },
            t("team.save"),
          ),
        ),
      );
      parts.push(h("p", { class: "muted small" }, t("team.assign_note")));
    }
    return h("div", { class: "teams", testid: "teams" }, parts);
  }

  function placementsBlock(placements, historyUrl, view, testid = "placements") {
    if (!placements) return null;
    const order = placements.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
    const me = mySeat();
    return h(
      "div",
      { class: "placements", testid },
      h("h2", {}, t("end.title")),
      h(
        "ol",
        { class: "place-list" },
        order.map(({ place, seat }) =>
          h(
            "li",
            { class: seat === me ? "mine" : "", testid: `place-${seat}` },
            placeBadge(place),
            h("span", { class: "who" }, seatName(rs.room, seat, me)),
            view && view.teams ? teamBadge(teamOf(rs.room, view, seat)) : null,
            h("span", { class: "muted" }, t("end.place_n", { n: place })),
          ),
        ),
      ),
      historyUrl ? h("a", { class: "button", href: historyUrl, download: "", testid: "download-history" }, t("end.download")) : null,
    );
  }

  function drawOverlay() {
    const view = rs.state && rs.state.view;
    const placements = (rs.matchEnd && rs.matchEnd.placements) || (view && view.placements);
    if (!placements || !view || view.phase !== "over" || rs.overlayClosedFor === rs.state.match_id) {
      overlay.hidden = true;
      return;
    }
    const url = (rs.matchEnd && rs.matchEnd.history_url) || (rs.room.last_match && rs.room.last_match.history_url) || `/api/matches/${rs.state.match_id}/history`;
    overlay.replaceChildren(
      h(
        "div",
        { class: "panel end-panel" },
        placementsBlock(placements, url, view),
        h(
          "div",
          { class: "row end" },
          h(
            "button",
            {
              type: "button",
              testid: "end-close",
              onclick: () => {
                rs.overlayClosedFor = rs.state.match_id;
                drawOverlay();
              },
            },
            t("end.back_to_room"),
          ),
          h("a", { class: "button ghost", href: "/", "data-link": true, testid: "end-home" }, t("nav.back_home")),
        ),
      ),
    );
    overlay.hidden = false;
  }

  function drawScore() {
    if (!rs.state) {
      panes.score.replaceChildren(h("p", { class: "muted" }, t("score.no_match")));
      return;
    }
    const view = rs.state.view;
    const me = mySeat();
    const rows = [];
    for (let s = 0; s < view.seats; s += 1) {
      const team = teamOf(rs.room, view, s);
      rows.push(
        h(
          "tr",
          { class: `${s === me ? "mine" : ""}${view.alive[s] ? "" : " out"}`, testid: `score-row-${s}` },
          h("td", {}, team ? h("span", { class: "team-symbol", style: { color: team.colour }, title: team.name }, team.symbol) : null, seatName(rs.room, s, me)),
          h("td", {}, scoreEl(view, s)),
          h("td", {}, view.bids[s] ?? "—"),
          h("td", {}, view.won[s] ?? 0),
          h("td", {}, view.placements ? placeBadge(view.placements[s]) : !view.alive[s] ? t("seat.out") : view.left && view.left[s] ? t("seat.left") : ""),
        ),
      );
    }
    const parts = [
      h(
        "table",
        { class: "scoreboard", testid: "scoreboard" },
        h("thead", {}, h("tr", {}, ["score.player", view.variant === "7letras" ? "score.letters" : "score.lives_head", "score.bid", "score.won", ""].map((k) => h("th", {}, k ? t(k) : "")))),
        h("tbody", {}, rows),
      ),
    ];
    const last = view.last_hand;
    if (last) {
      parts.push(
        h(
          "div",
          { class: "last-hand", testid: "last-hand" },
          h("h3", {}, t("score.last_hand", { n: last.number }), " · ", tn("table.cards_n", last.cards)),
          last.void ? h("p", { class: "muted" }, t("score.void")) : null,
          last.vira ? h("p", {}, t("table.vira"), " ", cardEl(last.vira, { size: "xs" })) : null,
          h(
            "ul",
            {},
            (last.bids || []).map((bid, s) => (bid === null ? null : h("li", {}, t("score.last_line", { name: seatName(rs.room, s, me), bid, won: last.won[s] })))),
          ),
          last.bolo ? h("p", { class: "muted" }, last.bolo.seat === null ? t("event.bolo_none", { n: last.bolo.value }) : t("event.bolo", { n: last.bolo.value, name: seatName(rs.room, last.bolo.seat, me) })) : null,
        ),
      );
    }
    panes.score.replaceChildren(...parts);
  }

  function drawTricks() {
    const view = rs.state && rs.state.view;
    if (!view || !view.match_tricks) {
      panes.tricks.replaceChildren(h("p", { class: "muted" }, t("tricks.none")));
      return;
    }
    const me = mySeat();
    const groups = Object.entries(view.match_tricks);
    if (!groups.length) {
      panes.tricks.replaceChildren(h("p", { class: "muted" }, t("tricks.none")));
      return;
    }
    panes.tricks.replaceChildren(
      ...groups.map(([key, tricks]) => {
        const title = key === "none" ? t("tricks.nobody") : key === "pending" ? t("tricks.pending") : seatName(rs.room, Number(key), me);
        const total = tricks.reduce((sum, tr) => sum + (tr.value || 1), 0);
        return h(
          "details",
          { class: "trick-group", testid: `tricks-${key}`, open: key === String(me) },
          h("summary", {}, title, " ", h("span", { class: "muted" }, tn("tricks.count", tricks.length, { value: total }))),
          h(
            "ul",
            {},
            tricks.map((tr) =>
              h(
                "li",
                { class: "trick-row" },
                h("span", { class: "muted" }, t("tricks.hand_n", { n: tr.hand })),
                tr.plays.map(([s, c]) => cardEl(c, { size: "xs", manilhas: view.manilhas, extraClass: s === tr.winner ? "won" : "" })),
                tr.value > 1 ? h("span", { class: "chip melada" }, t("table.worth", { n: tr.value })) : null,
                tr.winner === null ? h("span", { class: "chip" }, t("tricks.cancelled")) : null,
              ),
            ),
          ),
        );
      }),
    );
  }

  function eventText(ev) {
    const me = mySeat();
    const name = (s) => seatName(rs.room, s, me);
    switch (ev.type) {
      case "deal":
        return t("event.deal", { n: ev.hand, cards: ev.cards, dealer: name(ev.dealer) });
      case "bid":
        return t("event.bid", { name: name(ev.seat), bid: ev.bid });
      case "play":
        return t("event.play", { name: name(ev.seat), card: cardShort(ev.card) });
      case "trick":
        return ev.winner === null ? t("event.trick_cancelled", { n: ev.value }) : t("event.trick", { name: name(ev.winner), n: ev.value });
      case "bolo":
        return ev.seat === null ? t("event.bolo_none", { n: ev.value }) : t("event.bolo", { n: ev.value, name: name(ev.seat) });
      case "hand_end":
        return ev.void ? t("event.hand_void", { n: ev.hand }) : t("event.hand_end", { n: ev.hand });
      case "vira":
        return t("event.vira", { card: cardShort(ev.card) });
      case "show":
        return t("event.show", { name: name(ev.seat), cards: (ev.cards || []).map(cardShort).join(" ") });
      case "leave":
        return t("event.leave", { name: name(ev.seat) });
      case "join":
        return t("event.join", { name: name(ev.seat) });
      case "match_end":
        return t("event.match_end");
      default:
        return null;
    }
  }

  function addLog(events) {
    for (const ev of events || []) {
      const text = eventText(ev);
      if (text) rs.log.push(text);
    }
    if (rs.log.length > 200) rs.log.splice(0, rs.log.length - 200);
  }

  function drawLog() {
    panes.log.replaceChildren(
      rs.log.length ? h("ol", { class: "log", testid: "log", reversed: true }, [...rs.log].reverse().slice(0, 80).map((line) => h("li", {}, line))) : h("p", { class: "muted" }, t("log.empty")),
    );
  }

  function drawChat() {
    chatList.replaceChildren(
      ...rs.chat.map((m) =>
        h(
          "li",
          { class: "chat-msg" },
          h("time", { class: "muted" }, new Date(m.at || Date.now()).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
          " ",
          h("b", {}, (m.from && m.from.name) || "?"),
          " ",
          h("span", { class: "chat-text" }, m.text),
        ),
      ),
    );
    chatList.scrollTop = chatList.scrollHeight;
  }

  function drawRoomPane() {
    const tableShown = Boolean(rs.state && rs.room && rs.room.match);
    panes.room.replaceChildren(...(tableShown ? [seatingPanel(false)] : []));
  }

  function drawAll() {
    drawHead();
    drawMain();
    drawScore();
    drawTricks();
    drawLog();
    drawRoomPane();
    drawOverlay();
    drawTabs();
    const paused = rs.room && rs.room.status === "paused";
    if (paused) {
      const until = rs.room.pause && rs.room.pause.until;
      banner(until ? t("room.paused_until", { time: new Date(until).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }) : t("room.paused"));
    } else if (rs.connStatus !== "reconnecting") banner("");
  }

  // ---- messages
  function onMessage(msg) {
    switch (msg.type) {
      case "hello":
        break;
      case "room":
        rs.room = msg.room;
        if (!rs.room.match && rs.state && rs.state.view.phase !== "over") rs.state = null;
        drawAll();
        break;
      case "state": {
        const fresh = rs.state === null || rs.state.match_id !== msg.match_id;
        rs.pendingAction = false;
        if (msg.recap && msg.recap.length && (fresh || !msg.events || !msg.events.length)) {
          rs.log = [];
          addLog(msg.recap);
        } else addLog(msg.events);
        if (fresh && msg.match_id !== rs.lastMatchId) rs.matchEnd = null;
        rs.lastMatchId = msg.match_id;
        rs.state = msg;
        const tricks = (msg.events || []).filter((ev) => ev.type === "trick");
        for (const ev of msg.events || []) {
          if (ev.type === "bolo") toast(ev.seat === null ? t("event.bolo_none", { n: ev.value }) : t("event.bolo", { n: ev.value, name: seatName(rs.room, ev.seat, mySeat()) }));
          if (ev.type === "show" && ev.seat !== mySeat()) toast(eventText(ev));
        }
        if (tricks.length) rs.resolving = { event: tricks[tricks.length - 1], since: Date.now() };
        if (rs.room) drawAll();
        break;
      }
      case "match_end":
        rs.matchEnd = msg;
        drawOverlay();
        break;
      case "chat":
        rs.chat.push(msg);
        if (rs.chat.length > 200) rs.chat.shift();
        if (rs.tab !== "chat") rs.unread += 1;
        drawChat();
        drawTabs();
        break;
      case "error":
        rs.pendingAction = false;
        if (msg.code === "room/bad_password" || (msg.code === "room/bad_invite" && !access.invite)) {
          passwordPrompt(msg);
        } else if (msg.code === "auth/required") {
          rs.conn.close();
          forgetSession();
          ctx.navigate(location.pathname, true);
        } else if (msg.code === "room/not_found") {
          rs.conn.close();
          main.replaceChildren(h("p", { class: "error", testid: "room-error" }, errorText(msg)));
        } else if (msg.code !== "action/stale_state") {
          toast(errorText(msg), "error");
        }
        break;
      default:
        break;
    }
  }

  function passwordPrompt(msg) {
    rs.conn.close();
    const input = h("input", { type: "password", testid: "room-password", autocomplete: "current-password" });
    const form = h(
      "form",
      { class: "panel gate", testid: "password-gate" },
      h("p", { class: "error" }, errorText(msg)),
      h("label", { class: "field" }, h("span", { class: "label" }, t("create.password")), input),
      h("button", { type: "submit", class: "primary", testid: "room-password-submit" }, t("gate.enter")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      access.password = input.value;
      sessionStorage.setItem(`sefode.password.${roomId}`, input.value);
      main.replaceChildren();
      connect();
    });
    main.replaceChildren(form);
  }

  function onStatus(status) {
    rs.connStatus = status;
    page.dataset.conn = status;
    if (status === "reconnecting") banner(t("room.reconnecting"));
    else if (status === "open") banner("");
  }

  function connect() {
    rs.conn = new RoomConnection(roomId, access, onMessage, onStatus);
    rs.conn.connect();
  }

  drawTabs();
  drawHead();
  connect();
  const clockTimer = setInterval(() => tickClocks(page), 250);
  ctx.onLeave(() => {
    clearInterval(clockTimer);
    rs.conn.close();
    banner("");
  });
}
