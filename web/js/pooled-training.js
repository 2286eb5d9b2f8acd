// Train under k-fold with more than one worker: the folds' models are fitted side by side on the pool
// (`train_fold`, one piece a fold, pool.js), then the page's worker trains with them (`train` with `folds`),
// which checks them against its own folds, fits only the final model and keeps the run as ever. The result
// is the one the page's worker gives alone (the measured times aside): the same pieces, assembled the same way.
import { store } from "./store.js";
import { python } from "./python.js";
import { showProgress } from "./work.js";
import { pool } from "./pool.js";
import { workerCount } from "./workers-box.js";

// What the bar gives the folds: the final model's fit in the page's worker reports from here on (training.py).
const FOLDS_SHARE = 0.8;

// The reply of `train` with `args`: its folds made by the pool when there are folds to share out and the
// Workers box asks for more than one worker; else the page's worker does it all.
export async function trainPooled(args) {
  const size = poolSizeFor(args);
  if (size <= 1) return python.call("train", args);
  const folds = await pooledFolds(args, size);
  return python.call("train", { ...args, folds });
}

// A clustering or a projection has no folds under k-fold; a box the Compare panel flags trains in one worker.
function poolSizeFor(args) {
  if (args.evaluation?.method !== "kfold" || !args.target) return 1;
  const workers = workerCount();
  return workers.problem ? 1 : workers.count;
}

// Every fold's piece, in the folds' order; the bar counts the folds done.
async function pooledFolds(args, size) {
  const { source, shared, models } = store.get();
  const { target, features, model, params, evaluation, preprocessing, sample = false } = args;
  const common = { target, features, model, params, evaluation, preprocessing, sample };
  const label = models.find((m) => m.name === model)?.label || model;
  const k = evaluation.k;
  const pieces = Array.from({ length: k }, (_, index) => ({ label: `${label}, fold ${index + 1} of ${k}`,
    cmd: "train_fold", args: { ...common, index } }));
  const counted = (done) => showProgress({ event: "progress", fraction: FOLDS_SHARE * done / k,
    label: `Fitted ${done} of ${k} folds in ${size} workers…` });
  counted(0);
  return pool.map(pieces, { size, source, limits: shared.limits, onDone: counted });
}
