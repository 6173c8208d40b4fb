// Account page: register (a guest keeps what they earned), log in, log out (here or everywhere), change the
// nickname, delete the account. The server answers with a token that replaces the guest's: it is kept where
// api.js keeps the guest token, so every later call (and the room WebSocket) speaks as the account.
import { ApiError, api, forgetSession, getToken, loadSession } from "./api.js";
import { confirmDialog, h, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";

/** Where api.js keeps the session token (see api.js, TOKEN_KEY). */
const TOKEN_KEY = "sefode.token";

/** Readable text for the account errors; anything else falls back to the shared catalogue. */
export function accountErrorText(error) {
  switch (error && error.code) {
    case "auth/bad_credentials":
      return t("acct.err_bad_credentials");
    case "auth/rate_limited":
      return t("acct.err_rate_limited");
    case "auth/required":
      return t("acct.err_auth_required");
    case "account/username_taken":
      return t("acct.err_username_taken");
    case "account/already_registered":
      return t("acct.err_already_registered");
    case "account/bad_username":
      return t("acct.err_bad_username");
    case "account/bad_password":
      return t("acct.err_bad_password");
    case "account/not_registered":
      return t("acct.err_not_registered");
    case "message/invalid":
      return t("acct.err_invalid");
    default:
      return errorText(error);
  }
}

/** The signed-in player (account or guest) as /api/account/me tells it, or null without a session. */
export async function fetchMe() {
  if (!getToken()) return null;
  try {
    return await api("GET", "/account/me");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // The session ended elsewhere (logout everywhere, deleted account): drop the dead token.
      forgetSession();
      return null;
    }
    throw error;
  }
}

const SVG = "http://www.w3.org/2000/svg";

/** A medal (a coloured disc) or a trophy (a small cup), drawn without emoji fonts; labelled for screen readers. */
export function awardIcon(kind) {
  const label = { gold: t("acct.gold"), silver: t("acct.silver"), bronze: t("acct.bronze"), trophy: t("acct.trophies") }[kind];
  if (kind !== "trophy") return h("span", { class: `award-icon medal-${kind}`, role: "img", "aria-label": label, title: label });
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "award-icon trophy-icon");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M7 2h10v2h4v3a5 5 0 0 1-4.6 5A5 5 0 0 1 13 15v3h3v3H8v-3h3v-3a5 5 0 0 1-3.4-3A5 5 0 0 1 3 7V4h4zm10 4v4a3 3 0 0 0 2-3V6zM5 6v1a3 3 0 0 0 2 3V6z");
  svg.appendChild(path);
  return svg;
}

/** Medal counts as a row of badges (used by the account, profile and leaderboard pages). */
export function medalBadges(medals, trophies, testid) {
  const m = medals || {};
  const badge = (kind, count) =>
    h("span", { class: `medal ${kind}`, title: awardIcon(kind).getAttribute("aria-label"), testid: testid ? `${testid}-${kind === "trophy" ? "trophies" : kind}` : null }, awardIcon(kind), h("b", {}, String(count || 0)));
  return h(
    "span",
    { class: "medal-row", testid },
    badge("gold", m.gold),
    badge("silver", m.silver),
    badge("bronze", m.bronze),
    trophies === null || trophies === undefined ? null : badge("trophy", trophies),
  );
}

function field(labelKey, input) {
  return h("label", { class: "field" }, h("span", { class: "label" }, t(labelKey)), input);
}

