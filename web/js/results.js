// The results side as it shows a result: the headline score, the view tabs and what each view draws
// (result-actions.js acts on it: training, exports, importing a model). The result, the view, the axes
// and the dendrogram's cut live in the store; the views are drawn from it.
import { byId, option, formatValue } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { headline, renderMetrics, summaryTable, confusionSplit, rowsPhrase } from "./readout.js";
import { openingView, showTabs, onTabChoice } from "./views.js";
import { createTreeView } from "./tree-view.js";
import { zoomablePlots } from "./plot-zoom.js";
import { drawConfusion, drawBoundaryView, drawScatterView, drawDendrogramView, drawPcaView, drawRegressionView } from "./view-draw.js";
import { mountTwinCheck } from "./twin-check.js";

export const PCA = "__pca";
export const CANVAS = { tree: "tree-canvas", boundary: "boundary-canvas", clusters: "clusters-canvas",
  dendrogram: "dendrogram-canvas", pca: "pca-canvas", regression: "regression-canvas", staged: "staged-canvas" };
const e = (id) => byId(id);
const boundaries = new Map();  // computed boundaries by model, x and y: a cache, not state
let treeView = null;  // the tree's drawn view (canvas, zoom), made once: a drawn object, not state

// No model shown; `text` replaces the empty state's words when given (else the page's first words).
let firstWords = null;  // the page's own empty-state words, read once: not state
export function clearResults(text) {
  boundaries.clear();
  firstWords ??= e("empty-state").textContent;
  store.set({ result: null });
  e("empty-state").textContent = text || firstWords;
}

// The view and axes the next result should open on (a link's).
export function wantView(wanted) {
  store.set({ wanted });
}

// What a plane may show, as the reply says (workbench/showing.py): the features its axes may be (a
// date's parts among them), whether PCA's plane is offered, and the axes it starts on.
const planeFeatures = (result, plane) => result?.plot_features?.[plane] || [];
const offersPca = (result, plane) => (result?.projections?.[plane] || []).includes("pca");

// The y beside x when the reply's start gives none: none (the rows along their row number) when the
// reply says y is null (only one feature varies), else the next feature (x was a link's).
function otherAxis(result, plane, features, x) {
  const start = result.default_axes?.[plane] || {};
  if (start.x && start.y === null) return "";
  return features.find((f) => f !== x) ?? "";
}

// The axes a plane view starts on: the asked ones (a link's) where the reply offers them, else its own.
function startAxes(result, plane, wanted) {
  const features = planeFeatures(result, plane);
  const start = result.default_axes?.[plane] || {};
  const asked = features.includes(wanted.x) || (wanted.x === PCA && offersPca(result, plane));
  const x = asked ? wanted.x : start.projection === "pca" ? PCA : start.x ?? "";
  const y = features.includes(wanted.y) && wanted.y !== x ? wanted.y
    : start.y && start.y !== x ? start.y : otherAxis(result, plane, features, x);
  return { x, y };
}

// Opens `result` (a TrainResult, or an imported model's reply) in every view.
export function showResult(result) {
  boundaries.clear();
  const { wanted } = store.get();
  store.set({
    result, enabledViews: result.views || [], wanted: {}, view: openingView(result, wanted.view),
    axes: { boundary: startAxes(result, "boundary", wanted), clusters: startAxes(result, "clusters", wanted) },
    cut: result.model?.params?.n_clusters ?? result.model?.params?.k ?? result.clusters?.centres?.length ?? 2,
  });
}

function drawHeadline({ result }) {
  e("empty-state").hidden = Boolean(result);
  e("result-area").hidden = !result;
  if (!result) {
    e("accuracy-label").textContent = "Score";
    e("accuracy").textContent = "—";
    e("accuracy-note").textContent = "";
    return;
  }
  const head = headline(result);
  e("accuracy-label").textContent = head.label;
  e("accuracy").textContent = head.value;
  e("accuracy-note").textContent = head.note;
  e("model-summary").replaceChildren(summaryTable(result.summary || []).tBodies[0]);
  e("summary-box").hidden = !(result.summary || []).length;
}

