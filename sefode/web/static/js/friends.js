// Friends (issue 23): the friends panel of the home page, the "invite a friend" list of the Invite dialog, and the
// "add as a friend" / "block" controls on a table's seats. Everything goes through /api/account/friends... (see
// docs/accounts-api.md, "Friends"); a guest gets `friends/account_only` and sees a short note instead. Every control
// is a labelled button or link, so it works by keyboard and with a screen reader.
import { api, getToken } from "./api.js";
import { confirmDialog, h, toast } from "./dom.js";
import { errorText, t, tn } from "./i18n.js";

// Whether the session is an account's, per token (asked once: a guest's page then never asks a friends route, whose
// refusal would only fill the console with a 403).
let accountOf = { token: null, registered: false };

async function isAccount() {
  const token = getToken();
  if (!token) return false;
  if (accountOf.token !== token) {
    try {
      const me = await api("GET", "/account/me");
      accountOf = { token, registered: Boolean(me && me.registered) };
    } catch {
      return false;
    }
  }
  return accountOf.registered;
}

/** The friends panel, or null for a guest (`friends/account_only`); other errors are thrown. */
export async function loadFriends() {
  if (!(await isAccount())) return null;
  try {
    return await api("GET", "/account/friends");
  } catch (error) {
    if (error && (error.code === "friends/account_only" || error.code === "auth/required")) return null;
    throw error;
  }
}

function guestNote(testid) {
  return h(
    "p",
    { class: "muted friends-guest-note", testid },
    t("friends.guest_note"),
    " ",
    h("a", { href: "/account", "data-link": true }, t("friends.guest_link")),
  );
}

async function call(method, path, body, done) {
  try {
    const data = await api(method, path, body);
    if (done) toast(done);
    return data || true;
  } catch (error) {
    toast(errorText(error), "error");
    return null;
  }
}

/** The status line of a friend: online at a public table (a link to it), online, or offline. */
function presence(friend) {
  if (!friend.online) return h("span", { class: "friend-status offline", testid: `friend-status-${friend.player_id}` }, t("friends.offline"));
  const parts = [h("span", { class: "friend-dot", "aria-hidden": "true" }), t("friends.online")];
  if (friend.table) {
    parts.push(
      " · ",
      h(
        "a",
        { href: `/room/${encodeURIComponent(friend.table.room_id)}`, "data-link": true, testid: `friend-table-${friend.player_id}` },
        t(friend.table.playing ? "friends.playing_at" : "friends.at_table", { room: friend.table.name || friend.table.room_id }),
      ),
    );
  }
  return h("span", { class: "friend-status online", testid: `friend-status-${friend.player_id}` }, parts);
}

function recordView(data) {
  if (!data.matches) return h("p", { class: "muted small" }, t("friends.record_none"));
  return h(
    "ul",
    { class: "friend-record-list" },
    data.games.map((g) =>
      h(
        "li",
        {},
        h("b", {}, g.title || g.game),
        " — ",
        t("friends.record_line", { matches: tn("friends.matches_n", g.matches), you: g.you_ahead, friend: g.friend_ahead, name: data.friend.name }),
      ),
    ),
  );
}

function person(p) {
  return h("b", { class: "friend-name" }, p.name || "?", p.username && p.username !== p.name ? h("small", { class: "muted" }, ` @${p.username}`) : null);
}

/** The friends panel's sections, each a list of elements for `parts` (empty when there is nothing to show). */
function invitesSection(data, act) {
  const parts = [];
  if (data.invites.length) {
    parts.push(
      h("h3", {}, t("friends.invites_title")),
      h(
        "ul",
        { class: "friend-list friend-invites", testid: "friend-invites" },
        data.invites.map((inv) =>
          h(
            "li",
            { class: "friend-item invite-item", testid: `friend-invite-${inv.id}` },
            h("span", { class: "friend-main" }, t("friends.invite_text", { name: inv.from.name || "?", room: inv.room_name })),
            h(
              "span",
              { class: "friend-actions" },
              h("a", { class: "button primary", href: inv.link, "data-link": true, testid: `friend-invite-join-${inv.id}` }, t("friends.invite_join")),
              h(
                "button",
                { type: "button", class: "ghost", testid: `friend-invite-dismiss-${inv.id}`, "aria-label": t("friends.invite_dismiss_named", { room: inv.room_name }), onclick: () => act("POST", `/account/invites/${encodeURIComponent(inv.id)}/dismiss`) },
                t("friends.invite_dismiss"),
              ),
            ),
          ),
        ),
      ),
    );
  }
  return parts;
}

