// Train: the store's choices checked and turned into the bridge's `train` arguments, then trained.
import { byId, setDisabled } from "./dom.js";
import { store } from "./store.js";
import { showMessage } from "./work.js";
import { chosenModel, needsTarget, checkChosenParams, rowLimit } from "./model-controls.js";
import { evaluationArgs } from "./eval-panel.js";
import { preprocessArgs } from "./preprocess-panel.js";
import { trainAndRecord } from "./result-actions.js";
import { roleControl } from "./error-fields.js";

const els = { train: byId("train"), cancel: byId("cancel"), file: byId("csv-file"), dataset: byId("dataset"),
  target: byId("target"), model: byId("model") };

function targetOf({ table, roles }) {
  return table?.columns.find((c) => roles[c] === "target") || null;
}

const evaluationControl = (s) => (s.method === "kfold" ? "cv-k" : s.method === "split" ? "split-train" : "eval-seed");

// The bridge's `train` arguments, or {problem, control} saying what to fix first and where.
export function trainingArgs(s) {
  const model = chosenModel(s);
  const problems = checkChosenParams();
  if (problems.length) return { problem: `Fix the model's settings first: ${problems.join(" ")}`, control: "#params [aria-invalid=true]" };
  const evaluation = evaluationArgs(s, s.shared.cv_folds);
  if (evaluation.problem) return { problem: evaluation.problem, control: `#${evaluationControl(s)}` };
  const target = needsTarget(s) ? targetOf(s) : null;
  if (needsTarget(s) && !target) return { problem: `${model.label} learns to predict a column: choose the Target.`, control: "#target" };
  const over = rowLimit(s);
  if (over && !s.sample) {
    return { problem: `${model.label} works on up to ${over.limit.toLocaleString("en-US")} rows; this table has `
      + `${over.rows.toLocaleString("en-US")}. Tick “Train on a random sample” to train it on a sample.`, control: "#row-limit-sample" };
  }
  const features = s.table.columns.filter((c) => s.roles[c] === "feature");
  if (!features.length) {
    return { problem: "Every column is ignored or the target: set at least one column's role to feature.", control: roleControl(s.table.columns[0]) };
  }
  return { table_id: s.table.table_id, target, features, model: model.name, params: { ...s.params }, evaluation,
    preprocessing: preprocessArgs(s), ...(over ? { sample: true } : {}) };
}

export async function train() {
  showMessage("");
  const s = store.get();
  const args = trainingArgs(s);
  if (args.problem) return showMessage(args.problem, "", args.control);
  await trainAndRecord({ ...args, live: true });  // a small network is drawn as it learns (live-network.js)
}

// Train needs Python idle, data, and a target when the model predicts one; Cancel shows while a
// cancellable job runs; the data and model controls wait while Python works.
function enableControls(s) {
  const idle = s.ready && !s.busy;
  setDisabled(els.train, !(idle && s.table && (targetOf(s) || !needsTarget(s)) && (!rowLimit(s) || s.sample)));
  els.cancel.hidden = !(s.busy && s.cancellable);
  for (const c of [els.file, els.dataset, els.model]) setDisabled(c, !idle);
  setDisabled(els.target, !idle || !s.table);
}

export function mountTraining({ cancel }) {
  store.subscribe(["ready", "busy", "cancellable", "table", "roles", "model", "models", "sample"], enableControls);
  enableControls(store.get());
  els.train.addEventListener("click", train);
  els.cancel.addEventListener("click", cancel);
}
