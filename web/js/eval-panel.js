// How the model is judged: a train/validation/test split, k-fold cross-validation, or no held-out data.
// The controls live in index.html; they write the store, and are drawn from it.
import { byId } from "./dom.js";
import { store } from "./store.js";

const NUMBERS = { train: "split-train", validation: "split-validation", test: "split-test", k: "cv-k", repeats: "cv-repeats",
  seed: "eval-seed" };
export const EVALUATION_KEYS = ["method", ...Object.keys(NUMBERS), "stratify"];

function methodInputs() {
  return Array.from(document.querySelectorAll('input[name="eval-method"]'));
}

// The training share follows the other two while they are typed.
function withTrainShare(s) {
  const rest = s.validation + s.test;
  return Number.isFinite(rest) && rest < 100 ? { ...s, train: 100 - rest } : s;
}

function render(s) {
  for (const r of methodInputs()) r.checked = r.value === s.method;
  for (const [key, id] of Object.entries(NUMBERS)) {
    // Only a value that differs is written back, so a box being typed in is left alone.
    if (Number(byId(id).value) !== s[key]) byId(id).value = String(s[key]);
  }
  byId("eval-stratify").checked = s.stratify;
  byId("split-fields").hidden = s.method !== "split";
  byId("kfold-fields").hidden = s.method !== "kfold";
  byId("shared-eval-fields").hidden = s.method === "none";
}

// Wires the controls; `shared` (settings.json) gives the ranges of k, of its repeats, of the split's parts
// and of a seed.
export function mountEvaluation(shared) {
  const ranges = { ...shared.split_limits, k: shared.cv_folds, repeats: shared.cv_repeats, seed: shared.seed };
  for (const [key, id] of Object.entries(NUMBERS)) {
    byId(id).min = String(ranges[key].min);
    byId(id).max = String(ranges[key].max);
  }
  for (const r of methodInputs()) r.addEventListener("change", () => store.set({ method: r.value }));
  for (const [key, id] of Object.entries(NUMBERS)) {
    const write = () => {
      const patch = { [key]: Number(byId(id).value) };
      store.update((s) => (key === "validation" || key === "test" ? withTrainShare({ ...s, ...patch }) : patch));
    };
    byId(id).addEventListener("input", write);
    byId(id).addEventListener("change", write);
  }
  byId("eval-stratify").addEventListener("change", (event) => store.set({ stratify: event.target.checked }));
  store.subscribe(EVALUATION_KEYS, render);
}

// Compare learners' evaluation: Train's with the k-fold repeats (Train and Tune cross-validate once), or
// {problem} saying what to fix.
export function comparisonEvaluation(s, evaluation) {
  if (evaluation.method !== "kfold") return evaluation;
  const { min, max } = s.shared.cv_repeats;
  if (!Number.isInteger(s.repeats) || s.repeats < min || s.repeats > max) {
    return { problem: `Repeats must be a whole number from ${min} to ${max} (1 is plain k-fold).` };
  }
  return { ...evaluation, repeats: s.repeats };
}

// The bridge's `evaluation` argument, or {problem} saying what to fix; `folds` is the range of k.
export function evaluationArgs(s, folds) {
  if (s.method === "none") return { method: "none" };
  const whole = (v) => Number.isInteger(v);
  const seed = s.shared.seed;
  if (!whole(s.seed) || s.seed < seed.min || s.seed > seed.max) {
    return { problem: `The split seed must be a whole number from ${seed.min} to ${seed.max.toLocaleString("en-US")}.` };
  }
  if (s.method === "kfold") {
    if (!whole(s.k) || s.k < folds.min || s.k > folds.max) {
      return { problem: `k-fold cross-validation needs k between ${folds.min} and ${folds.max}.` };
    }
    return { method: "kfold", k: s.k, stratify: s.stratify, seed: s.seed };
  }
  const parts = [s.train, s.validation, s.test];
  if (!parts.every(whole) || parts.some((p) => p < 0)) return { problem: "Split percentages must be whole numbers, 0 or more." };
  if (s.train < 1) return { problem: "The training share must be at least 1%." };
  if (s.train + s.validation + s.test !== 100) {
    return { problem: `Split percentages must add up to 100 (now ${s.train + s.validation + s.test}).` };
  }
  return { method: "split", train: s.train, validation: s.validation, test: s.test, stratify: s.stratify, seed: s.seed };
}
