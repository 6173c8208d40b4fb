// The moderators' page (/mod, issue 28): open reports with the chat they kept, the actions (each with a reason box),
// and the audit list. Moderators only: anyone else gets one plain line. Rules and routes: docs/operating.md
// "Moderation", docs/accounts-api.md "Moderation".
import { api } from "./api.js";
import { confirmDialog, h, toast } from "./dom.js";
import { t } from "./i18n.js";

const ACTIONS = ["mute", "kick", "ban", "close_room", "rename_room", "rename_player", "close_report"];

function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang || undefined);
}

export function modErrorText(error) {
  const key = `error.${error && error.code}`;
  const text = t(key);
  return text === key ? t("mod.err_generic") : text;
}

export async function renderMod(ctx) {
  const page = h("section", { class: "page mod-page", testid: "mod-page" }, h("h1", { class: "page-title" }, t("mod.title")));
  ctx.app.append(page);
  let moderator = false;
  try {
    moderator = Boolean((await api("GET", "/mod/me")).moderator);
  } catch {
    // No session, or the server is away: the page is not for this visitor now.
  }
  if (!moderator) {
    page.append(h("p", { class: "mod-refused", testid: "mod-refused" }, t("mod.only_moderators")));
    return;
  }
  const reportsBox = h("div", { class: "mod-reports", testid: "mod-reports" });
  const auditBox = h("ol", { class: "mod-audit", testid: "mod-audit" });
  const form = actionForm(async () => {
    await Promise.all([loadReports(), loadAudit()]);
  });
  page.append(
    h("section", { class: "panel mod-section", "aria-labelledby": "mod-reports-title" }, h("h2", { id: "mod-reports-title" }, t("mod.reports")), reportsBox),
    h("section", { class: "panel mod-section", "aria-labelledby": "mod-act-title" }, h("h2", { id: "mod-act-title" }, t("mod.act")), form.el),
    h("section", { class: "panel mod-section", "aria-labelledby": "mod-audit-title" }, h("h2", { id: "mod-audit-title" }, t("mod.audit")), auditBox),
  );

  async function loadReports() {
    const { reports } = await api("GET", "/mod/reports");
    if (!reports.length) {
      reportsBox.replaceChildren(h("p", { class: "muted", testid: "mod-no-reports" }, t("mod.no_reports")));
      return;
    }
    reportsBox.replaceChildren(
      ...reports.map((r) =>
        h(
          "article",
          { class: "mod-report", testid: "mod-report" },
          h("p", {}, t("mod.report_line", { reporter: r.reporter.name, reported: r.reported.name, at: when(r.at) })),
          r.note ? h("p", { class: "mod-note" }, t("mod.note", { note: r.note })) : null,
          h(
            "ol",
            { class: "mod-chat", "aria-label": t("mod.chat_kept") },
            ...r.chat.map((m) =>
              h("li", { class: m.id === r.chat_id ? "mod-chat-reported" : "" }, h("strong", {}, `${(m.from && m.from.name) || "?"}: `), m.text),
            ),
          ),
          h(
            "button",
            { type: "button", testid: "mod-use-report", onclick: () => form.fill(r) },
            t("mod.use_report", { name: r.reported.name }),
          ),
        ),
      ),
    );
  }

  async function loadAudit() {
    const { entries } = await api("GET", "/mod/audit");
    if (!entries.length) {
      auditBox.replaceChildren(h("li", { class: "muted" }, t("mod.no_audit")));
      return;
    }
    auditBox.replaceChildren(
      ...entries.map((e) =>
        h(
          "li",
          { testid: "mod-audit-entry" },
          t("mod.audit_line", {
            at: when(e.at),
            moderator: e.moderator.name,
            action: t(`mod.action.${e.action}`),
            target: e.player ? e.player.name : e.room_id || "",
            reason: e.reason,
          }),
        ),
      ),
    );
  }

  await Promise.all([loadReports(), loadAudit()]);
}

function field(id, label, input) {
  return h("div", { class: "mod-field" }, h("label", { for: id }, label), input);
}

