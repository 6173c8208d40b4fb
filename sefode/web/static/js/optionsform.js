// Option fields built from a game's schema (`OptionSpec.to_json()` in /api/games): a select for a choice, a checkbox
// for a bool, a select for a small whole-number range, else a number box (empty = automatic when nullable). An option
// whose `when` does not hold is hidden and left out of the values. Test ids are `<prefix>-<key>` (underscores as
// dashes), e.g. `create-max-cards`.
import { h } from "./dom.js";
import { t, tg } from "./i18n.js";
import { applies } from "./games.js";

const SELECT_RANGE = 12;

function testidOf(prefix, key) {
  return `${prefix}-${key.replace(/_/g, "-")}`;
}

function control(spec, option, prefix, initial) {
  const testid = testidOf(prefix, option.key);
  const value = initial === undefined ? option.default : initial;
  if (option.kind === "bool") {
    return h("input", { type: "checkbox", testid, checked: Boolean(value) });
  }
  if (option.kind === "choice") {
    const labels = option.choice_labels || [];
    return h(
      "select",
      { testid },
      option.choices.map((choice, i) =>
        h("option", { value: String(choice), selected: choice === value }, labels[i] ? tg(spec.name, labels[i]) : String(choice)),
      ),
    );
  }
  const min = option.minimum;
  const max = option.maximum;
  if (!option.nullable && min !== null && max !== null && max - min <= SELECT_RANGE) {
    const items = [];
    for (let n = min; n <= max; n += 1) items.push(h("option", { value: String(n), selected: n === value }, String(n)));
    return h("select", { testid }, items);
  }
  return h("input", {
    type: "number",
    testid,
    min: min === null ? null : String(min),
    max: max === null ? null : String(max),
    step: "1",
    inputmode: "numeric",
    value: value === null || value === undefined ? "" : String(value),
    placeholder: option.nullable ? t("create.auto") : null,
  });
}

function read(option, el) {
  if (option.kind === "bool") return el.checked;
  if (option.kind === "choice") {
    const found = option.choices.find((c) => String(c) === el.value);
    return found === undefined ? option.default : found;
  }
  if (el.value === "") return option.nullable ? null : option.default;
  const n = Number(el.value);
  return Number.isInteger(n) ? n : option.default;
}

/**
 * The option fields of a game. opts: prefix (test ids), exclude (keys the page fills itself), values (initial),
 * fixed (values of excluded options, for `when`), adjust(form) (the game module's own rules between fields),
 * fold(option) (true: the field goes under "more options", closed), onChange(values). Returns {element, values(), field(key) -> {option, control, wrapper} | null, sync()}.
 */
export function optionForm(spec, opts = {}) {
  const prefix = opts.prefix || "option";
  const exclude = new Set(opts.exclude || []);
  const fields = [];
  for (const option of spec.options || []) {
    if (exclude.has(option.key)) continue;
    const el = control(spec, option, prefix, opts.values ? opts.values[option.key] : undefined);
    const label = tg(spec.name, option.label);
    const hint = option.help ? h("small", { class: "muted" }, tg(spec.name, option.help)) : null;
    const wrapper =
      option.kind === "bool"
        ? h("label", { class: "check option-field", "data-option": option.key }, el, h("span", {}, label), hint)
        : h("label", { class: "field option-field", "data-option": option.key }, h("span", { class: "label" }, label), el, hint);
    fields.push({ option, control: el, wrapper });
  }
  const folded = opts.fold ? fields.filter((f) => opts.fold(f.option)) : [];
  const open = fields.filter((f) => !folded.includes(f));
  const element = h(
    "div",
    { class: "option-fields", testid: `${prefix}-options` },
    open.length ? h("div", { class: "grid2" }, open.map((f) => f.wrapper)) : null,
    folded.length
      ? h(
          "details",
          { class: "more-options", testid: `${prefix}-more-options` },
          h("summary", {}, t("create.more_options")),
          h("div", { class: "grid2" }, folded.map((f) => f.wrapper)),
        )
      : null,
  );

  function values() {
    const out = {};
    for (const f of fields) {
      if (f.wrapper.hidden || f.control.disabled) continue;
      out[f.option.key] = read(f.option, f.control);
    }
    return out;
  }

  const form = {
    element,
    values,
    field: (key) => fields.find((f) => f.option.key === key) || null,
    sync() {
      // `when` looks at the options declared before (as the server's validation does).
      const seen = { ...(opts.fixed || {}) };
      for (const f of fields) {
        const on = applies(f.option, seen);
        f.wrapper.hidden = !on;
        if (on) seen[f.option.key] = read(f.option, f.control);
      }
      if (opts.adjust) opts.adjust(form);
      if (opts.onChange) opts.onChange(values());
    },
  };
  for (const f of fields) f.control.addEventListener("change", () => form.sync());
  form.sync();
  return form;
}
