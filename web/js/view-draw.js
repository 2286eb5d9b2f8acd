// Draws each view of a trained model from plain arrays, with its text twin. Renderers are loaded on
// first use, so a page that never shows a view never loads its code. The plots pan and zoom
// (plot-zoom.js): each is drawn through showZoomable, which redraws it over the window in view.
import { showZoomable } from "./plot-zoom.js";

const renderers = new Map();
export function renderer(name) {
  if (!renderers.has(name)) renderers.set(name, import(`./render/${name}.js`));
  return renderers.get(name);
}

// A canvas size that fits the box it sits in (phone to desktop).
export function sizeFor(canvas, aspect = 0.68, maxHeight = 520) {
  const box = canvas.parentElement;
  const width = Math.max(300, Math.min(900, (box?.clientWidth || 640) - 2));
  return { width, height: Math.round(Math.min(maxHeight, Math.max(260, width * aspect))) };
}

// The confusion matrix is a table whose off-diagonal cells open the list of misclassified rows.
export async function drawConfusion(container, confusion, caption) {
  const mod = await renderer("confusion");
  container.replaceChildren();
  mod.renderConfusion(container, confusion, { caption });
}

export async function drawBoundaryView(canvas, textBox, boundary, task) {
  const mod = await renderer("boundary");
  const options = { ...sizeFor(canvas), task: task === "regression" ? "regression" : "classification" };
  const twin = mod.describeBoundary(boundary, options);
  textBox.replaceChildren(twin);
  showZoomable(canvas, (view) => mod.drawBoundary(canvas, boundary, { ...options, view }),
    { twin, names: [boundary.x_name, boundary.y_name] });
}

export async function drawScatterView(canvas, textBox, data, options = {}) {
  const mod = await renderer("scatter");
  const all = { ...sizeFor(canvas), ...options };
  const twin = mod.describeScatter(data, all);
  textBox.replaceChildren(twin);
  showZoomable(canvas, (view) => mod.drawScatter(canvas, data, { ...all, view }), { twin, names: [data.x_name, data.y_name] });
}

export async function drawDendrogramView(canvas, textBox, dendrogram, k) {
  const mod = await renderer("dendrogram");
  const options = { ...sizeFor(canvas, 0.6), k };
  const drawn = mod.drawDendrogram(canvas, dendrogram, options);
  textBox.replaceChildren(mod.describeDendrogram(dendrogram, options));
  return { ...drawn, cutForK: mod.cutForK, clustersAtCut: mod.clustersAtCut };
}

export async function drawPcaView(scatterCanvas, screeCanvas, textBox, pca, labels) {
  const [scatter, scree] = await Promise.all([renderer("scatter"), renderer("scree")]);
  const data = { ...scatter.fromPairs(pca.projection), x_name: "PC1", y_name: "PC2" };
  if (labels) data.label = labels;
  else data.classes = ["all rows"];
  const half = sizeFor(scatterCanvas, 0.8, 420);
  scree.drawScree(screeCanvas, pca, sizeFor(screeCanvas, 0.8, 420));
  const twin = scatter.describeScatter(data, { labelName: "group" });
  textBox.replaceChildren(scree.describeScree(pca), twin);
  showZoomable(scatterCanvas, (view) => scatter.drawScatter(scatterCanvas, data, { ...half, labelName: "group", legendTitle: "Rows", view }),
    { twin, names: ["PC1", "PC2"] });
}

export async function drawRegressionView(canvas, residualCanvas, textBox, data, fitted) {
  const mod = await renderer("regression");
  const size = sizeFor(canvas, 0.8, 420);
  const twin = mod.describeRegression(data);
  textBox.replaceChildren(twin);
  const target = data.target_name || "target";
  showZoomable(canvas, (view) => mod.drawPredictedActual(canvas, data, { ...size, view }),
    { twin, names: [`actual ${target}`, `predicted ${target}`] });
  showZoomable(residualCanvas, (view) => mod.drawResiduals(residualCanvas, data, { ...size, view }),
    { twin, names: [`predicted ${target}`, "residual"] });
  fitted.figure.hidden = !data.curve;
  if (!data.curve) return;
  // The fitted line (or curve) along one numeric feature, with the rows' actual values.
  const { feature, x, predicted, points_x: pointsX, others = [] } = data.curve;
  const line = { ...data, x: pointsX, x_name: feature, line: { x, predicted } };
  const lineSize = sizeFor(fitted.canvas, 0.55, 420);
  showZoomable(fitted.canvas, (view) => mod.drawFittedLine(fitted.canvas, line, { ...lineSize, view }),
    { twin, names: [feature, target] });
  fitted.caption.textContent = `The model's prediction as ${feature} varies (line), with each row's actual value (points)` +
    (others.length ? `; the other features (${others.join(", ")}) are held at their training mean, or most common value.` : ".");
}
