// Pan and zoom for the plots (decision boundary, clusters, PCA, regression), one gesture logic for all.
// A plot's zoom is a window on its full data range, as fractions of that range on each axis ([0, 1] is
// all of it). Each change redraws the plot at full resolution with its axes over the window (the
// renderers take it as `options.view`), so ticks, points and lines stay crisp. Ways in:
//   - touch: one finger drags to pan once zoomed in; two fingers pinch to zoom about their midpoint.
//     An un-zoomed plot leaves a one-finger swipe to the browser (touch-action: pan-x pan-y), so the
//     page still scrolls on a phone; once zoomed in the plot takes every touch (touch-action: none).
//   - mouse and pen: drag to pan once zoomed in; ctrl + wheel (a trackpad's pinch arrives as this) zooms
//     about the pointer.
//   - keyboard, on the focused plot: + and − zoom, the arrows pan, 0 shows all.
//   - the view's "Reset view" button shows all of every plot in the view.
// The canvas says its zoom in data-zoom and its visible data range in data-view ("x0,x1,y0,y1"), and a
// paragraph in the plot's text twin says the visible range in words.
import { formatTick, tickStep } from "./render/scales.js";

const FULL = Object.freeze({ x: [0, 1], y: [0, 1] });
const MAX_ZOOM = 25;
const KEY_ZOOM = 1.5;  // one press of + or −
const KEY_PAN = 0.1;  // one arrow press moves a tenth of what is in view
const WHEEL_HALVING = 200;  // ctrl + wheel: this much deltaY (in pixels) halves or doubles the zoom

const plots = new WeakMap();  // canvas -> its zoom

// Makes every canvas of a view zoomable; `resetButton` shows all of each again.
export function zoomablePlots(canvases, resetButton) {
  const zooms = canvases.map((canvas) => plotZoom(canvas));
  resetButton?.addEventListener("click", () => zooms.forEach((zoom) => zoom.reset()));
  return zooms;
}

// Shows new content on a canvas: `paint(view)` draws it over the window `view` and returns the drawn
// {plot, x, y} (the renderers' reply). The view starts whole. `twin` (the plot's text twin) gets a
// sentence naming the visible range, `names` [x, y] names its axes in it. A canvas never made zoomable
// is simply painted whole.
export function showZoomable(canvas, paint, { twin = null, names = ["x", "y"] } = {}) {
  const zoom = plots.get(canvas);
  if (!zoom) return paint(FULL);
  zoom.show(paint, { twin, names });
}

function plotZoom(canvas) {
  if (plots.has(canvas)) return plots.get(canvas);
  const state = { view: FULL, paint: null, drawn: null, twin: null, names: ["x", "y"], frame: 0 };
  canvas.classList.add("zoomable");

  function repaint() {
    state.frame = 0;
    if (!state.paint) return;
    state.drawn = state.paint(state.view);
    describe();
  }

  function schedule() {
    canvas.dataset.zoom = zoomOf(state.view).toFixed(3);
    // Read when a finger goes down: zoomed in, the plot keeps the finger; else the page scrolls.
    canvas.classList.toggle("zoomed", isZoomed(state.view));
    if (!state.frame) state.frame = requestAnimationFrame(repaint);
  }

  function setView(view) {
    state.view = clampView(view);
    schedule();
  }

  // The visible range, on the canvas and in the twin.
  function describe() {
    const { x, y } = state.drawn || {};
    if (!x?.domain || !y?.domain) return;
    canvas.dataset.view = [...x.domain, ...y.domain].map((v) => Number(v.toPrecision(6))).join(",");
    if (!state.twin) return;
    let line = state.twin.querySelector(`[data-range-of="${canvas.id}"]`);
    if (!line) {
      line = document.createElement("p");
      line.dataset.rangeOf = canvas.id;
      // After the twin's opening sentence and the range lines of the view's other plots, in their order.
      const before = [...state.twin.querySelectorAll(":scope > [data-range-of]")].pop() || state.twin.firstElementChild;
      if (before) before.after(line);
      else state.twin.append(line);
    }
    const zoom = zoomOf(state.view);
    const title = canvas.getAttribute("aria-label") || "The plot";
    line.textContent = `${title}, in view: ${rangeText(state.names[0], x.domain)}; ${rangeText(state.names[1], y.domain)}`
      + (isZoomed(state.view) ? ` (zoomed in ${Number(zoom.toPrecision(3))} times; Reset view shows all).` : " (all of it).");
  }

  // Where a client point falls in the plot, as fractions of the plot box (0 to 1, left and bottom at 0).
  function plotFraction(clientX, clientY) {
    const plot = state.drawn?.plot;
    const box = canvas.getBoundingClientRect();
    if (!plot || !box.width) return { x: 0.5, y: 0.5 };
    const cssX = (clientX - box.left) * (canvas.offsetWidth / box.width || 1);
    const cssY = (clientY - box.top) * (canvas.offsetHeight / box.height || 1);
    return { x: (cssX - plot.left) / plot.width, y: (plot.bottom - cssY) / plot.height };
  }

  const zoom = {
    show(paint, { twin, names }) {
      Object.assign(state, { paint, twin, names, view: FULL });
      if (state.frame) cancelAnimationFrame(state.frame);
      canvas.dataset.zoom = "1.000";
      canvas.classList.remove("zoomed");
      repaint();
    },
    reset: () => setView(FULL),
  };
  plots.set(canvas, zoom);
  listen(canvas, {
    view: () => state.view,
    setView,
    plotFraction,
    plotSize: () => state.drawn?.plot || { width: canvas.offsetWidth || 1, height: canvas.offsetHeight || 1 },
  });
  return zoom;
}

