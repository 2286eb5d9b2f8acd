// Wiring: the store's views and controls are mounted, Python's reports are routed, and the page opens
// once the shared settings and Python are both ready. The page owns the user's data and settings; the
// worker only computes, so a cancel loses nothing.
import { byId, keyboardScrollableWhenScrolling } from "./dom.js";
import { store } from "./store.js";
import { python, onPython } from "./python.js";
import { run, setStatus, showMessage, showProgress } from "./work.js";
import { mountDataControls } from "./data-controls.js";
import { mountModelControls } from "./model-controls.js";
import { mountLearnerFollow } from "./learner-follow.js";
import { mountEvaluation, EVALUATION_KEYS } from "./eval-panel.js";
import { makeProps, defaults } from "./link-settings.js";
import { mountResults } from "./results.js";
import { mountResultActions } from "./result-actions.js";
import { mountResultStanding } from "./result-standing.js";
import { mountUnavailable } from "./unavailable.js";
import { mountApplyPanel } from "./apply-panel.js";
import { mountCurvesView } from "./curves-view.js";
import { mountImportanceView } from "./importance-view.js";
import { mountForestView } from "./forest-view.js";
import { mountStagedView } from "./staged-view.js";
import { mountNetworkView } from "./network-view.js";
import { mountTuning } from "./tuning-view.js";
import { mountTraining } from "./training.js";
import { mountHistory } from "./history.js";
import { mountLeaderboard } from "./leaderboard.js";
import { mountPreprocessPanel } from "./preprocess-panel.js";
import { mountLink, linkSettings } from "./link.js";
import { sharedSettings, start, cancel, recover } from "./lifecycle.js";
import { registerOffline, setPageBuild, showNewVersion, watchForNewVersion } from "./offline.js";
import { clearSession } from "./session-store.js";
import { mountLiveLoss } from "./live-loss.js";
import { mountLiveNetwork } from "./live-network.js";

// The first time Python is ready the page still loads its menus and the opening data; "Ready" is shown
// only after that, so nothing the user (or a test) does races the opening load.
async function showStatus({ state, text, seconds, version, build, snapshot }) {
  if (state === "ready" && !store.get().ready) {
    store.set({ ready: true, starting: true, python: { seconds, version, build, snapshot } });
    setPageBuild(build);
    setStatus("loading", "Preparing the workbench…");
    try {
      await sharedSettings;
      await start();
    } catch (error) {
      showMessage(error.message);
    } finally {
      store.set({ starting: false });
      if (!store.get().busy) setStatus("ready", "Ready");
      mountLearn().catch((error) => showMessage(error.message));
      // Precaching for offline use downloads the whole site once more: only after the start, so it
      // never competes with it.
      registerOffline();
    }
    return;
  }
  // A worker started again (after a cancel) runs the page's own build: the service worker answers it from
  // that build's files. Should it not, the page says so.
  if (state === "ready" && build !== store.get().python.build) showNewVersion({ mixed: true });
  if (!store.get().busy || state === "error") setStatus(state, text);
}

// What the "See it learn" panel works on: the latest trained model and the table it came from.
function learnContext() {
  const { result, table } = store.get();
  if (!result || !result.model_id || !table) return null;
  return { table_id: table.table_id, model_id: result.model_id, model_name: result.model?.model || result.label,
    target: result.target, features: result.features, settings: linkSettings() };
}

// "See it learn" is below the fold and brings its own styles and formula renderer (Temml): loaded once
// the page is Ready, so its modules, styles and layout do not compete with Python's start for the CPU.
// It is shown once its style sheet applies: before, its empty status line would be a second one on the page.
async function mountLearn() {
  const root = byId("learn-root");
  root.hidden = true;
  const { mountLearnPanel } = await import("./learn/panel.js");
  mountLearnPanel(root, { python, getContext: learnContext, run });
  const sheet = document.querySelector('link[rel="stylesheet"][href$="learn.css"]');
  if (sheet && !sheet.sheet) {
    await new Promise((done) => ["load", "error"].forEach((type) => sheet.addEventListener(type, done, { once: true })));
  }
  root.hidden = false;
}

// The shared settings are in: the evaluation and the missing cells' handling start on their defaults
// (until a link says otherwise) and the upload limits are stated.
function mount(shared) {
  const initial = defaults(makeProps(shared, { datasets: [], models: [] }));
  mountEvaluation(shared);
  store.set({ shared, ...Object.fromEntries([...EVALUATION_KEYS, "impute"].map((key) => [key, initial[key]])) });
  const { max_bytes: bytes, max_rows: rows } = shared.limits;
  byId("upload-limits").textContent = ` Up to ${Math.round(bytes / 2 ** 20)} MB and ${rows.toLocaleString("en-US")} rows ` +
    "(use a sample of a larger file).";
}

// Each drawing's box scrolls on a narrow screen; the keyboard reaches it there, unless the drawing itself
// is a tab stop (a zoomable one), whose focus already scrolls it.
for (const box of document.querySelectorAll(".canvas-box")) {
  const drawing = box.querySelector("canvas");
  if (drawing && drawing.tabIndex < 0) keyboardScrollableWhenScrolling(box, drawing.getAttribute("aria-label"));
}
mountDataControls();
mountModelControls();
mountLearnerFollow();
mountResults();
mountResultActions();
mountResultStanding();
mountUnavailable();
mountApplyPanel();
mountCurvesView();
mountImportanceView();
mountForestView();
mountStagedView();
mountNetworkView();
mountTuning();
mountTraining({ cancel });
mountHistory();
mountLeaderboard();
mountPreprocessPanel();
mountLink();
mountLiveLoss();
mountLiveNetwork();
byId("clear-session").addEventListener("click", async () => {
  await clearSession();
  location.replace(location.pathname);
});
watchForNewVersion();
onPython({ status: showStatus, event: showProgress, crash: recover });
sharedSettings.then(mount, (error) => setStatus("error", error.message));