// The axis menus list the features the reply offers for each plane (and PCA's plane when it offers it).
function drawAxes({ result, axes }, changed) {
  if (!result) return;
  for (const prefix of ["boundary", "clusters"]) {
    const features = planeFeatures(result, prefix);
    const [xs, ys] = [e(`${prefix}-x`), e(`${prefix}-y`)];
    if (changed.includes("result")) {
      // The boundary has its own Plane switch; the clusters' menu offers PCA's plane beside the features.
      const pca = offersPca(result, prefix) && prefix === "clusters" ? [option(PCA, "PC1 and PC2 (PCA)")] : [];
      xs.replaceChildren(...features.map((f) => option(f, f)), ...pca);
      const alone = features.length < 2 ? [option("", "Row number")] : [];
      ys.replaceChildren(...features.map((f) => option(f, f)), ...alone);
    }
    xs.value = axes[prefix].x;
    ys.value = axes[prefix].y;
    ys.disabled = axes[prefix].x === PCA || features.length < 2;
  }
  e("boundary-plane").querySelector('option[value="pca"]').disabled = !offersPca(result, "boundary");
  const pcaPlane = axes.boundary.x === PCA;
  e("boundary-plane").value = pcaPlane ? "pca" : "features";
  e("boundary-axes").hidden = pcaPlane;
}

// Pressing on the dendrogram, or dragging along it, moves the cut to that height: the slider follows.
let dendrogramDrawn = null;  // the last drawing: its plot box and distance scale (geometry, not state)
function dragTheCut(canvas) {
  let dragging = false;
  const moveCut = (event) => {
    const merges = store.get().result?.dendrogram?.merges;
    if (!merges || !dendrogramDrawn) return;
    const { plot, y } = dendrogramDrawn;
    const box = canvas.getBoundingClientRect();
    const py = (event.clientY - box.top) * (canvas.offsetHeight / box.height || 1);
    const cut = y.invert(Math.min(plot.bottom, Math.max(plot.top, py)));
    store.set({ cut: Math.min(maxCut(merges), 1 + merges.filter((m) => m.distance > cut).length) });
  };
  canvas.addEventListener("pointerdown", (event) => {
    dragging = true;
    canvas.setPointerCapture(event.pointerId);
    moveCut(event);
  });
  canvas.addEventListener("pointermove", (event) => dragging && moveCut(event));
  for (const end of ["pointerup", "pointercancel"]) canvas.addEventListener(end, () => { dragging = false; });
}

const maxCut = (merges) => Math.min(20, merges.length + 1);

export function viewMessage(text) {
  e("view-message").textContent = text || "";
  e("view-message").hidden = !text;
}

async function boundaryFor(result, { x, y }) {
  const key = `${result.model_id}|${x}|${y}`;
  if (!boundaries.has(key)) {
    const args = x === PCA ? { model_id: result.model_id, x: null, y: null, projection: "pca", resolution: 150 }
      : { model_id: result.model_id, x, y: y || null, resolution: 150 };  // no y: along the row number
    const b = await run("Drawing the decision boundary…", () => python.call("boundary", args), { cancellable: true });
    if (!b) throw new Error("the boundary was not computed");
    boundaries.set(key, b);
  }
  return boundaries.get(key);
}

async function draw({ result: r, view, axes, cut }) {
  viewMessage("");
  if (!r) return;
  if (view === "metrics") {
    renderMetrics(e("metrics-body"), r);
    const split = confusionSplit(r);
    const confusion = r.metrics?.[split]?.confusion;
    e("confusion-box").hidden = !confusion;
    if (confusion) {
      const where = rowsPhrase(r, split);
      e("confusion-caption").textContent = `On the ${where}. Choose an off-diagonal cell to list the misclassified rows.`;
      await drawConfusion(e("confusion"), confusion, `Confusion matrix, ${where}: rows are actual classes, columns predicted`);
    }
  } else if (view === "tree") {
    treeView.draw(r.model.tree, (r.model.classes || []).map(String));
    const cut = r.model.tree_nodes_omitted || 0;
    e("tree-cut-note").hidden = !cut;
    e("tree-cut-note").textContent = cut ? `This tree is large: ${cut.toLocaleString("en")} of its nodes are not drawn ` +
      "(dashed boxes say where). The exported model has every node, and predictions use them all." : "";
  } else if (view === "boundary") {
    const b = await boundaryFor(r, axes.boundary);
    describeSlice(r, b);
    await drawBoundaryView(e("boundary-canvas"), e("boundary-text"), b, r.task);
  } else if (view === "clusters") {
    const b = await boundaryFor(r, axes.clusters);
    const data = { x: b.points.x, y: b.points.y, label: b.points.label, split: b.points.split, x_name: b.x_name, y_name: b.y_name };
    const centres = clusterCentres(r, axes.clusters.x, axes.clusters.y);
    if (centres) data.centres = centres;
    await drawScatterView(e("clusters-canvas"), e("clusters-text"), data, { labelName: "cluster" });
  } else if (view === "dendrogram") {
    const slider = e("cut-k");
    slider.max = String(maxCut(r.dendrogram.merges));
    slider.value = String(cut);
    e("cut-k-value").textContent = slider.value;
    dendrogramDrawn = await drawDendrogramView(e("dendrogram-canvas"), e("dendrogram-text"), r.dendrogram, Number(slider.value));
  } else if (view === "pca") {
    await drawPcaView(e("pca-canvas"), e("scree-canvas"), e("pca-text"), r.pca);
  } else if (view === "regression") {
    const p = r.predictions;
    await drawRegressionView(e("regression-canvas"), e("residual-canvas"), e("regression-text"),
      { actual: p.actual, predicted: p.predicted, split: p.split, target_name: r.target, curve: r.fit_curve,
        split_names: r.evaluation?.method === "kfold" ? { train: "out-of-fold" } : {} },
      { figure: e("fitted-figure"), canvas: e("fitted-canvas"), caption: e("fitted-caption") });
  }
}

