// How the model is judged: a train/validation/test split, k-fold cross-validation, or no held-out data.
// The controls live in index.html; this module reads, writes and checks them.
import { byId } from "./dom.js";

const ids = { train: "split-train", validation: "split-validation", test: "split-test", k: "cv-k",
  stratify: "eval-stratify", seed: "eval-seed" };

function methodInputs() {
  return Array.from(document.querySelectorAll('input[name="eval-method"]'));
}

export function readEvaluation() {
  const method = methodInputs().find((r) => r.checked)?.value || "split";
  const num = (id) => Number(byId(id).value);
  return {
    method, train: num(ids.train), validation: num(ids.validation), test: num(ids.test), k: num(ids.k),
    stratify: byId(ids.stratify).checked, seed: num(ids.seed),
  };
}

export function writeEvaluation(s) {
  for (const r of methodInputs()) r.checked = r.value === s.method;
  for (const key of ["train", "validation", "test", "k", "seed"]) byId(ids[key]).value = String(s[key]);
  byId(ids.stratify).checked = s.stratify;
  showMethod();
}

// Only the controls of the chosen method are shown; the training share follows the other two.
export function showMethod() {
  const { method } = readEvaluation();
  byId("split-fields").hidden = method !== "split";
  byId("kfold-fields").hidden = method !== "kfold";
  byId("shared-eval-fields").hidden = method === "none";
}

export function syncTrainShare() {
  const rest = Number(byId(ids.validation).value) + Number(byId(ids.test).value);
  if (Number.isFinite(rest) && rest < 100) byId(ids.train).value = String(100 - rest);
}

// The bridge's `evaluation` argument, or {problem} saying what to fix.
export function evaluationArgs(s) {
  if (s.method === "none") return { method: "none" };
  const whole = (v) => Number.isInteger(v);
  if (!whole(s.seed) || s.seed < 0) return { problem: "The split seed must be a whole number, 0 or more." };
  if (s.method === "kfold") {
    if (!whole(s.k) || s.k < 2 || s.k > 20) return { problem: "k-fold cross-validation needs k between 2 and 20." };
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

export function onEvaluationChange(handler) {
  for (const r of methodInputs()) r.addEventListener("change", () => { showMethod(); handler(); });
  for (const id of Object.values(ids)) byId(id).addEventListener("change", handler);
  for (const id of [ids.validation, ids.test]) byId(id).addEventListener("input", syncTrainShare);
}
