// Train with more than one worker: the work that splits is done side by side on the pool (pool.js), then
// the page's worker trains with the pieces, checking them against its own run and putting them together as
// it would have made them, so the result is the one it gives alone (the measured times aside):
// - under k-fold, the folds' models, a piece a fold (`train_fold`; `train` with `folds` fits no fold);
// - a seeded forest's or bagging ensemble's final model, a range of its trees a piece (`train_trees`;
//   `train` with `trees` assembles the ensemble instead of growing it). An unseeded one would draw other
//   trees in each worker, so the page's worker grows it alone.
// Under k-fold a forest's folds and final trees are all pieces of one job: the pool keeps busy to the end.
import { store } from "./store.js";
import { python } from "./python.js";
import { showProgress } from "./work.js";
import { mapOnPageData } from "./pool.js";
import { workerCount } from "./workers-box.js";

// What the bar gives the pool's pieces: the page's worker reports from here on (training.py).
const POOL_SHARE = 0.8;
// Ranges of trees per worker: a few, so the bar moves and a worker done early takes another.
const TREE_PIECES_PER_WORKER = 3;

// The reply of `train` with `args`: what splits made by the pool when the Workers box asks for more than
// one worker (a box the Compare panel flags trains in one); else the page's worker does it all.
export async function trainPooled(args) {
  const workers = workerCount();
  const size = workers.problem ? 1 : workers.count;
  const folds = size > 1 ? foldPieces(args) : [];
  const trees = size > 1 ? treePieces(args, size) : [];
  if (!folds.length && !trees.length) return python.call("train", args);
  const done = await mapOnPageData([...folds, ...trees], size, counter(folds, trees, size));
  return python.call("train", { ...args, ...(folds.length ? { folds: done.slice(0, folds.length) } : {}),
    ...(trees.length ? { trees: done.slice(folds.length) } : {}) });
}

// What a piece is given of the training's arguments: all that plans the same run (not `live`, not the trace).
function common({ target, features, model, params, evaluation, preprocessing, sample = false }) {
  return { target, features, model, params, evaluation, preprocessing, sample };
}

const descriptorOf = (model) => store.get().models.find((m) => m.name === model);
const labelOf = (model) => descriptorOf(model)?.label || model;

// A piece a fold under k-fold (a clustering or a projection has none), weighing a fit on k - 1 folds' rows.
function foldPieces(args) {
  if (args.evaluation?.method !== "kfold" || !args.target) return [];
  const k = args.evaluation.k;
  return Array.from({ length: k }, (_, index) => ({ label: `${labelOf(args.model)}, fold ${index + 1} of ${k}`,
    cmd: "train_fold", args: { ...common(args), index }, weight: (k - 1) / k }));
}

// A seeded ensemble's trees in about TREE_PIECES_PER_WORKER ranges a worker, each weighing its share of a fit.
function treePieces(args, size) {
  if (!descriptorOf(args.model)?.capabilities.includes("trees_apart") || paramOf(args, "random_state") === null) {
    return [];  // the learners whose trees grow apart (workbench/tree_pieces.py), seeded
  }
  const n = paramOf(args, "n_estimators");
  const count = Math.min(n, size * TREE_PIECES_PER_WORKER);
  const cut = (i) => Math.round((i * n) / count);
  return Array.from({ length: count }, (_, i) => ({ label: `${labelOf(args.model)}, trees ${cut(i) + 1} to ${cut(i + 1)}`,
    cmd: "train_trees", args: { ...common(args), start: cut(i), stop: cut(i + 1) }, weight: (cut(i + 1) - cut(i)) / n }));
}

// A hyperparameter as the training sets it: the form's value, else the learner's default (null is a value).
function paramOf(args, name) {
  if (args.params && name in args.params) return args.params[name];
  return descriptorOf(args.model)?.params.find((p) => p.name === name)?.default;
}

// The bar for the pool's pieces: the share of the work done, and the folds fitted, then the trees grown.
function counter(folds, trees, size) {
  const total = [...folds, ...trees].reduce((sum, piece) => sum + piece.weight, 0);
  const treeCount = trees.length ? trees[trees.length - 1].args.stop : 0;
  let [work, foldsDone, treesDone] = [0, 0, 0];
  return (done, count, piece) => {
    if (piece) {
      work += piece.weight;
      if (piece.cmd === "train_fold") foldsDone++;
      else treesDone += piece.args.stop - piece.args.start;
    }
    const label = foldsDone < folds.length ? `Fitted ${foldsDone} of ${folds.length} folds in ${size} workers…`
      : `Grew ${treesDone} of ${treeCount} trees in ${size} workers…`;
    showProgress({ event: "progress", fraction: POOL_SHARE * work / total, label });
  };
}