// What the plot is a slice of: the features held and their values, and the model's own score on all of
// its features beside it, so the picture is not read as the whole model.
const HELD_SHOWN = 6;
function describeSlice(r, b) {
  const held = Object.entries(b.held || {});
  const value = (v) => (typeof v === "number" ? formatValue(v) : `“${v}”`);
  const listed = held.slice(0, HELD_SHOWN).map(([f, v]) => `${f} = ${value(v)}`).join(", ");
  const more = held.length > HELD_SHOWN ? `, and ${held.length - HELD_SHOWN} more (listed in the text below)` : "";
  const plane = b.projection === "pca"
    ? "The plane of the first two principal components of the numeric features (in z-scores, fitted on the training rows)."
    : `A slice through ${b.x_name} and ${b.y_name}.`;
  const others = held.length ? ` Other features held at their training mean, or most common value: ${listed}${more}.` : "";
  e("boundary-slice").textContent = plane + others;
  const range = b.value_range?.note;  // a regressor's predictions beyond the target's range, in Python's words
  e("boundary-range").hidden = !range;
  e("boundary-range").textContent = range || "";
  const head = headline(r);
  e("boundary-score").textContent = `On all ${r.features.length} features: ${head.label} ${head.value} (${head.note.split(" · ")[0]}); the plot is one slice of the model.`;
}

// Centres drawn in the plane of two features: each cluster's mean of those features in their own units,
// from Python (clusters.feature_means); the model's centres are in the space it reads (standardised).
function clusterCentres(r, x, y) {
  const means = r.clusters?.feature_means;
  if (!means || x === PCA || !means[x] || !means[y]) return null;
  const pairs = means[x].map((cx, c) => [cx, means[y][c]]);
  return pairs.some((p) => p.includes(null)) ? null : pairs;  // a cluster with no known value: none drawn
}

export function mountResults() {
  treeView = createTreeView({ scroll: e("tree-scroll"), canvas: e("tree-canvas"), text: e("tree-text"),
    buttons: { zoomIn: e("zoom-in"), zoomOut: e("zoom-out"), fit: e("zoom-fit"), reset: e("zoom-reset") } });
  mountTwinCheck();
  // Every plot pans and zooms; each view's "Reset view" shows all of its plots again.
  zoomablePlots([e("boundary-canvas")], e("boundary-reset-view"));
  zoomablePlots([e("clusters-canvas")], e("clusters-reset-view"));
  zoomablePlots([e("pca-canvas")], e("pca-reset-view"));
  zoomablePlots([e("regression-canvas"), e("residual-canvas"), e("fitted-canvas")], e("regression-reset-view"));
  store.subscribe(["result"], drawHeadline);
  store.subscribe(["result", "axes"], drawAxes);
  store.subscribe(["enabledViews", "view"], ({ enabledViews, view }) => showTabs(e("view-tabs"), enabledViews, view));
  store.subscribe(["result", "view", "axes", "cut"], (s) => {
    draw(s).catch((error) => viewMessage(`This view could not be drawn: ${error.message}`));
  });
  onTabChoice(e("view-tabs"), (view) => store.set({ view }));
  for (const prefix of ["boundary", "clusters"]) {
    for (const axis of ["x", "y"]) {
      e(`${prefix}-${axis}`).addEventListener("change", (event) => {
        const axes = store.get().axes;
        store.set({ view: prefix, axes: { ...axes, [prefix]: { ...axes[prefix], [axis]: event.target.value } } });
      });
    }
  }
  e("boundary-plane").addEventListener("change", (event) => {
    const { axes, result } = store.get();
    const features = planeFeatures(result, "boundary");
    const x = event.target.value === "pca" ? PCA : result.default_axes?.boundary?.x ?? features[0];
    const y = features.includes(axes.boundary.y) && axes.boundary.y !== x ? axes.boundary.y : otherAxis(result, "boundary", features, x);
    store.set({ view: "boundary", axes: { ...axes, boundary: { x, y } } });
  });
  e("cut-k").addEventListener("input", (event) => store.set({ view: "dendrogram", cut: Number(event.target.value) }));
  dragTheCut(e("dendrogram-canvas"));
}