function incomingSection(data, act) {
  const parts = [];
  if (data.incoming.length) {
    parts.push(
      h("h3", {}, t("friends.incoming_title")),
      h(
        "ul",
        { class: "friend-list", testid: "friend-incoming" },
        data.incoming.map((p) =>
          h(
            "li",
            { class: "friend-item", testid: `friend-request-${p.player_id}` },
            h("span", { class: "friend-main" }, person(p), " ", h("small", { class: "muted" }, t("friends.asked_you"))),
            h(
              "span",
              { class: "friend-actions" },
              h("button", { type: "button", class: "primary", testid: `friend-accept-${p.player_id}`, "aria-label": t("friends.accept_named", { name: p.name }), onclick: () => act("POST", `/account/friends/${encodeURIComponent(p.player_id)}/accept`, undefined, t("friends.now_friends")) }, t("friends.accept")),
              h("button", { type: "button", class: "ghost", testid: `friend-decline-${p.player_id}`, "aria-label": t("friends.decline_named", { name: p.name }), onclick: () => act("POST", `/account/friends/${encodeURIComponent(p.player_id)}/decline`) }, t("friends.decline")),
            ),
          ),
        ),
      ),
    );
  }
  return parts;
}

function outgoingSection(data, act) {
  const parts = [];
  if (data.outgoing.length) {
    parts.push(
      h(
        "ul",
        { class: "friend-list friend-outgoing", testid: "friend-outgoing" },
        data.outgoing.map((p) =>
          h(
            "li",
            { class: "friend-item", testid: `friend-outgoing-${p.player_id}` },
            h("span", { class: "friend-main" }, person(p), " ", h("small", { class: "muted" }, t("friends.waiting_answer"))),
            h("span", { class: "friend-actions" }, h("button", { type: "button", class: "ghost", testid: `friend-cancel-${p.player_id}`, "aria-label": t("friends.cancel_named", { name: p.name }), onclick: () => act("POST", `/account/friends/${encodeURIComponent(p.player_id)}/decline`) }, t("friends.cancel"))),
          ),
        ),
      ),
    );
  }
  return parts;
}

function blockedSection(data, act) {
  const parts = [];
  if (data.blocked.length) {
    parts.push(
      h(
        "details",
        { class: "friend-blocked", testid: "friend-blocked" },
        h("summary", {}, t("friends.blocked_title", { n: data.blocked.length })),
        h(
          "ul",
          { class: "friend-list" },
          data.blocked.map((p) =>
            h(
              "li",
              { class: "friend-item", testid: `friend-blocked-${p.player_id}` },
              h("span", { class: "friend-main" }, h("b", {}, p.name || "?")),
              h("span", { class: "friend-actions" }, h("button", { type: "button", class: "ghost", testid: `friend-unblock-${p.player_id}`, "aria-label": t("friends.unblock_named", { name: p.name }), onclick: () => act("POST", `/account/blocks/${encodeURIComponent(p.player_id)}/remove`, undefined, t("friends.unblocked")) }, t("friends.unblock"))),
            ),
          ),
        ),
      ),
    );
  }
  return parts;
}

/**
 * The friends panel of the home page. `element` is the panel; `refresh()` reads it again (the home page calls it on
 * its lobby timer, so an invitation shows up within seconds).
 */
