// Turn alerts every game's table shares: a short tone (Web Audio, no asset) behind a remembered on/off switch, the
// tab title "(Your turn)", a vibration where the browser allows it, and aria-live announcements for screen readers.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SOUND_KEY = "sefode.sound";
let audio = null;
let baseTitle = null;

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // Private mode: the switch holds for this page only.
  }
}

/** A short two-note tone; `kind` "warn" is lower and shorter (the clock's last seconds). */
export function tone(kind = "turn") {
  if (!soundOn()) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    // Browsers refuse (and warn) to start audio before the page has had a gesture: stay silent until then.
    if (!audio && navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const notes = kind === "warn" ? [440] : [660, 880];
    const now = audio.currentTime;
    notes.forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.12;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.11);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.12);
    });
  } catch {
    // No audio on this device: the other alerts still tell the player.
  }
}

/** The page's live region: announce(text) is read out by screen readers without moving focus. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  region.textContent = "";
  // A new node each time, so the same text said twice is read twice.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}

/** The tab title while it is your turn: "(Sua vez) Se Fode"; mine=false puts the plain title back. */
export function turnTitle(mine) {
  if (baseTitle === null || !document.title.startsWith("(")) baseTitle = document.title.replace(/^\(.*?\)\s*/, "");
  const mark = t("alert.title_mark");
  document.title = mine ? `${mark} ${baseTitle}` : baseTitle;
}

/** Everything that tells a player it is their turn now. */
export function yourTurn(text) {
  tone("turn");
  turnTitle(true);
  announce(text || t("alert.your_turn"));
  try {
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(120);
  } catch {
    // Vibration is only where the browser allows it.
  }
}

/** The sound switch drawn in the table's controls. */
export function soundSwitch(onChange) {
  const on = soundOn();
  return h(
    "button",
    {
      type: "button",
      testid: "sound-toggle",
      class: on ? "sound on" : "sound",
      "aria-pressed": on ? "true" : "false",
      title: t("alert.sound_title"),
      onclick: () => {
        setSound(!soundOn());
        if (soundOn()) tone("turn");
        if (onChange) onChange();
      },
    },
    on ? t("alert.sound_on") : t("alert.sound_off"),
  );
}
