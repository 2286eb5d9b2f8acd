// The loss drawn live while a network trains: each epoch's training loss, as the worker reports it with
// the progress ("epoch 37 of 200"), on a small chart under the progress bar, with a text twin. Drawn at
// most once a screen frame, on the page's thread: the training in the worker never waits for it. Hidden
// again when the job ends (the Network view then has the whole curve, and the validation scores).
import { byId } from "./dom.js";
import { store } from "./store.js";
import { setupCanvas, extent, linearScale } from "./render/scales.js";
import { INK } from "./render/palette.js";

const WIDTH = 180;
const HEIGHT = 44;
const els = { canvas: byId("live-loss"), text: byId("live-loss-text") };
let points = [];  // [epoch, loss] of the training running now
let frame = 0;

function draw() {
  frame = 0;
  if (!points.length) return;  // the job ended before this frame
  const ctx = setupCanvas(els.canvas, WIDTH, HEIGHT);
  const [lo, hi] = extent(points.map((p) => p[1]));
  const x = linearScale([points[0][0], Math.max(points[points.length - 1][0], points[0][0] + 1)], [2, WIDTH - 2]);
  const y = linearScale([lo, hi], [HEIGHT - 4, 14]);
  ctx.strokeStyle = INK.text;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  points.forEach(([epoch, loss], i) => (i ? ctx.lineTo(x(epoch), y(loss)) : ctx.moveTo(x(epoch), y(loss))));
  ctx.stroke();
  const [epoch, loss] = points[points.length - 1];
  const value = Number(loss.toPrecision(4));
  ctx.fillStyle = INK.text;
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillText(`training loss ${value}`, 2, 10);  // the epoch is in the status line above
  els.text.textContent = `The loss as the network trains: training loss ${value} after epoch ${epoch}.`;
}

// One epoch's report ({epoch, loss}); a first epoch starts a new curve.
function addPoint(detail) {
  if (!Number.isFinite(detail?.loss) || !Number.isFinite(detail?.epoch)) return;
  if (detail.epoch <= (points[points.length - 1]?.[0] ?? 0)) points = [];  // a new fit (another fold, or a retrain)
  points.push([detail.epoch, detail.loss]);
  els.canvas.hidden = false;
  if (!frame) frame = requestAnimationFrame(draw);
}

export function mountLiveLoss() {
  store.subscribe(["progressDetail"], (s) => addPoint(s.progressDetail));
  store.subscribe(["busy"], (s) => {
    if (s.busy) return;
    points = [];  // the job is over
    els.canvas.hidden = true;
    els.text.textContent = "";
  });
}
