// Training you can watch: while a small network trains, some of its epoch reports carry a frame of it
// (workbench/network_live.py, about four a second at most): the decision boundary its weights draw now,
// and the network with each unit's output over the same two features as a small heatmap and its weights as
// lines. Every number is Python's, from the weights of that epoch; the page only draws, at most once a
// screen frame and only the newest frame (one arriving while another waits replaces it), on the page's
// thread, so the training never waits for it. With text twins. Hidden when the job ends: the result's
// views then show the trained network (and its Network view replays these epochs).
import { byId } from "./dom.js";
import { store } from "./store.js";
import { renderer, sizeFor } from "./view-draw.js";
import { networkCaption } from "./network-view.js";
import { bringIntoView } from "./result-actions.js";

const e = byId;
let waiting = null;  // the newest frame not drawn yet, as it came (read only when drawn)
let points = null;  // the rows over the boundary, sent with a training's first frame only
let pending = 0;  // the animation frame asked for, or 0
let draw = null;  // {network, boundary}: the renderers, loaded when the first frame comes

// A frame's arrays come as float32 bytes in base64 ({f32}): read back in one call each.
function unpacked(value) {
  if (Array.isArray(value)) return value.map(unpacked);
  if (!value || typeof value !== "object") return value;
  if (typeof value.f32 === "string") return floats(value.f32);
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, unpacked(v)]));
}

function floats(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Float32Array(bytes.buffer);  // little-endian, as Python wrote it and every browser's platform is
}

function paint() {
  pending = 0;
  const frame = waiting && unpacked(waiting);
  waiting = null;
  if (!frame || !store.get().busy) return;  // the job ended before this screen frame
  const { epoch, boundary, ...net } = frame;
  const task = boundary.classes ? "classification" : "regression";
  const b = { ...boundary, points: points || undefined };
  const boundaryOptions = { ...sizeFor(e("live-boundary-canvas"), 0.8, 360), task };
  draw.boundary.drawBoundary(e("live-boundary-canvas"), b, boundaryOptions);
  e("live-boundary-text").replaceChildren(draw.boundary.describeBoundary(b, boundaryOptions));
  const title = `The network after epoch ${epoch}`;
  draw.network.drawNetwork(e("live-network-canvas"), net, { ...sizeFor(e("live-network-canvas"), 1, 560), title });
  e("live-network-text").replaceChildren(draw.network.describeNetwork(net, { caption: `The network after epoch ${epoch}` }));
  e("live-network-status").textContent = `Epoch ${epoch}: the network as it is now, redrawn as it learns (at most four `
    + `times a second, so that drawing it barely slows the training). ${networkCaption(net)}`;
}

// One progress report: a first frame starts a new training's drawing; the newest frame waits to be drawn.
function addFrame(detail) {
  if (!detail?.frame) return;
  const { points: sent, ...boundary } = detail.frame.boundary;
  if (sent) points = sent;
  waiting = { ...detail.frame, boundary };
  if (e("live-network").hidden) {  // a training's first frame: shown where the person pressing Train sees it
    e("live-network").hidden = false;
    bringIntoView(e("live-network"));
  }
  if (!draw) {
    Promise.all([renderer("network-draw"), renderer("boundary")]).then(([network, boundary]) => {
      draw = { network, boundary };
      if (waiting && !pending) pending = requestAnimationFrame(paint);
    });
    return;
  }
  if (!pending) pending = requestAnimationFrame(paint);
}

export function mountLiveNetwork() {
  store.subscribe(["progressDetail"], (s) => addFrame(s.progressDetail));
  store.subscribe(["busy"], (s) => {
    if (s.busy) return;
    waiting = null;  // the job is over: the result's views show the network it made
    points = null;
    e("live-network").hidden = true;
    for (const id of ["live-boundary-text", "live-network-text", "live-network-status"]) e(id).replaceChildren();
  });
}
