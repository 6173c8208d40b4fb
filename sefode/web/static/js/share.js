// Sharing a table (issue 23): one "Convidar" button that opens a small dialog with the phone's share sheet (the Web
// Share API, where the browser has it), a WhatsApp link, copying the link (with a visible confirmation) and the
// link's QR code for someone at the same real table (drawn by the server from the invite token:
// GET /api/invite/{token}/qr, an <img>, so nothing inline meets the page's Content-Security-Policy). A native
// <dialog>: Escape and the close button close it, and the focus goes back to the button.
import { copyText, h } from "./dom.js";
import { t } from "./i18n.js";
import { friendInviter } from "./friends.js";

/** The address of a room's invite link. */
export function inviteLink(token) {
  return `${location.origin}/invite/${encodeURIComponent(token)}`;
}

/**
 * The share control of a room page: `button` goes in the room's head (drawn again on every message), `dialog` in a
 * part of the page that stays; `update({token, room, game})` gives the link's token, the room's and the game's names.
 */
export function createShare() {
  let current = { token: null, room: "", game: "", roomId: null };
  const inviter = friendInviter(); // issue 23: invite a friend, whose home page shows it
  const status = h("p", { class: "share-status", role: "status", testid: "share-status" });
  const linkInput = h("input", {
    readonly: true,
    class: "invite-input",
    id: "share-link",
    onfocus: (event) => event.target.select(),
  });
  const nativeButton = h("button", { type: "button", class: "primary", testid: "share-native", onclick: nativeShare }, t("share.native"));
  const whatsapp = h("a", { class: "button share-whatsapp", testid: "share-whatsapp", target: "_blank", rel: "noopener noreferrer" }, t("share.whatsapp"));
  const copyButton = h("button", { type: "button", testid: "share-copy", onclick: copy }, t("share.copy"));
  const qr = h("img", { class: "share-qr", testid: "share-qr", width: "192", height: "192", alt: t("share.qr_alt"), decoding: "async" });
  const message = h("p", { class: "share-message", testid: "share-message" });
  const close = h("button", { type: "button", class: "ghost share-close", testid: "share-close", "aria-label": t("common.close"), onclick: () => dialog.close() }, "×");
  const dialog = h(
    "dialog",
    { class: "share-dialog", testid: "share-dialog", "aria-labelledby": "share-title", "aria-describedby": "share-message" },
    h("div", { class: "share-top" }, h("h2", { id: "share-title" }, t("share.title")), close),
    message,
    h("div", { class: "share-actions" }, nativeButton, whatsapp, copyButton),
    status,
    h("label", { class: "field share-link", for: "share-link" }, h("span", { class: "label" }, t("share.link_label")), linkInput),
    h("figure", { class: "share-figure" }, qr, h("figcaption", {}, t("share.qr_caption"))),
    inviter.element,
  );
  message.id = "share-message";
  // A click on the backdrop (outside the dialog's box, not on its padding) closes it too.
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) dialog.close();
  });
  const button = h(
    "button",
    { type: "button", class: "share-open", testid: "share-open", "aria-haspopup": "dialog", onclick: open },
    t("share.open"),
  );

  function link() {
    return current.token ? inviteLink(current.token) : location.href;
  }

  /** The invitation without the link (the share sheet adds the link itself). */
  function invitation() {
    return current.game ? t("share.text", { game: current.game, room: current.room }) : t("share.text_no_game", { room: current.room });
  }

  function draw() {
    message.textContent = invitation();
    linkInput.value = link();
    // Named only once it holds the room's link (tests and tools read the link from it as soon as it is there).
    if (current.room) linkInput.dataset.testid = "invite-link";
    whatsapp.href = `https://wa.me/?text=${encodeURIComponent(`${invitation()} ${link()}`)}`;
    nativeButton.hidden = typeof navigator.share !== "function";
    qr.hidden = !current.token;
  }

  function open() {
    status.textContent = "";
    status.classList.remove("error");
    draw();
    if (current.token) qr.src = `/api/invite/${encodeURIComponent(current.token)}/qr`;
    if (current.roomId) inviter.load(current.roomId);
    inviter.element.hidden = !current.roomId;
    dialog.showModal();
    (nativeButton.hidden ? whatsapp : nativeButton).focus();
  }

  async function nativeShare() {
    try {
      await navigator.share({ title: t("app.title"), text: invitation(), url: link() });
    } catch (error) {
      // Closing the share sheet is no error; anything else leaves the other ways at hand.
      if (!error || error.name !== "AbortError") say(t("share.native_failed"), true);
    }
  }

  async function copy() {
    const done = await copyText(link(), linkInput);
    say(done ? t("room.link_copied") : t("room.link_copy_failed"), !done);
  }

  function say(text, failed = false) {
    status.textContent = text;
    status.classList.toggle("error", failed);
  }

  return {
    button,
    dialog,
    update(values) {
      current = { ...current, ...values };
      draw();
    },
  };
}