// The gestures: pointers, ctrl + wheel and keys, all turned into a new window.
function listen(canvas, { view, setView, plotFraction, plotSize }) {
  const pointers = new Map();  // pointerId -> {x, y} client position
  let gesture = null;  // {start view, and the pointers' positions when it began}

  const begin = () => {
    const points = [...pointers.values()];
    if (points.length >= 2) {
      const [a, b] = points;
      const mid = plotFraction((a.x + b.x) / 2, (a.y + b.y) / 2);
      gesture = { view: view(), distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, anchor: pointIn(view(), mid) };
    } else if (points.length === 1 && isZoomed(view())) {
      gesture = { view: view(), from: points[0] };
    } else {
      gesture = null;
    }
  };

  canvas.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    begin();
    if (gesture) canvas.setPointerCapture?.(event.pointerId);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (!gesture) return;
    const points = [...pointers.values()];
    if (gesture.anchor && points.length >= 2) {
      // The data point first under the fingers' midpoint stays under it, at the zoom their spread says.
      const [a, b] = points;
      const factor = Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance;
      setView(zoomAbout(gesture.view, gesture.anchor, plotFraction((a.x + b.x) / 2, (a.y + b.y) / 2), factor));
    } else if (gesture.from) {
      const plot = plotSize();
      setView(panBy(gesture.view, (event.clientX - gesture.from.x) / plot.width, (event.clientY - gesture.from.y) / plot.height));
    }
  });
  const end = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    begin();  // a pinch that loses a finger goes on as a drag from where the other finger is
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);

  canvas.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;  // a plain wheel scrolls the page
    event.preventDefault();
    const pixels = event.deltaY * (event.deltaMode === 1 ? 33 : event.deltaMode === 2 ? 400 : 1);
    const at = plotFraction(event.clientX, event.clientY);
    setView(zoomAbout(view(), pointIn(view(), at), at, 2 ** (-pixels / WHEEL_HALVING)));
  }, { passive: false });

  canvas.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const now = view();
    const centre = { x: 0.5, y: 0.5 };
    const moves = {
      "+": () => zoomAbout(now, pointIn(now, centre), centre, KEY_ZOOM),
      "=": () => zoomAbout(now, pointIn(now, centre), centre, KEY_ZOOM),
      "-": () => zoomAbout(now, pointIn(now, centre), centre, 1 / KEY_ZOOM),
      "0": () => FULL,
      ArrowLeft: () => panBy(now, KEY_PAN, 0),
      ArrowRight: () => panBy(now, -KEY_PAN, 0),
      ArrowUp: () => panBy(now, 0, KEY_PAN),
      ArrowDown: () => panBy(now, 0, -KEY_PAN),
    };
    const move = moves[event.key];
    if (!move) return;
    const next = clampView(move());
    if (sameView(next, now)) return;  // nothing to move: the key keeps its usual meaning (scrolling)
    event.preventDefault();
    setView(next);
  });
}

// How many times the view is enlarged (the larger of the two axes').
export function zoomOf(view) {
  return Math.max(1 / (view.x[1] - view.x[0]), 1 / (view.y[1] - view.y[0]));
}

function isZoomed(view) {
  return zoomOf(view) > 1 + 1e-4;
}

// The point of the whole range (fractions) at a place of the plot box (fractions) in `view`.
function pointIn(view, at) {
  return { x: view.x[0] + at.x * (view.x[1] - view.x[0]), y: view.y[0] + at.y * (view.y[1] - view.y[0]) };
}

// `view` enlarged `factor` times, with the point `anchor` of the whole range shown at `at` of the plot box.
export function zoomAbout(view, anchor, at, factor) {
  const axis = (range, a, p) => {
    const width = Math.min(1, Math.max(1 / MAX_ZOOM, (range[1] - range[0]) / factor));
    return [a - p * width, a - p * width + width];
  };
  return { x: axis(view.x, anchor.x, at.x), y: axis(view.y, anchor.y, at.y) };
}

// `view` moved by a drag of (dx, dy) plot widths and heights: the drawing follows the pointer (right and
// down on screen), so the window moves left and up in the data.
export function panBy(view, dx, dy) {
  const wx = view.x[1] - view.x[0];
  const wy = view.y[1] - view.y[0];
  return { x: [view.x[0] - dx * wx, view.x[1] - dx * wx], y: [view.y[0] + dy * wy, view.y[1] + dy * wy] };
}

// The window kept inside the whole range, its size kept.
export function clampView(view) {
  const axis = ([a, b]) => {
    const width = Math.min(1, Math.max(1 / MAX_ZOOM, b - a));
    const from = Math.min(1 - width, Math.max(0, a));
    return [from, from + width];
  };
  return { x: axis(view.x), y: axis(view.y) };
}

function sameView(a, b) {
  return [0, 1].every((i) => Math.abs(a.x[i] - b.x[i]) < 1e-9 && Math.abs(a.y[i] - b.y[i]) < 1e-9);
}

function rangeText(name, [lo, hi]) {
  const step = tickStep(lo, hi, 10);
  return `${name} from ${formatTick(lo, step)} to ${formatTick(hi, step)}`;
}
