// Watch it learn: the Network view replayed epoch by epoch. The train reply lists the epochs Python kept
// (workbench/network_replay.py: at most 60, evenly spaced, for a small network on a small table); each is
// asked of Python when shown (its units' maps and the boundary its weights draw, on a coarse grid) and drawn
// with the loss curve up to that epoch. Play, pause, step one epoch either way, reset; the arrow keys step
// and Home resets while the controls have focus; a status line says the epoch.
import { byId } from "./dom.js";
import { python } from "./python.js";
import { renderer, sizeFor } from "./view-draw.js";

const e = byId;
const PAUSE_MS = 350;  // between frames while playing (each frame also waits for Python)

// The replay of one result over one plane; `draw(net, options)` draws the network view.
export function createReplay(draw) {
  let state = null;  // {result, net, epochs, index, playing, x, y}: the replay shown, a drawn object

  const setStatus = (text) => { e("replay-status").textContent = text; };
  const thinned = (s) => (s.epochs.length < s.net.n_iter ? ` (the replay keeps ${s.epochs.length} of the ${s.net.n_iter} epochs, evenly spaced)` : "");

  function buttons() {
    const s = state;
    const has = Boolean(s && s.epochs.length);
    e("replay-play").textContent = s?.playing ? "❚❚ Pause the training" : "▶ Play the training";
    for (const id of ["replay-play", "replay-reset"]) e(id).disabled = !has;
    e("replay-back").disabled = !has || s.index === null || s.index <= 0;
    e("replay-step").disabled = !has || (s.index !== null && s.index >= s.epochs.length - 1);
  }

  async function show(index) {
    const s = state;
    const epoch = s.epochs[index];
    s.index = index;
    buttons();
    const net = await python.call("network", { model_id: s.result.model_id, x: s.x, y: s.y, epoch });
    if (state !== s || s.index !== index) return;
    await draw(net, { upTo: epoch, title: `The network after epoch ${epoch}` });
    await drawBoundary(net);
    setStatus(`Epoch ${epoch} of ${s.net.n_iter}: loss ${Number(s.net.loss_curve[epoch - 1].toPrecision(4))}${thinned(s)}.`);
  }

  async function drawBoundary(net) {
    e("replay-boundary-box").hidden = !net.boundary;
    if (!net.boundary) return;
    const mod = await renderer("boundary");
    const canvas = e("replay-boundary-canvas");
    const task = state.result.task === "regression" ? "regression" : "classification";
    const options = { ...sizeFor(canvas, 0.8, 360), task };
    mod.drawBoundary(canvas, net.boundary, options);
    e("replay-boundary-text").replaceChildren(mod.describeBoundary(net.boundary, options));
  }

  async function step(by) {
    const s = state;
    if (!s?.epochs.length) return;
    const next = s.index === null ? (by > 0 ? 0 : s.epochs.length - 1) : s.index + by;
    if (next < 0 || next >= s.epochs.length) return;
    await guarded(() => show(next));
  }

  async function play() {
    const s = state;
    if (!s?.epochs.length) return;
    if (s.playing) { s.playing = false; buttons(); return; }
    s.playing = true;
    if (s.index === null || s.index >= s.epochs.length - 1) s.index = -1;  // from the start again
    buttons();
    while (state === s && s.playing && s.index < s.epochs.length - 1) {
      await guarded(() => show(s.index + 1));
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    s.playing = false;
    if (state === s) buttons();
  }

  async function reset() {
    if (!state?.epochs.length) return;
    state.playing = false;
    await guarded(() => show(0));
  }

  async function guarded(work) {
    try {
      await work();
    } catch (error) {
      if (state) state.playing = false;
      setStatus(`The epoch could not be drawn: ${error.message}`);
      buttons();
    }
  }

  e("replay-play").addEventListener("click", play);
  e("replay-step").addEventListener("click", () => step(1));
  e("replay-back").addEventListener("click", () => step(-1));
  e("replay-reset").addEventListener("click", reset);
  e("replay-controls").addEventListener("keydown", (event) => {
    const keys = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), Home: reset };
    if (!(event.key in keys)) return;
    event.preventDefault();
    if (state) state.playing = false;
    keys[event.key]();
  });

  // A new result or plane: the trained network is shown, the replay waits at its start.
  return function prepare(result, net, axes) {
    if (state) state.playing = false;
    const replay = net.replay || result.network.replay || { epochs: [] };
    state = { result, net, epochs: replay.epochs || [], index: null, playing: false, x: net.plane?.x ?? null, y: net.plane?.y ?? null };
    e("replay-boundary-box").hidden = true;
    setStatus(state.epochs.length ? `The trained network, after all ${net.n_iter} epochs. Play to watch it learn${thinned(state)}.`
      : replay.why_not || "This network kept no epochs to replay.");
    buttons();
    return axes;
  };
}
