// What acts on the result: training a model and showing it (trainAndRecord: train, mark the data
// trained, save the session, show the model, record it in the run history), the exports, importing a
// model and copying the link. results.js shows what these produce.
import { byId, setDisabled } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, showMessage } from "./work.js";
import { showResult, clearResults, viewMessage, CANVAS } from "./results.js";
import { rememberSession } from "./data-controls.js";
import { unavailableReason } from "./unavailable.js";
import { trainingSettings } from "./result-standing.js";
import { trainPooled } from "./pooled-training.js";
import { exportPredictions, exportModel, exportPython, exportSklearn, downloadCanvas, readModelFile } from "./export-panel.js";

const e = (id) => byId(id);

// Trains; when it succeeded, awaits `beforeShow` (the page saving its session), then shows the model.
// The save is part of the work, so the model is on screen in the same moment the page says "Ready".
// A failed training takes the previous result off the screen, so it is never read as the new one; a
// cancel keeps it (the user chose to stop, and the recover flow restores what was shown).
async function trainModel(args, beforeShow) {
  const result = await run("Training…", async () => {
    const trained = await trainPooled(args);  // under k-fold, the folds side by side on the pool
    await beforeShow();
    return trained;
  }, { cancellable: true, onError: (error) => {
    if (error.code !== "cancelled" && error.code !== "crashed") clearResults(FAILED);
  } });
  if (!result) return false;
  showResult(result);
  bringIntoView(e("results-heading").closest("section"));
  return true;
}

const FAILED = "The last training failed (the message beside the controls says why), so no model is shown. " +
  "Fix what it names and press Train again.";

// The new result is scrolled to when it starts below the fold (the controls come first on a phone).
export function bringIntoView(box) {
  const top = box.getBoundingClientRect().top;
  if (top >= 0 && top < window.innerHeight * 0.5) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  box.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
}

async function exporting(label, work) {
  const { result } = store.get();
  if (result) await run(label, () => work(result.model_id), { cancellable: true });
}

async function importModel() {
  const file = e("import-model").files[0];
  e("import-model").value = "";
  if (!file) return;
  showMessage("");
  // Scored on the loaded table when it has the model's columns and target (Python decides and says so).
  const table_id = store.get().table?.table_id ?? null;
  const imported = await run("Reading the model…", async () => {
    const bytes = await readModelFile(file);
    return python.call("import_model", { path: bytes, table_id }, [bytes]);  // the worker writes the bytes to a file
  });
  if (imported) showResult({ ...imported, file: file.name, summary: [["Imported from", file.name], ...(imported.summary || [])] });
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    viewMessage("Link copied: it reproduces these settings on built-in data. Uploaded data is never in the link.");
  } catch {
    viewMessage(`Copy this link: ${location.href}`);
  }
}

// An export that needs the training rows waits for a trained model (unavailable.js says why).
const EXPORTS = { "export-predictions": "export_predictions", "export-model": "", "export-python": "export_python",
  "export-sklearn": "export_sklearn", "copy-link": "", "import-button": "" };

function enableButtons({ ready, busy, view, result }) {
  const idle = ready && !busy;
  for (const [id, cmd] of Object.entries(EXPORTS)) setDisabled(e(id), !idle || Boolean(unavailableReason(result, cmd)));
  setDisabled(e("save-image"), !idle || !CANVAS[view]);
}


// The one way a training is done (Train, a ranking's row, a run of the history trained again): train
// with `args`; when it succeeded, mark the data trained and save the session before the model is shown
// (so a reload right after sees it), show it, and record it in the run history (`trainedRun`). True
// when it succeeded.
export async function trainAndRecord(args) {
  const settings = trainingSettings();  // the settings it is trained with, for the out-of-date mark
  store.set({ training: args });  // what Cancel stops (a network's is kept at its last epoch: lifecycle.js)
  const trained = await trainModel(args, () => {
    store.set({ trained: true, lastTrain: args, trainedSettings: settings });
    return rememberSession();
  }).finally(() => store.set({ training: null }));
  if (trained) store.set({ trainedRun: { args, result: store.get().result } });
  return trained;
}

export function mountResultActions() {
  store.subscribe(["ready", "busy", "view", "result"], enableButtons);
  e("export-predictions").addEventListener("click", () => exporting("Writing predictions…", (id) => exportPredictions(python, id)));
  e("export-model").addEventListener("click", () => exporting("Writing the model…", (id) => exportModel(python, id)));
  e("export-python").addEventListener("click", () => exporting("Writing the script…", (id) => exportPython(python, id)));
  e("export-sklearn").addEventListener("click", () => exporting("Writing the scikit-learn script…", (id) => exportSklearn(python, id)));
  e("save-image").addEventListener("click", () => {
    const { view } = store.get();
    exporting("Saving the picture…", () => downloadCanvas(e(CANVAS[view]), `pellucid-${view}.png`));
  });
  e("copy-link").addEventListener("click", copyLink);
  e("import-button").addEventListener("click", () => e("import-model").click());
  e("import-model").addEventListener("change", importModel);
}
