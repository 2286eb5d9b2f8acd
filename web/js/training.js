// Train: the store's choices checked and turned into the bridge's `train` arguments, then trained.
import { byId, setDisabled } from "./dom.js";
import { store } from "./store.js";
import { showMessage } from "./work.js";
import { chosenModel, needsTarget, checkChosenParams } from "./model-controls.js";
import { evaluationArgs } from "./eval-panel.js";
import { preprocessArgs } from "./preprocess-panel.js";
import { trainModel } from "./results.js";
import { rememberSession } from "./data-controls.js";

const els = { train: byId("train"), cancel: byId("cancel"), file: byId("csv-file"), dataset: byId("dataset"),
  target: byId("target"), model: byId("model") };

function targetOf({ table, roles }) {
  return table?.columns.find((c) => roles[c] === "target") || null;
}

// The bridge's `train` arguments, or {problem} saying what to fix first.
function trainingArgs(s) {
  const model = chosenModel(s);
  const problems = checkChosenParams();
  if (problems.length) return { problem: `Fix the model's settings first: ${problems.join(" ")}` };
  const evaluation = evaluationArgs(s, s.shared.cv_folds);
  if (evaluation.problem) return { problem: evaluation.problem };
  const target = needsTarget(s) ? targetOf(s) : null;
  if (needsTarget(s) && !target) return { problem: `${model.label} learns to predict a column: choose the Target.` };
  const features = s.table.columns.filter((c) => s.roles[c] === "feature");
  if (!features.length) return { problem: "Every column is ignored or the target: set at least one column's role to feature." };
  return { table_id: s.table.table_id, target, features, model: model.name, params: { ...s.params }, evaluation,
    preprocessing: preprocessArgs(s) };
}

export async function train() {
  showMessage("");
  const args = trainingArgs(store.get());
  if (args.problem) return showMessage(args.problem);
  // The session is saved before the new model is shown, so a reload right after it sees the model.
  await trainModel(args, () => {
    store.set({ trained: true, lastTrain: args });
    return rememberSession();
  });
}

// Train needs Python idle, data, and a target when the model predicts one; Cancel shows while a
// cancellable job runs; the data and model controls wait while Python works.
function enableControls(s) {
  const idle = s.ready && !s.busy;
  setDisabled(els.train, !(idle && s.table && (targetOf(s) || !needsTarget(s))));
  els.cancel.hidden = !(s.busy && s.cancellable);
  for (const c of [els.file, els.dataset, els.model]) setDisabled(c, !idle);
  setDisabled(els.target, !idle || !s.table);
}

export function mountTraining({ cancel }) {
  store.subscribe(["ready", "busy", "cancellable", "table", "roles", "model", "models"], enableControls);
  enableControls(store.get());
  els.train.addEventListener("click", train);
  els.cancel.addEventListener("click", cancel);
}