function actionForm(after) {
  const action = h(
    "select",
    { id: "mod-action", testid: "mod-action" },
    ...ACTIONS.map((a) => h("option", { value: a }, t(`mod.action.${a}`))),
  );
  const player = h("input", { id: "mod-player", testid: "mod-player", maxlength: "32", autocomplete: "off" });
  const room = h("input", { id: "mod-room", testid: "mod-room", maxlength: "32", autocomplete: "off" });
  const report = h("input", { id: "mod-report-id", testid: "mod-report-id", maxlength: "32", autocomplete: "off" });
  const minutes = h("input", { id: "mod-minutes", testid: "mod-minutes", type: "number", min: "1", inputmode: "numeric" });
  const name = h("input", { id: "mod-name", testid: "mod-name", maxlength: "24" });
  const reason = h("textarea", { id: "mod-reason", testid: "mod-reason", maxlength: "500", rows: "3", required: true });
  const status = h("p", { class: "mod-status", role: "status", "aria-live": "polite", testid: "mod-status" });
  const submit = h("button", { type: "submit", class: "primary", testid: "mod-submit" }, t("mod.submit"));
  const el = h(
    "form",
    { class: "mod-form", testid: "mod-form" },
    field("mod-action", t("mod.field.action"), action),
    field("mod-player", t("mod.field.player"), player),
    field("mod-room", t("mod.field.room"), room),
    field("mod-report-id", t("mod.field.report"), report),
    field("mod-minutes", t("mod.field.minutes"), minutes),
    field("mod-name", t("mod.field.name"), name),
    field("mod-reason", t("mod.field.reason"), reason),
    h("div", { class: "row" }, submit),
    status,
  );
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    const why = reason.value.trim();
    if (!why) {
      status.textContent = t("error.mod/reason_required");
      reason.focus();
      return;
    }
    const kind = action.value;
    const body = { reason: why };
    let path = `/mod/${kind.replace("_", "-")}`;
    if (kind === "close_report") path = `/mod/reports/${encodeURIComponent(report.value.trim())}/close`;
    if (["mute", "kick", "ban", "rename_player"].includes(kind)) body.player_id = player.value.trim();
    if (["kick", "close_room", "rename_room"].includes(kind)) body.room_id = room.value.trim();
    if (["mute", "ban"].includes(kind) && minutes.value) body.minutes = Number(minutes.value);
    if (["rename_room", "rename_player"].includes(kind)) body.name = name.value;
    submit.disabled = true;
    try {
      await api("POST", path, body);
      status.textContent = t("mod.done", { action: t(`mod.action.${kind}`) });
      reason.value = "";
      await after();
    } catch (error) {
      status.textContent = modErrorText(error);
      toast(modErrorText(error), "error");
    } finally {
      submit.disabled = false;
    }
  });
  return {
    el,
    fill(r) {
      player.value = r.reported.player_id;
      room.value = r.room_id;
      report.value = r.id;
      reason.focus();
    },
  };
}

/**
 * The "Report" control on another player's seat (issue 28): after a confirmation, a report of that player at this
 * table. The server keeps the table's recent chat with it (never this page's copy).
 */
export function reportButton(roomId, info) {
  const name = info.name || "?";
  return h(
    "button",
    {
      type: "button",
      class: "ghost small",
      testid: `seat-report-${info.seat}`,
      "aria-label": t("report.named", { name }),
      onclick: async () => {
        if (!(await confirmDialog(t("report.confirm", { name })))) return;
        try {
          await api("POST", "/reports", { player_id: info.player_id, room_id: roomId });
          toast(t("report.sent"));
        } catch (error) {
          toast(modErrorText(error), "error");
        }
      },
    },
    t("report.button"),
  );
}

/** The "report this message" control beside another player's chat message: a report that names the message. */
export function reportMessageButton(roomId, message) {
  const name = (message.from && message.from.name) || "?";
  return h(
    "button",
    {
      type: "button",
      class: "ghost small chat-report",
      testid: `chat-report-${message.id}`,
      "aria-label": t("report.message_named", { name }),
      title: t("report.message_named", { name }),
      onclick: async () => {
        if (!(await confirmDialog(t("report.message_confirm", { name })))) return;
        try {
          await api("POST", "/reports", { player_id: message.from.player_id, room_id: roomId, chat_id: message.id });
          toast(t("report.sent"));
        } catch (error) {
          toast(modErrorText(error), "error");
        }
      },
    },
    "⚑",
  );
}
