// The results side: training, the headline score, the view tabs and what each view draws, exports and
// importing a model. Its state lives in the page-state object main.js passes in (`app`).
import { byId, option } from "./dom.js";
import { headline, renderMetrics, summaryTable, confusionSplit, splitPhrase } from "./readout.js";
import { applicableViews, preferredView, showTabs, onTabChoice } from "./views.js";
import { createTreeView } from "./tree-view.js";
import { drawConfusion, drawBoundaryView, drawScatterView, drawDendrogramView, drawPcaView, drawRegressionView } from "./view-draw.js";
import { exportPredictions, exportModel, exportPython, downloadCanvas, readModelFile } from "./export-panel.js";
import { createCompare } from "./compare.js";

const PCA = "__pca";
const CANVAS = { tree: "tree-canvas", boundary: "boundary-canvas", clusters: "clusters-canvas",
  dendrogram: "dendrogram-canvas", pca: "pca-canvas", regression: "regression-canvas" };

export function createResults({ python, app, setBusy, showMessage, saveHash }) {
  const e = (id) => byId(id);
  const tabs = e("view-tabs");
  const treeView = createTreeView({ scroll: e("tree-scroll"), canvas: e("tree-canvas"), text: e("tree-text"),
    buttons: { zoomIn: e("zoom-in"), zoomOut: e("zoom-out"), fit: e("zoom-fit"), reset: e("zoom-reset") } });
  Object.assign(app, { result: null, view: "", wanted: {}, boundaries: new Map() });
  const compare = createCompare({ python, app, setBusy, showMessage });

  function clear(text) {
    app.result = null;
    app.boundaries.clear();
    e("result-area").hidden = true;
    e("empty-state").hidden = false;
    if (text) e("empty-state").textContent = text;
    e("accuracy-label").textContent = "Score";
    e("accuracy").textContent = "—";
    e("accuracy-note").textContent = "";
  }

  function numericFeatures(result) {
    const kinds = app.table?.kinds || {};
    return (result.features || []).filter((f) => kinds[f] === "numeric");
  }

  function fillAxes(prefix, features, wanted) {
    const [xs, ys] = [e(`${prefix}-x`), e(`${prefix}-y`)];
    const pca = features.length >= 2 ? [option(PCA, "PC1 and PC2 (PCA)")] : [];
    xs.replaceChildren(...features.map((f) => option(f, f)), ...pca);
    ys.replaceChildren(...features.map((f) => option(f, f)));
    xs.value = features.includes(wanted.x) || wanted.x === PCA ? wanted.x : features[0];
    ys.value = features.includes(wanted.y) && wanted.y !== xs.value ? wanted.y : features.find((f) => f !== xs.value) || "";
    if (prefix === "clusters" && !features.includes(wanted.x) && pca.length && features.length > 2) xs.value = PCA;
    ys.disabled = xs.value === PCA;
  }

  function show(result) {
    app.result = result;
    compare.reset();
    app.boundaries.clear();
    const head = headline(result);
    e("accuracy-label").textContent = head.label;
    e("accuracy").textContent = head.value;
    e("accuracy-note").textContent = head.note;
    e("empty-state").hidden = true;
    e("result-area").hidden = false;
    e("model-summary").replaceChildren(summaryTable(result.summary || []).tBodies[0]);
    e("summary-box").hidden = !(result.summary || []).length;
    const numeric = numericFeatures(result);
    fillAxes("boundary", numeric, app.wanted);
    fillAxes("clusters", numeric, app.wanted);
    const enabled = applicableViews(result, numeric);
    app.enabledViews = enabled;
    choose(preferredView(enabled, app.wanted.view));
    app.wanted = {};
  }

  function choose(view) {
    app.view = view;
    showTabs(tabs, app.enabledViews || [], view);
    e("save-image").disabled = !CANVAS[view];
    draw(view).catch((error) => viewMessage(`This view could not be drawn: ${error.message}`));
    saveHash();
  }

  // Pressing on the dendrogram, or dragging along it, moves the cut to that height: the slider follows.
  let dendrogramDrawn = null;  // the last drawing: its plot box and distance scale
  function dragTheCut(canvas) {
    let dragging = false;
    const moveCut = (event) => {
      const merges = app.result?.dendrogram?.merges;
      if (!merges || !dendrogramDrawn) return;
      const { plot, y } = dendrogramDrawn;
      const box = canvas.getBoundingClientRect();
      const py = (event.clientY - box.top) * (canvas.offsetHeight / box.height || 1);
      const cut = y.invert(Math.min(plot.bottom, Math.max(plot.top, py)));
      const slider = e("cut-k");
      const k = Math.min(Number(slider.max), 1 + merges.filter((m) => m.distance > cut).length);
      if (String(k) !== slider.value) {
        slider.value = String(k);
        choose("dendrogram");
      }
    };
    canvas.addEventListener("pointerdown", (event) => {
      dragging = true;
      canvas.setPointerCapture(event.pointerId);
      moveCut(event);
    });
    canvas.addEventListener("pointermove", (event) => dragging && moveCut(event));
    for (const end of ["pointerup", "pointercancel"]) canvas.addEventListener(end, () => { dragging = false; });
  }

  function viewMessage(text) {
    e("view-message").textContent = text || "";
    e("view-message").hidden = !text;
  }

  async function boundaryFor(prefix) {
    const x = e(`${prefix}-x`).value;
    const y = e(`${prefix}-y`).value;
    const key = `${app.result.model_id}|${x}|${y}`;
    if (!app.boundaries.has(key)) {
      const args = x === PCA ? { model_id: app.result.model_id, x: null, y: null, projection: "pca", resolution: 150 }
        : { model_id: app.result.model_id, x, y, resolution: 150 };
      const b = await setBusy("Drawing the decision boundary…", () => python.call("boundary", args), { cancellable: true });
      if (!b) throw new Error("the boundary was not computed");
      app.boundaries.set(key, b);
    }
    return app.boundaries.get(key);
  }

  async function draw(view) {
    viewMessage("");
    const r = app.result;
    if (!r) return;
    if (view === "metrics") {
      renderMetrics(e("metrics-body"), r);
      const split = confusionSplit(r);
      const confusion = r.metrics?.[split]?.confusion;
      e("confusion-box").hidden = !confusion;
      if (confusion) {
        const where = `${split === "train" ? "training" : split} rows (${splitPhrase(r, split)})`;
        e("confusion-caption").textContent = `On the ${where}. Choose an off-diagonal cell to list the misclassified rows.`;
        await drawConfusion(e("confusion"), confusion, `Confusion matrix, ${where}: rows are actual classes, columns predicted`);
      }
    } else if (view === "tree") {
      treeView.draw(r.model.tree, (r.model.classes || []).map(String));
    } else if (view === "boundary") {
      await drawBoundaryView(e("boundary-canvas"), e("boundary-text"), await boundaryFor("boundary"), r.task);
    } else if (view === "clusters") {
      const b = await boundaryFor("clusters");
      const data = { x: b.points.x, y: b.points.y, label: b.points.label, split: b.points.split, x_name: b.x_name, y_name: b.y_name };
      const centres = clusterCentres(r, e("clusters-x").value, e("clusters-y").value);
      if (centres) data.centres = centres;
      await drawScatterView(e("clusters-canvas"), e("clusters-text"), data, { labelName: "cluster" });
    } else if (view === "dendrogram") {
      const slider = e("cut-k");
      slider.max = String(Math.min(20, r.dendrogram.merges.length + 1));
      if (!slider.dataset.model || slider.dataset.model !== r.model_id) {
        slider.value = String(r.model?.params?.k ?? r.clusters?.centres?.length ?? 2);
        slider.dataset.model = r.model_id;
      }
      e("cut-k-value").textContent = slider.value;
      dendrogramDrawn = await drawDendrogramView(e("dendrogram-canvas"), e("dendrogram-text"), r.dendrogram, Number(slider.value));
    } else if (view === "pca") {
      await drawPcaView(e("pca-canvas"), e("scree-canvas"), e("pca-text"), r.pca);
    } else if (view === "regression") {
      const p = r.predictions;
      await drawRegressionView(e("regression-canvas"), e("residual-canvas"), e("regression-text"),
        { actual: p.actual, predicted: p.predicted, split: p.split, target_name: r.target, curve: r.fit_curve },
        { figure: e("fitted-figure"), canvas: e("fitted-canvas"), caption: e("fitted-caption") });
    }
  }

  // Centres drawn in the plane of two raw features, when the model's centres are in those features' units.
  function clusterCentres(r, x, y) {
    const c = r.clusters?.centres;
    const i = r.features.indexOf(x);
    const j = r.features.indexOf(y);
    if (!c || x === PCA || i < 0 || j < 0 || c[0]?.length !== r.features.length) return null;
    return c.map((row) => [row[i], row[j]]);
  }

  // Trains; when it succeeded, awaits `beforeShow` (the page saving its session), then shows the model.
  async function train(args, beforeShow = async () => {}) {
    const result = await setBusy("Training…", () => python.call("train", args), { cancellable: true });
    if (!result) return false;
    await beforeShow();
    show(result);
    return true;
  }

  async function exporting(label, work) {
    if (!app.result) return;
    await setBusy(label, work);
  }

  onTabChoice(tabs, choose);
  for (const prefix of ["boundary", "clusters"]) {
    for (const axis of ["x", "y"]) {
      e(`${prefix}-${axis}`).addEventListener("change", () => {
        e(`${prefix}-y`).disabled = e(`${prefix}-x`).value === PCA;
        choose(prefix);
      });
    }
  }
  e("cut-k").addEventListener("input", () => choose("dendrogram"));
  dragTheCut(e("dendrogram-canvas"));
  e("export-predictions").addEventListener("click", () => exporting("Writing predictions…", () => exportPredictions(python, app.result.model_id)));
  e("export-model").addEventListener("click", () => exporting("Writing the model…", () => exportModel(python, app.result.model_id)));
  e("export-python").addEventListener("click", () => exporting("Writing the script…", () => exportPython(python, app.result.model_id)));
  e("save-image").addEventListener("click", () => exporting("Saving the picture…", () => downloadCanvas(e(CANVAS[app.view]), `pellucid-${app.view}.png`)));
  e("copy-link").addEventListener("click", async () => {
    saveHash();
    try {
      await navigator.clipboard.writeText(location.href);
      viewMessage("Link copied: it reproduces these settings on built-in data. Uploaded data is never in the link.");
    } catch {
      viewMessage(`Copy this link: ${location.href}`);
    }
  });
  e("import-button").addEventListener("click", () => e("import-model").click());
  e("import-model").addEventListener("change", async () => {
    const file = e("import-model").files[0];
    e("import-model").value = "";
    if (!file) return;
    showMessage("");
    const imported = await setBusy("Reading the model…", async () => python.call("import_model", { json: await readModelFile(file) }));
    if (imported) show({ ...imported, imported: true, summary: [["Imported from", file.name], ["Model", imported.label]] });
  });

  return {
    train, clear,
    want: (wanted) => { app.wanted = wanted; },
    viewSettings: () => {
      const prefix = app.view === "clusters" ? "clusters" : "boundary";
      const x = e(`${prefix}-x`).value;
      return { view: app.result ? app.view : app.wanted.view || "", x: app.result ? x : app.wanted.x || "", y: app.result && x !== PCA ? e(`${prefix}-y`).value : app.wanted.y || "" };
    },
    setEnabled: (idle) => {
      for (const id of ["export-predictions", "export-model", "export-python", "copy-link", "import-button"]) e(id).disabled = !idle;
      e("save-image").disabled = !idle || !CANVAS[app.view];
      compare.setEnabled(idle);
    },
  };
}
