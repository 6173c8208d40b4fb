// A small Markdown renderer for the rules pages: headings, paragraphs, lists (nested by indent), tables,
// block quotes, rules, code spans, bold, italic and links. It builds DOM nodes, never HTML strings.
import { h } from "./dom.js";

const INLINE = /(`[^`]+`)|(\*\*[^*]+?\*\*|__[^_]+?__)|(\*[^*\s][^*]*?\*|_[^_\s][^_]*?_)|(\[[^\]]+\]\([^)\s]+\))/;

export function renderInline(text) {
  const out = [];
  let rest = text;
  while (rest) {
    const match = INLINE.exec(rest);
    if (!match) {
      out.push(rest);
      break;
    }
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const token = match[0];
    if (match[1]) out.push(h("code", {}, token.slice(1, -1)));
    else if (match[2]) out.push(h("strong", {}, renderInline(token.slice(2, -2))));
    else if (match[3]) out.push(h("em", {}, renderInline(token.slice(1, -1))));
    else {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
      const href = link[2];
      const safe = /^(https?:|\/|#|\.)/.test(href) ? href : "#";
      out.push(h("a", { href: safe, rel: "noopener" }, renderInline(link[1])));
    }
    rest = rest.slice(match.index + token.length);
  }
  return out;
}

function splitRow(line) {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|")) body = body.slice(0, -1);
  return body.split("|").map((cell) => cell.trim());
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

function parseList(lines, start) {
  // Returns [element, next index]. Items deeper than the first item's indent nest inside the previous item;
  // an item's text may go on over indented lines (joined before the inline pass, so **bold** may span them).
  const first = LIST_ITEM.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = h(ordered ? "ol" : "ul");
  let i = start;
  let item = null;
  let text = [];
  const flush = () => {
    if (item && text.length) item.append(...renderInline(text.join(" ")));
    text = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      const next = lines[i + 1];
      const nm = next === undefined ? null : LIST_ITEM.exec(next);
      if (nm && (nm[1].length > indent || (nm[1].length === indent && /\d/.test(nm[2]) === ordered))) {
        i += 1;
        continue;
      }
      break;
    }
    const m = LIST_ITEM.exec(line);
    if (m && m[1].length === indent && /\d/.test(m[2]) !== ordered) break;
    if (m && m[1].length === indent) {
      flush();
      item = h("li");
      list.appendChild(item);
      text = [m[3]];
      i += 1;
    } else if (m && m[1].length > indent && item) {
      flush();
      const [nested, next] = parseList(lines, i);
      item.appendChild(nested);
      i = next;
    } else if (!m && /^\s+\S/.test(line) && item) {
      text.push(line.trim());
      i += 1;
    } else break;
  }
  flush();
  return [list, i];
}

/** Render Markdown text into a DocumentFragment. */
export function renderMarkdown(text) {
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  const frag = document.createDocumentFragment();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      frag.appendChild(h(`h${heading[1].length}`, {}, renderInline(heading[2])));
      i += 1;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      frag.appendChild(h("hr"));
      i += 1;
      continue;
    }
    if (line.trim().startsWith("```")) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith("```")) body.push(lines[i++]);
      i += 1;
      frag.appendChild(h("pre", {}, h("code", {}, body.join("\n"))));
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(lines[i + 1])) {
      const head = splitRow(line);
      const aligns = splitRow(lines[i + 1]).map((c) =>
        c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : null,
      );
      const table = h("table");
      table.appendChild(
        h("thead", {}, h("tr", {}, head.map((c, k) => h("th", { style: aligns[k] ? { textAlign: aligns[k] } : null }, renderInline(c))))),
      );
      const tbody = h("tbody");
      i += 2;
      while (i < lines.length && lines[i].includes("|") && lines[i].trim()) {
        const cells = splitRow(lines[i]);
        tbody.appendChild(
          h("tr", {}, head.map((_, k) => h("td", { style: aligns[k] ? { textAlign: aligns[k] } : null }, renderInline(cells[k] || "")))),
        );
        i += 1;
      }
      table.appendChild(tbody);
      frag.appendChild(h("div", { class: "table-scroll" }, table));
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const [list, next] = parseList(lines, i);
      frag.appendChild(list);
      i = next;
      continue;
    }
    if (line.startsWith(">")) {
      const body = [];
      while (i < lines.length && lines[i].startsWith(">")) body.push(lines[i++].replace(/^>\s?/, ""));
      const quote = h("blockquote");
      quote.appendChild(renderMarkdown(body.join("\n")));
      frag.appendChild(quote);
      continue;
    }
    const para = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !/^(#{1,6})\s/.test(lines[i]) &&
      !LIST_ITEM.test(lines[i]) &&
      !lines[i].startsWith(">") &&
      !lines[i].trim().startsWith("```")
    ) {
      para.push(lines[i].trim());
      i += 1;
    }
    frag.appendChild(h("p", {}, renderInline(para.join(" "))));
  }
  return frag;
}
