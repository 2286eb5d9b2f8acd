// Whether the result on screen still answers to the settings beside it. A model trained with settings
// that have since changed (target, features, model, hyperparameters, preprocessing, evaluation, data) is
// marked out of date, saying what changed, until Train runs again or the settings are set back; an
// imported model is marked as one, since the settings set up the next Train, not it. The words go into a
// polite live region, so a screen reader hears the change without losing its place.
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { linkSettings, linkKnown } from "./link.js";
import { EVALUATION_KEYS, evaluationArgs } from "./eval-panel.js";
import { PREPROCESS_KEYS, preprocessArgs } from "./preprocess-panel.js";

const LOOKING = ["view", "x", "y"];  // what is looked at, not how the model was made

// What each part of the settings is called when it changed.
const PART_NAMES = { target: "target", ignore: "features", categorical: "column kinds", model: "model",
  params: "hyperparameters", evaluation: "evaluation", preprocessing: "preprocessing" };
const partName = (key) => PART_NAMES[key] || "data";

// JSON with every object's keys sorted, so settings compare by value, not by the order they were set in.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

// The settings a training is made from, part by part as canonical text: the link's settings
// (link-settings.js) without the view, and the evaluation and preprocessing as Train sends them (so k
// does not count under a split, nor a default ticked by hand). Null before the link's settings are known.
export function trainingSettings(s = store.get()) {
  if (!linkKnown() || !s.shared) return null;
  const settings = linkSettings(s);
  for (const key of [...LOOKING, ...EVALUATION_KEYS, ...PREPROCESS_KEYS]) delete settings[key];
  // Other data is not compared here: loading it takes the result away (data-controls.js).
  const parts = { ...settings, evaluation: evaluationArgs(s, s.shared.cv_folds), preprocessing: preprocessArgs(s) };
  return Object.fromEntries(Object.entries(parts).map(([key, value]) => [key, canonical(value)]));
}

// The parts of the settings that differ from those the result was trained with, by name, in order.
export function changedParts(trained, now) {
  if (!trained || !now) return [];
  const keys = Object.keys({ ...trained, ...now }).filter((key) => trained[key] !== now[key]);
  return [...new Set(keys.map(partName))];
}

function words(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function render(s) {
  const box = byId("result-standing");
  const { result } = s;
  let mark = null;
  if (result?.imported) {
    mark = el("p", { class: "standing imported", dataset: { standing: "imported" } },
      el("strong", { text: "Imported model" }),
      ` from ${result.file}: it was trained elsewhere. The settings beside it set up the next Train and do not describe it.`);
  } else if (result && s.trainedSettings) {
    const changed = changedParts(s.trainedSettings, trainingSettings(s));
    if (changed.length) {
      mark = el("p", { class: "standing stale", dataset: { standing: "stale" } }, el("strong", { text: "Out of date" }),
        `: the ${words(changed)} changed since this model was trained. Press Train to train it with the new settings, `
        + "or set them back.");
    }
  }
  const now = box.firstElementChild;
  if (mark && now && now.textContent === mark.textContent) return;  // the same words: not announced again
  box.replaceChildren(...(mark ? [mark] : []));
  byId("results-heading").closest("section").classList.toggle("result-stale", mark?.dataset.standing === "stale");
}

export function mountResultStanding() {
  store.subscribe(null, (s, changed) => {
    if (changed.some((key) => !["busy", "status", "progress", "cancellable"].includes(key))) render(s);
  });
}
