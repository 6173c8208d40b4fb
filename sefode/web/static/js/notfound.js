// The "not found" page: an unknown path, a missing room, a bad invite. In the page's language, with a link home.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function notFoundPage(detail = null, testid = "not-found") {
  return h(
    "section",
    { class: "page narrow not-found", testid: "not-found-page" },
    h(
      "div",
      { class: "panel" },
      h("h1", {}, t("notfound.title")),
      h("p", { testid }, detail || t("notfound.text")),
      h("a", { class: "button primary", href: "/", "data-link": true, testid: "not-found-home" }, t("nav.back_home")),
    ),
  );
}

export function renderNotFound(ctx) {
  ctx.app.replaceChildren(notFoundPage());
}