export function friendsPanel() {
  const body = h("div", { class: "friends-body", testid: "friends-body" }, h("p", { class: "muted" }, t("common.loading")));
  const element = h(
    "article",
    { class: "panel friends-panel", testid: "friends-panel", "aria-labelledby": "friends-title" },
    h("h2", { id: "friends-title" }, t("friends.title")),
    body,
  );
  const open = new Set(); // friends whose record is shown
  const records = new Map();
  let busy = false;
  let last = "";

  async function act(method, path, payload, done) {
    const ok = await call(method, path, payload, done);
    if (ok) await refresh(true);
    return ok;
  }

  const addInput = h("input", { id: "friend-add-name", testid: "friend-add-name", maxlength: "64", autocomplete: "off", placeholder: t("friends.add_placeholder") });
  const addForm = h(
    "form",
    { class: "friend-add", testid: "friend-add" },
    h("label", { for: "friend-add-name", class: "label" }, t("friends.add_label")),
    h("div", { class: "row" }, addInput, h("button", { type: "submit", testid: "friend-add-submit" }, t("friends.add_submit"))),
  );
  addForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = addInput.value.trim();
    if (!name) {
      addInput.focus();
      return;
    }
    const data = await call("POST", "/account/friends", { name });
    if (data) {
      toast(data.status === "friends" ? t("friends.now_friends") : t("friends.request_sent"));
      addInput.value = "";
      await refresh(true);
    }
  });

  function friendsSection(data) {
    const parts = [];
    const online = data.friends.filter((f) => f.online).length;
    parts.push(h("h3", {}, data.friends.length ? t("friends.list_title", { online, total: data.friends.length }) : t("friends.list_title_empty")));
    if (!data.friends.length) parts.push(h("p", { class: "muted small", testid: "friends-empty" }, t("friends.empty")));
    else {
      const sorted = [...data.friends].sort((a, b) => Number(b.online) - Number(a.online));
      parts.push(
        h(
          "ul",
          { class: "friend-list", testid: "friends-list" },
          sorted.map((f) => {
            const shown = open.has(f.player_id);
            const recordBox = shown ? h("div", { class: "friend-record", id: `friend-record-${f.player_id}`, testid: `friend-record-${f.player_id}` }, records.has(f.player_id) ? recordView(records.get(f.player_id)) : t("common.loading")) : null;
            return h(
              "li",
              { class: `friend-item${f.online ? " is-online" : ""}`, testid: `friend-${f.player_id}` },
              h("span", { class: "friend-main" }, person(f), presence(f)),
              h(
                "span",
                { class: "friend-actions" },
                h(
                  "button",
                  {
                    type: "button",
                    class: "ghost",
                    testid: `friend-record-toggle-${f.player_id}`,
                    "aria-expanded": shown ? "true" : "false",
                    "aria-controls": `friend-record-${f.player_id}`,
                    "aria-label": t("friends.record_named", { name: f.name }),
                    onclick: () => toggleRecord(f.player_id),
                  },
                  t("friends.record"),
                ),
                h("button", { type: "button", class: "ghost", testid: `friend-remove-${f.player_id}`, "aria-label": t("friends.remove_named", { name: f.name }), onclick: () => removeFriend(f) }, t("friends.remove")),
                h("button", { type: "button", class: "ghost danger", testid: `friend-block-${f.player_id}`, "aria-label": t("friends.block_named", { name: f.name }), onclick: () => blockPlayer(f.player_id, f.name, () => refresh(true)) }, t("friends.block")),
              ),
              recordBox,
            );
          }),
        ),
      );
    }
    return parts;
  }

  function draw(data) {
    if (data === null) {
      body.replaceChildren(guestNote("friends-guest-note"));
      return;
    }
    const parts = [...invitesSection(data, act), ...incomingSection(data, act), ...friendsSection(data), addForm, ...outgoingSection(data, act), ...blockedSection(data, act)];
    // Keep the focus and what is typed across a redraw (the panel refreshes every few seconds).
    const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const blockedOpen = body.querySelector("details.friend-blocked[open]") !== null;
    body.replaceChildren(...parts);
    if (blockedOpen) {
      const d = body.querySelector("details.friend-blocked");
      if (d) d.open = true;
    }
    if (focused) {
      const again = body.querySelector(`[data-testid="${focused}"]`);
      if (again) again.focus();
    }
  }

  async function toggleRecord(pid) {
    if (open.has(pid)) open.delete(pid);
    else {
      open.add(pid);
      const data = await call("GET", `/account/friends/${encodeURIComponent(pid)}/record`);
      if (data) records.set(pid, data);
    }
    await refresh(true);
  }

  async function removeFriend(f) {
    if (!(await confirmDialog(t("friends.remove_confirm", { name: f.name })))) return;
    await act("POST", `/account/friends/${encodeURIComponent(f.player_id)}/remove`, undefined, t("friends.removed"));
  }

  async function refresh(force = false) {
    if (busy) return;
    busy = true;
    try {
      const data = await loadFriends();
      const key = JSON.stringify(data);
      if (force || key !== last) {
        last = key;
        draw(data);
      }
    } catch (error) {
      body.replaceChildren(h("p", { class: "error" }, errorText(error)));
    } finally {
      busy = false;
    }
  }

  return { element, refresh };
}

/** Block a player after asking; `after` runs once it is done. */
export async function blockPlayer(playerId, name, after) {
  if (!(await confirmDialog(t("friends.block_confirm", { name: name || "?" })))) return false;
  const ok = await call("POST", "/account/blocks", { player_id: playerId }, t("friends.blocked_toast", { name: name || "?" }));
  if (ok && after) await after();
  return Boolean(ok);
}

/**
 * The Invite dialog's "invite a friend" list: `element` goes in the dialog, `load(roomId)` fills it when the dialog
 * opens. A guest sees the note that only accounts keep friends.
 */