/** A form whose submit runs `action` with its button disabled and shows a refusal inside the form. */
function actionForm(testid, titleKey, fields, submitKey, action, extra) {
  const message = h("p", { class: "error form-error", testid: `${testid}-error`, hidden: true, role: "alert" });
  const button = h("button", { type: "submit", class: "primary", testid: `${testid}-submit` }, t(submitKey));
  const form = h("form", { class: "panel acct-form", testid: `${testid}-form` }, h("h2", {}, t(titleKey)), extra || null, fields, message, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.hidden = true;
    button.disabled = true;
    try {
      await action();
    } catch (error) {
      message.textContent = accountErrorText(error);
      message.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export async function renderAccount(ctx) {
  const page = h("section", { class: "page acct-page", testid: "account-page" });
  ctx.app.append(page);

  async function signedIn(data) {
    localStorage.setItem(TOKEN_KEY, data.token);
    await loadSession();
    ctx.refreshHeader();
  }

  async function signedOut() {
    forgetSession();
    ctx.refreshHeader();
  }

  async function draw() {
    let me = null;
    try {
      me = await fetchMe();
    } catch (error) {
      page.replaceChildren(h("p", { class: "error", testid: "account-load-error" }, accountErrorText(error)));
      return;
    }
    if (!me) ctx.refreshHeader();
    const parts = [h("h1", { class: "page-title" }, t("acct.title"))];
    if (me) parts.push(summary(me));
    // A guest registers here to keep what they earned; a visitor without a session more likely logs in.
    if (me && !me.registered) parts.push(h("div", { class: "acct-grid" }, registerForm(me), loginForm()));
    if (!me) parts.push(h("div", { class: "acct-grid" }, loginForm(), registerForm(me)));
    if (me) parts.push(h("div", { class: "acct-grid" }, nicknameForm(me), me.registered ? sessionPanel() : null, me.registered ? deleteForm() : null));
    page.replaceChildren(...parts);
  }

  function summary(me) {
    return h(
      "div",
      { class: "panel acct-summary", testid: "account-summary" },
      h(
        "div",
        { class: "row between" },
        h(
          "div",
          {},
          h("b", { class: "acct-name", testid: "account-name" }, me.name || t("acct.anonymous")),
          " ",
          h(
            "span",
            { class: "muted", testid: "account-kind" },
            me.registered ? t("acct.registered_as", { username: me.username || "" }) : t("acct.guest"),
          ),
        ),
        h("a", { href: "/profile", "data-link": true, class: "button", testid: "account-profile-link" }, t("acct.my_profile")),
      ),
      medalBadges(me.medals, me.trophies, "account-medals"),
      me.registered ? null : h("p", { class: "muted small", testid: "guest-note" }, t("acct.guest_note")),
    );
  }

  function registerForm(me) {
    const username = h("input", { testid: "register-username", autocomplete: "username", maxlength: "24", required: true });
    const password = h("input", { type: "password", testid: "register-password", autocomplete: "new-password", minlength: "8", maxlength: "256", required: true });
    const fields = [field("acct.username", username), field("acct.password", password)];
    let name = null;
    if (!me) {
      name = h("input", { testid: "register-name", maxlength: "24", autocomplete: "nickname" });
      fields.push(field("acct.nickname_optional", name));
    }
    const hint = h("p", { class: "muted small" }, me ? t("acct.register_keeps", { name: me.name || "" }) : t("acct.register_hint"));
    return actionForm(
      "register",
      "acct.register_title",
      fields,
      "acct.register_submit",
      async () => {
        const body = { username: username.value.trim(), password: password.value };
        if (name && name.value.trim()) body.name = name.value.trim();
        const data = await api("POST", "/account/register", body);
        await signedIn(data);
        toast(t("acct.registered_toast", { username: data.username || body.username }));
        await draw();
      },
      hint,
    );
  }

  function loginForm() {
    const username = h("input", { testid: "login-username", autocomplete: "username", maxlength: "24", required: true });
    const password = h("input", { type: "password", testid: "login-password", autocomplete: "current-password", maxlength: "256", required: true });
    const hint = getToken() ? h("p", { class: "muted small" }, t("acct.login_hint_guest")) : null;
    return actionForm(
      "login",
      "acct.login_title",
      [field("acct.username", username), field("acct.password", password)],
      "acct.login_submit",
      async () => {
        const data = await api("POST", "/account/login", { username: username.value.trim(), password: password.value });
        await signedIn(data);
        toast(t("acct.logged_in_toast", { name: data.name || "" }));
        await draw();
      },
      hint,
    );
  }

  function nicknameForm(me) {
    const name = h("input", { testid: "rename-name", maxlength: "24", value: me.name || "", autocomplete: "nickname", required: true });
    return actionForm("rename", "acct.rename_title", [field("acct.nickname", name)], "acct.rename_submit", async () => {
      const data = await api("POST", "/account/nickname", { name: name.value.trim() });
      localStorage.setItem("sefode.name", data.name);
      await loadSession();
      ctx.refreshHeader();
      toast(t("acct.renamed_toast", { name: data.name }));
      await draw();
    });
  }

  function sessionPanel() {
    const message = h("p", { class: "error form-error", testid: "logout-error", hidden: true, role: "alert" });
    async function run(path) {
      message.hidden = true;
      try {
        await api("POST", path);
      } catch (error) {
        // A session the server already dropped is as good as logged out.
        if (!(error instanceof ApiError && error.status === 401)) {
          message.textContent = accountErrorText(error);
          message.hidden = false;
          return;
        }
      }
      await signedOut();
      toast(t("acct.logged_out_toast"));
      await draw();
    }
    return h(
      "div",
      { class: "panel acct-form", testid: "session-panel" },
      h("h2", {}, t("acct.sessions_title")),
      h("p", { class: "muted small" }, t("acct.logout_all_hint")),
      message,
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", testid: "logout", onclick: () => run("/account/logout") }, t("acct.logout")),
        h(
          "button",
          {
            type: "button",
            testid: "logout-all",
            onclick: async () => {
              if (await confirmDialog(t("acct.logout_all_confirm"))) await run("/account/logout-all");
            },
          },
          t("acct.logout_all"),
        ),
      ),
    );
  }

  function deleteForm() {
    const password = h("input", { type: "password", testid: "delete-password", autocomplete: "current-password", maxlength: "256", required: true });
    const form = actionForm(
      "delete",
      "acct.delete_title",
      [field("acct.password", password)],
      "acct.delete_submit",
      async () => {
        if (!(await confirmDialog(t("acct.delete_confirm")))) return;
        await api("POST", "/account/delete", { password: password.value });
        await signedOut();
        toast(t("acct.deleted_toast"));
        await draw();
      },
      h("p", { class: "muted small" }, t("acct.delete_hint")),
    );
    form.querySelector("button[type=submit]").className = "danger";
    return form;
  }

  page.append(h("p", { class: "muted" }, t("common.loading")));
  await draw();
}
