// Small DOM helpers: h() builds elements, toast() and confirmDialog() talk to the user.
import { t } from "./i18n.js";

/**
 * Build an element. attrs: class, testid (data-testid), i18n (catalogue key for the text), text, html-free only;
 * keys starting with "on" add listeners; other keys become attributes (false/null are skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "testid") el.dataset.testid = value;
    else if (key === "text") el.textContent = value;
    else if (key === "i18n") el.textContent = t(value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (v === null || v === undefined) continue;
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    }
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected" || key === "hidden") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

let toastTimer = 0;
export function toast(text, kind = "info", near = null) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = `toast ${kind}${near ? " near" : ""}`;
  el.hidden = false;
  // Near the place the player acted (a refused card or pile): just above it, else just below, inside the screen.
  // Set through the CSSOM, which the page's Content-Security-Policy allows (it forbids style attributes).
  if (near) {
    const margin = 8;
    el.style.left = `${margin}px`; // measured where it is free to take its own width
    el.style.top = "0px";
    const w = el.offsetWidth;
    const height = el.offsetHeight;
    let top = near.top - height - margin;
    if (top < 56) top = Math.min(near.bottom + margin, window.innerHeight - height - margin);
    const left = Math.max(margin, Math.min(near.left + near.width / 2 - w / 2, window.innerWidth - w - margin));
    el.style.left = `${left}px`;
    el.style.top = `${top}px`;
  } else {
    el.style.left = "";
    el.style.top = "";
  }
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, 4000);
}

export function banner(text) {
  const el = document.getElementById("banner");
  if (!text) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  el.textContent = text;
  el.hidden = false;
}

/** Ask a yes/no question in the page's own dialog; resolves to true on confirm. */
export function confirmDialog(text) {
  const dialog = document.getElementById("confirm");
  dialog.querySelector(".confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
  });
}

/** Copy text to the clipboard, falling back to a selected input when the API is not allowed. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