export function friendInviter() {
  const element = h("section", { class: "share-friends", testid: "share-friends", "aria-labelledby": "share-friends-title" }, h("h3", { id: "share-friends-title" }, t("friends.invite_title")));
  const list = h("div", { class: "share-friends-list" });
  element.append(list);

  async function load(roomId) {
    list.replaceChildren(h("p", { class: "muted small" }, t("common.loading")));
    let data;
    try {
      data = await loadFriends();
    } catch (error) {
      list.replaceChildren(h("p", { class: "error" }, errorText(error)));
      return;
    }
    if (data === null) {
      list.replaceChildren(guestNote("share-friends-guest"));
      return;
    }
    if (!data.friends.length) {
      list.replaceChildren(h("p", { class: "muted small", testid: "share-friends-empty" }, t("friends.invite_none")));
      return;
    }
    const sorted = [...data.friends].sort((a, b) => Number(b.online) - Number(a.online));
    list.replaceChildren(
      h(
        "ul",
        { class: "friend-list" },
        sorted.map((f) => {
          const button = h(
            "button",
            { type: "button", testid: `share-invite-${f.player_id}`, "aria-label": t("friends.invite_named", { name: f.name }) },
            t("friends.invite_send"),
          );
          button.addEventListener("click", async () => {
            button.disabled = true;
            const ok = await call("POST", "/account/invites", { player_id: f.player_id, room_id: roomId });
            if (ok) {
              button.textContent = t("friends.invite_sent");
              toast(t("friends.invite_sent_toast", { name: f.name }));
            } else button.disabled = false;
          });
          return h(
            "li",
            { class: "friend-item", testid: `share-friend-${f.player_id}` },
            h("span", { class: "friend-main" }, h("b", {}, f.name), " ", h("small", { class: "muted" }, f.online ? t("friends.online") : t("friends.offline"))),
            h("span", { class: "friend-actions" }, button),
          );
        }),
      ),
    );
  }

  return { element, load };
}

/**
 * The controls on a table's seats: "add as a friend" for a player with an account, "block" for anyone else at the
 * table. `sync(ids)` asks the server what the caller is to those players (once per new set of players); `onChange`
 * redraws the seats when the answer comes, `onBlocked(playerId)` drops what that player said from the page. A guest
 * gets no controls (the friends panel tells them why).
 */
export function tableFriends(onChange, onBlocked = () => {}) {
  let known = null; // {id: {account, friend, requested, asked_you, blocked}} or "guest"
  let asked = "";

  async function sync(ids) {
    const key = [...new Set(ids)].sort().join(",");
    if (key === asked) return;
    asked = key;
    if (!key) return;
    if (!(await isAccount())) {
      known = "guest";
      return;
    }
    try {
      const data = await api("GET", `/account/relations?ids=${encodeURIComponent(key)}`);
      known = data.players || {};
    } catch (error) {
      known = error && error.code === "friends/account_only" ? "guest" : null;
    }
    onChange();
  }

  function refresh() {
    const key = asked;
    asked = "";
    return sync(key ? key.split(",") : []);
  }

  function controls(info) {
    if (!known || known === "guest" || !info.player_id || info.bot_account) return [];
    const rel = known[info.player_id];
    if (!rel) return [];
    const name = info.name || "?";
    const out = [];
    if (rel.account && !rel.friend && !rel.blocked) {
      const label = rel.requested ? t("friends.seat_requested") : rel.asked_you ? t("friends.accept") : t("friends.seat_add");
      out.push(
        h(
          "button",
          {
            type: "button",
            class: "ghost small",
            testid: `seat-friend-${info.seat}`,
            disabled: rel.requested,
            "aria-label": rel.requested
              ? t("friends.seat_requested_named", { name })
              : rel.asked_you
                ? t("friends.accept_named", { name })
                : t("friends.seat_add_named", { name }),
            onclick: async () => {
              const data = await call("POST", "/account/friends", { player_id: info.player_id });
              if (data) toast(data.status === "friends" ? t("friends.now_friends") : t("friends.request_sent"));
              await refresh();
            },
          },
          label,
        ),
      );
    }
    if (rel.friend) out.push(h("span", { class: "chip friend-chip", testid: `seat-is-friend-${info.seat}` }, t("friends.seat_friend")));
    if (!rel.blocked) {
      out.push(
        h(
          "button",
          { type: "button", class: "ghost small danger", testid: `seat-block-${info.seat}`, "aria-label": t("friends.block_named", { name }), onclick: () => blockPlayer(info.player_id, name, () => {
            onBlocked(info.player_id);
            return refresh();
          }) },
          t("friends.block"),
        ),
      );
    } else out.push(h("span", { class: "chip", testid: `seat-blocked-${info.seat}` }, t("friends.seat_blocked")));
    return out;
  }

  return { sync, controls, refresh };
}
