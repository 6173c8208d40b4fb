// The provably fair deal, one tap away: a small "Sorteio verificável" disclosure instead of a hash on the table.
// At the table it holds the commitment (`room.match.seed_hash`, the SHA-256 of the match's seed); on the replay page
// the revealed number (the history's seed) and its SHA-256 computed here, to compare with the code the table showed.
// docs/protocol.md describes the commitment; nothing here is drawn open: a player sees only the disclosure's title.
import { h } from "./dom.js";
import { t } from "./i18n.js";

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The disclosure: `{hash}` (the table's commitment) or `{seed}` (the replay's revealed number, as text). */
export function fairCheck({ hash = null, seed = null, testid = "fair-check" } = {}) {
  const body = [];
  if (hash) {
    body.push(h("p", {}, t("fair.commit")), h("code", { class: "fair-code", testid: "seed-hash" }, hash), h("p", {}, t("fair.commit_how")));
  }
  if (seed !== null && seed !== undefined && seed !== "") {
    const digest = h("code", { class: "fair-code", testid: "fair-seed-hash" }, "…");
    body.push(h("p", {}, t("fair.reveal")), h("code", { class: "fair-code", testid: "fair-seed" }, String(seed)), h("p", {}, t("fair.reveal_hash")), digest);
    if (globalThis.crypto && crypto.subtle) {
      sha256Hex(String(seed)).then(
        (hex) => {
          digest.textContent = hex;
        },
        () => {
          digest.textContent = "—";
        },
      );
    } else {
      digest.textContent = "—";
    }
  }
  if (!body.length) return null;
  return h("details", { class: "fair-check small", testid }, h("summary", {}, t("fair.title")), h("div", { class: "fair-body" }, body));
}
