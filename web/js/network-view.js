// The Network view: the trained network drawn unit by unit (each hidden and output unit a small heatmap of
// its output over the boundary's two features), and its loss per epoch. What is drawn comes with the train
// reply (workbench/network_view.py) over the plane the boundary opens on; another pair of features on the
// Decision boundary tab asks Python for the units' maps over that pair (kept per model and pair).
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { renderer, sizeFor } from "./view-draw.js";
import { PCA } from "./results.js";
import { createReplay } from "./network-replay.js";

const e = byId;
const replies = new Map();  // network views by model and plane: a cache, not state
let prepareReplay = null;  // the replay's controls, made once when the view mounts

// The view's data over the boundary's current plane: the reply's own, or Python's for another pair.
export async function networkFor(result, axes) {
  const own = result.network;
  const { x, y } = axes?.boundary || {};
  const samePlane = !own.plane || !x || !y || x === PCA || (own.plane.x === x && own.plane.y === y);
  if (samePlane) return own;
  const key = `${result.model_id}|${x}|${y}`;
  if (!replies.has(key)) {
    const reply = await run("Drawing the network…", () => python.call("network", { model_id: result.model_id, x, y }));
    if (!reply) return own;
    replies.set(key, reply);
  }
  return replies.get(key);
}

// What the drawing shows, in words: the plane of the maps and what the lines mean.
export function networkCaption(net) {
  const lines = "Each line is a weight: blue positive, red negative, thicker for a larger |w|.";
  if (!net.plane) return `${lines} The data has no two numeric features, so the units' outputs are not mapped.`;
  const held = Object.entries(net.plane.held || {});
  const others = held.length ? ` (the other features held at ${held.map(([n, v]) => `${n} = ${typeof v === "number" ? Number(v.toPrecision(4)) : v}`).join(", ")})` : "";
  return `Each unit after the inputs shows its output a = g(z) over ${net.plane.x} (across) and ${net.plane.y} (up)${others}: `
    + `light is the unit's lowest output on this plane, dark its highest. ${lines} Activation ${net.activation}; outputs ${net.out_activation}.`;
}

export function lossData(net, upTo) {
  return { loss: net.loss_curve, validation: net.validation_scores, scoreName: net.score_name, upTo };
}

// Draws the network and its loss curve (up to epoch `upTo`, default all) with their text twins.
export async function drawNetworkView(net, { upTo, title } = {}) {
  const [draw, curve] = await Promise.all([renderer("network-draw"), renderer("loss-curve")]);
  const canvas = e("network-canvas");
  const size = sizeFor(canvas, 0.62, 560);
  draw.drawNetwork(canvas, net, { ...size, title: title || (net.plane ? "The trained network: each unit's output over the plane" : "The trained network") });
  const losses = lossData(net, upTo);
  curve.drawLossCurve(e("loss-canvas"), losses, { ...sizeFor(e("loss-canvas"), 0.8, 320), title: "Loss per epoch" });
  e("network-caption").textContent = networkCaption(net);
  e("network-text").replaceChildren(draw.describeNetwork(net, { caption: "Layers" }));
  e("loss-text").replaceChildren(curve.describeLossCurve(losses));
}

async function draw({ result, view, axes }) {
  if (view !== "network" || !result?.network) return;
  const net = await networkFor(result, axes);
  const now = store.get();
  if (now.result !== result || now.view !== "network") return;
  prepareReplay(result, net, axes);
  await drawNetworkView(net);
}

export function mountNetworkView() {
  prepareReplay = createReplay(drawNetworkView);
  store.subscribe(["result", "view", "axes"], (state) => {
    draw(state).catch((error) => {
      e("network-caption").replaceChildren(el("strong", { text: `The network could not be drawn: ${error.message}` }));
    });
  });
}
