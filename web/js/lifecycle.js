// The page's life with its Python worker: opening as a link describes it (data, roles, model,
// parameters, evaluation; then training), coming back after a reload, and starting a new worker after
// a cancel or a crash with the page's data loaded back in.
import { store } from "./store.js";
import { python } from "./python.js";
import { pool } from "./pool.js";
import { run, setStatus, showMessage, showNote } from "./work.js";
import { loadSharedSettings } from "./shared-settings.js";
import { openLink } from "./link.js";
import { chooseModel } from "./model-controls.js";
import { chooseDataset, loadData, loadChosenDataset, showTable } from "./data-controls.js";
import { clearResults, wantView } from "./results.js";
import { train } from "./training.js";
import { trainAndRecord } from "./result-actions.js";
import { loadSession } from "./session-store.js";
import { loadSource } from "./data-source.js";
import { EVALUATION_KEYS } from "./eval-panel.js";
import { PREPROCESS_KEYS } from "./preprocess-panel.js";

// Read at once: the page needs it (split, folds, limits) before Python is ready.
export const sharedSettings = loadSharedSettings();

// Asked at once too: the worker answers for the menus as soon as pellucid is imported, without waiting for
// the page to hear that Python is ready; the saved session (IndexedDB) is read meanwhile. (A Python that
// cannot start says so in the status line.)
const askForMenus = () => Promise.all([python.call("datasets"), python.call("models"), loadSession()]);
const askedEarly = askForMenus();
askedEarly.catch(() => {});

export async function start() {
  // Asked again when the worker asked early was replaced (it died) before it answered.
  const [datasets, models, saved] = await askedEarly.catch(askForMenus);
  store.set({ datasets, models });
  const hash = location.hash;
  const { settings: s, rejected } = openLink(hash);
  const known = datasets.some((d) => d.name === s.dataset);
  if (!known && s.dataset !== "upload") rejected.push("dataset");
  const modelKnown = models.some((m) => m.name === s.model);
  if (!modelKnown) rejected.push("model");
  if (rejected.length) showNote(`Some settings in the link were not understood and were left at their defaults: ${[...new Set(rejected)].join(", ")}.`);
  chooseModel(modelKnown ? s.model : models[0].name, s.params, { byUser: modelKnown && hash.includes("model=") });
  store.set(Object.fromEntries([...EVALUATION_KEYS, ...PREPROCESS_KEYS].map((key) => [key, s[key]])));
  wantView({ view: s.view, x: s.x, y: s.y });
  const wanted = { target: s.target, ignore: s.ignore, explicit: hash.includes("target=") };
  if (saved && (s.dataset === "upload" || hash.length <= 1)) return restoreSession(saved, s);
  if (s.dataset === "upload") {
    store.set({ pending: { ...wanted, categorical: s.categorical } });
    showNote("This link was made with an uploaded file, which stays on its owner's machine. Upload the same file to use these settings.");
    return;
  }
  const dataset = datasets.find((d) => d.name === (known ? s.dataset : datasets[0].name));
  chooseDataset(dataset.name, { n: s.n, noise: s.noise, seed: s.dataSeed });
  const target = hash.includes("target=") ? s.target : dataset.target;
  const loaded = await loadChosenDataset({ ...wanted, target, categorical: s.categorical });
  if (loaded && hash.length > 1 && !rejected.includes("model")) await train();
}

// Reload: the saved data comes back with its roles, and the model is trained again if there was one.
async function restoreSession(saved, s) {
  if (saved.source.type === "example") chooseDataset(saved.source.name, saved.source.generator);
  const loaded = await loadData(saved.source, {});
  if (!loaded) return;
  const { table, roles } = store.get();
  showTable(table, { ...roles, ...saved.roles });
  if (saved.trained && s.model) await train();
}

// A new worker with the page's data loaded back in: after a cancel, or after Python died. With
// `keepResult`, the result on screen stays: its model lived in the old worker, so the training that made
// it (store.lastTrain) is run again on the restored table and the result points at the new model.
async function restartAndRestore(reason, doneText, { keepResult = false } = {}) {
  python.restart();
  const { result, lastTrain } = store.get();
  const rebuild = keepResult && result && !result.imported && lastTrain ? lastTrain : null;
  if (!rebuild) clearResults(reason);
  setStatus("loading", "Restarting Python…");
  const { source, shared } = store.get();
  if (!source) return setStatus("ready", doneText);
  const info = await run("Restoring your data…", () => loadSource(python, source, shared.limits));
  if (info) showTable(info, store.get().roles);
  if (info && rebuild) {
    const again = await run("Restoring the last result…", () => python.call("train", { ...rebuild, table_id: info.table_id }));
    if (again) store.set({ result: { ...store.get().result, model_id: again.model_id } });
    else clearResults(reason);
  }
  setStatus("ready", doneText);
}

// The epoch a network's training had reached when Cancel stopped it, or null: the last one its progress
// reports said, for a seeded network trained on a split (or every row), so that training it again for that
// many epochs makes the very network it had then. Under k-fold there is no one network to keep.
function stoppedEpoch({ training, progressLabel }) {
  const epoch = /\bepoch (\d+) of \d+$/.exec(progressLabel || "");
  const seeded = training?.params?.random_state !== null;
  return epoch && training?.evaluation?.method !== "kfold" && seeded ? Number(epoch[1]) : null;
}

// A network stopped at an epoch: the worker is replaced at once, then the network is trained again, for
// the epochs it had done, and shown as the result, the loss curve ending there.
async function keepLastEpoch(args, epoch) {
  const done = `Training stopped at epoch ${epoch}`;
  await restartAndRestore(`${done}; the network is the one of that epoch.`, done);
  const { source, table } = store.get();
  if (!source || !table) return;
  await trainAndRecord({ ...args, table_id: table.table_id, params: { ...args.params, max_iter: epoch } });
  setStatus("ready", `${done}: the network shown is the one after epoch ${epoch}.`);
}

// Stops the running job (training, an export, a view's computation) by replacing the worker; the data,
// the settings and the last result are kept, or for a network stopped while training, its last epoch.
export function cancel() {
  const job = store.get().busy.replace(/…$/, "") || "The job";
  // A job of the pool's workers leaves the page's worker as it was: stopping the pool is all there is to do.
  if (pool.busy) {
    pool.cancel();
    return setStatus("ready", `${job} cancelled`);
  }
  const epoch = stoppedEpoch(store.get());
  if (epoch) return keepLastEpoch(store.get().training, epoch);
  return restartAndRestore(`${job} cancelled. Your data and settings are kept; press Train to start again.`,
    `${job} cancelled`, { keepResult: true });
}

export async function recover(detail) {
  if (store.get().recovering) return;
  store.set({ recovering: true });
  try {
    showMessage(`Python stopped unexpectedly (${detail}). It has been restarted and your data and settings restored; ` +
      "if it happens again, try fewer rows or a simpler model.");
    await restartAndRestore("", "Ready");
  } finally {
    store.set({ recovering: false });
  }
}
