// Before the room: the session (resumed, or a nickname asked for below the table's preview), an invite link, and a
// room's password.
import { api, currentPlayer, ensureSession, getToken, loadSession, savedName } from "./api.js";
import { h, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { notFoundPage } from "./notfound.js";
import { inviteOnlyPage, loadPreview, tablePreview } from "./preview.js";

/**
 * Ask for a nickname when there is no session yet (arriving by a shared link), below the table's preview when there is
 * one (`preview.js`). Resolves once there is a session.
 */
function nicknameGate(ctx, preview = null) {
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
    ctx.app.append(h("section", { class: "page narrow" }, preview ? tablePreview(preview) : null, form));
    input.focus();
  });
}

export async function renderInvite(ctx, token) {
  let roomId;
  try {
    roomId = (await api("GET", `/invite/${encodeURIComponent(token)}`)).room_id;
  } catch (error) {
    ctx.app.replaceChildren(notFoundPage(errorText(error), "invite-error"));
    return;
  }
  sessionStorage.setItem(`sefode.invite.${roomId}`, token);
  if (!currentPlayer()) await nicknameGate(ctx, await loadPreview(roomId, token).catch(() => null));
  ctx.navigate(`/room/${roomId}`, true);
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

/**
 * A session for the room page: resumed, else a visitor's nickname asked below the table's preview. Resolves to false
 * when the page was replaced instead (an invite-only room reached without its invite, a room that does not exist).
 */
export async function roomSession(ctx, roomId) {
  await resumeSession();
  if (currentPlayer() && getToken()) return true;
  // A visitor with no nickname yet: which table this is first (an invite-only room says so, and asks no name).
  let preview = null;
  try {
    preview = await loadPreview(roomId, sessionStorage.getItem(`sefode.invite.${roomId}`));
  } catch (error) {
    if (error.code === "room/bad_invite" || error.code === "room/not_found") {
      ctx.app.replaceChildren(error.code === "room/bad_invite" ? inviteOnlyPage() : notFoundPage(errorText(error), "room-error"));
      return false;
    }
  }
  await nicknameGate(ctx, preview);
  return true;
}

/** The room's password was refused (`msg`): a form for it; `onSubmit(password)` once typed. */
export function passwordForm(msg, onSubmit) {
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
    onSubmit(input.value);
  });
  return form;
}
