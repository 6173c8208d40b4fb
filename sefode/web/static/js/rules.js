// Rules pages: GET /api/rules/{variant} returns Markdown, rendered by our own small renderer.
import { api } from "./api.js";
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";

export const VARIANTS = ["sefode", "7letras"];

export async function renderRules(ctx, variant) {
  const tabs = h(
    "nav",
    { class: "tabs" },
    VARIANTS.map((v) =>
      h("a", { href: `/rules/${v}`, "data-link": true, class: v === variant ? "active" : "", testid: `rules-tab-${v}` }, t(`variant.${v}`)),
    ),
  );
  const body = h("article", { class: "rules markdown", testid: "rules-body" }, h("p", { class: "muted" }, t("common.loading")));
  ctx.app.append(h("section", { class: "page rules-page" }, h("h1", {}, t("rules.title")), tabs, body));
  try {
    const data = await api("GET", `/rules/${encodeURIComponent(variant)}`);
    const text = typeof data === "string" ? data : data.markdown || data.text || "";
    body.replaceChildren(renderMarkdown(text));
  } catch (error) {
    body.replaceChildren(h("p", { class: "error" }, t("rules.unavailable"), " ", errorText(error)));
  }
}
