// Builds labelled hyperparameter controls from the rules the Python side describes, checks them
// against the same rules (so a bad value is explained before anything is sent); the controls' own
// handlers read them (readParams) to write the page's store.
import { el, option } from "./dom.js";

function controlFor(param) {
  if (param.kind === "choice") {
    const options = param.none_ok ? [null, ...param.options] : param.options;
    // None is offered as "none" and read back as null.
    return el("select", {}, ...options.map((o) => option(o === null ? "" : String(o), o === null ? "none" : String(o))));
  }
  if (param.kind === "bool") return el("input", { type: "checkbox" });
  // Layer sizes are a short list typed as text ("32" or "32, 16"), read back as whole numbers.
  if (param.kind === "sizes") return el("input", { type: "text", inputmode: "numeric", spellcheck: "false", autocomplete: "off" });
  // A number that also takes a word (batch_size "auto") is typed as text: a number box would drop the word.
  if (param.also?.length) {
    return el("input", { type: "text", inputmode: "decimal", spellcheck: "false", autocomplete: "off", dataset: { also: param.also.join(" ") } });
  }
  const input = el("input", { type: "number", step: param.kind === "int" ? "1" : "any", inputmode: "decimal" });
  if (param.low !== null && param.low !== undefined) input.min = String(param.low);
  if (param.high !== null && param.high !== undefined) input.max = String(param.high);
  if (param.none_ok) input.placeholder = "none";
  return input;
}

// What the page calls a parameter: the notes' symbol where the Python side gives one (k for n_neighbors,
// seed for random_state), else its name with spaces.
export function paramLabel(param) {
  return param.label || param.name.replaceAll("_", " ");
}

// The value `values` holds for `param`, under its name or the name it had before scikit-learn's (a saved
// session or a link written then); undefined when neither is there.
function valueFor(param, values) {
  if (param.name in values) return values[param.name];
  return param.was && param.was in values ? values[param.was] : undefined;
}

// A list of layer sizes as the box shows it: "32, 16"; a single number stays as it is.
export function sizesText(value) {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

// The box's text as a list of numbers ("32, 16" -> [32, 16]); a word that is not a number reads as NaN,
// so the rule's check names it.
export function readSizes(text) {
  return String(text).split(",").map((t) => t.trim()).filter(Boolean).map((t) => (/^[+-]?[\d.eE+-]+$/.test(t) ? Number(t) : NaN));
}

// Whether two parameter values are the same setting (a list of sizes compares by its numbers).
export function sameValue(a, b) {
  return Array.isArray(a) || Array.isArray(b) ? JSON.stringify(a) === JSON.stringify(b) : a === b;
}

function setControl(control, kind, value) {
  if (kind === "bool") control.checked = Boolean(value);
  else if (kind === "sizes") control.value = value === null || value === undefined ? "" : sizesText(value);
  else control.value = value === null || value === undefined ? "" : String(value);
}

export function renderParams(container, params, values = {}) {
  container.replaceChildren();
  for (const param of params) {
    if (param.kind === "vector") continue;
    const id = `param-${param.name}`;
    const control = controlFor(param);
    control.id = id;
    control.dataset.param = param.name;
    control.dataset.kind = param.kind;
    const value = valueFor(param, values);
    setControl(control, param.kind, value === undefined ? param.default : value);
    const label = el("label", { for: id, text: paramLabel(param) });
    const help = param.help ? el("span", { class: "help", id: `${id}-help`, text: param.help }) : null;
    const error = el("span", { class: "field-error", id: `${id}-error`, hidden: true });
    control.setAttribute("aria-describedby", [help && help.id, error.id].filter(Boolean).join(" "));
    const field = el("div", { class: param.kind === "bool" ? "field check" : "field" });
    if (param.kind === "bool") field.append(el("span", { class: "check-row" }, control, label), help, error);
    else field.append(label, control, help, error);
    container.append(field);
  }
}

// Reads the controls back into {name: value}; an empty number box means None (no limit).
export function readParams(container) {
  const values = {};
  for (const control of container.querySelectorAll("[data-param]")) {
    const { param, kind } = control.dataset;
    if (kind === "bool") values[param] = control.checked;
    else if (kind === "choice") values[param] = control.value === "" ? null : control.value;
    else if (kind === "sizes") values[param] = readSizes(control.value);
    else if (control.value.trim() === "") values[param] = null;
    else if (control.dataset.also?.split(" ").includes(control.value.trim())) values[param] = control.value.trim();
    else values[param] = Number(control.value);
  }
  return values;
}

// Why `value` breaks `param`'s rule, or "" when it fits.
export function paramProblem(param, value) {
  if (value === null) return param.none_ok ? "" : "Enter a value.";
  if (param.also?.includes(value)) return "";
  if (param.kind === "sizes") return sizesProblem(param, value);
  if (param.kind !== "int" && param.kind !== "float") return "";
  if (!Number.isFinite(value)) return "Enter a number.";
  if (param.kind === "int" && !Number.isInteger(value)) return "Enter a whole number.";
  const { low, high } = param;
  if (low !== null && low !== undefined && (param.low_open ? value <= low : value < low)) {
    return `Must be ${param.low_open ? "greater than" : "at least"} ${low}.`;
  }
  if (high !== null && high !== undefined && (param.high_open ? value >= high : value > high)) {
    return `Must be ${param.high_open ? "less than" : "at most"} ${high}.`;
  }
  return "";
}

// The rule of a "sizes" parameter as Python describes it: 1 to max_layers whole numbers, each >= low.
function sizesProblem(param, value) {
  const sizes = Array.isArray(value) ? value : [value];
  const most = param.max_layers;
  if (!sizes.length || sizes.length > most) {
    return `Enter 1 to ${most} whole numbers separated by commas (e.g. 32 or 32, 16): one per hidden layer.`;
  }
  const bad = sizes.find((v) => !Number.isInteger(v) || v < param.low);
  if (bad !== undefined) return `Each layer's size must be a whole number of at least ${param.low}; ${Number.isNaN(bad) ? "a word" : bad} is not.`;
  return "";
}

// The value of each parameter with a control: `values` where they name it, else its default.
export function paramValues(params, values = {}) {
  return Object.fromEntries(params.filter((p) => p.kind !== "vector").map((p) => {
    const value = valueFor(p, values);
    return [p.name, value === undefined ? p.default : value];
  }));
}

// Marks each control whose value in `values` breaks its rule, and returns ["name: problem", ...]
// (empty when all fit).
export function checkParams(container, params, values) {
  const problems = [];
  for (const param of params) {
    const control = container.querySelector(`[data-param="${param.name}"]`);
    if (!control) continue;
    const problem = paramProblem(param, values[param.name]);
    const error = document.getElementById(`${control.id}-error`);
    error.textContent = problem;
    error.hidden = !problem;
    control.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) problems.push(`${paramLabel(param)}: ${problem}`);
  }
  return problems;
}
