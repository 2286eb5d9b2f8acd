// The loss curve: a network's training loss per epoch (left axis) and, with early stopping, the score
// of the held-out rows per epoch (right axis, its own scale). During a replay only the epochs up to the
// one shown are drawn, on the whole run's axes, so the line grows in place. With a text twin.
import { CLASS_COLOURS, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, pad, niceTicks, formatTick, tickStep, fitText } from "./scales.js";
import { drawDashedVertical, drawLegend, legendHeight } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const LOSS = { colour: CLASS_COLOURS[0], label: "training loss" };
const SCORE = { colour: CLASS_COLOURS[1], label: "held-out score" };

// data: {loss: [per epoch], validation: [per epoch] or null, scoreName, upTo?: epochs drawn (default all)}.
export function checkLossCurve(data) {
  if (!data || !Array.isArray(data.loss) || !data.loss.length) throw new Error("Loss curve: expected a loss per epoch.");
  if (data.validation && data.validation.length !== data.loss.length) {
    throw new Error(`Loss curve: ${data.loss.length} epochs need as many held-out scores, not ${data.validation.length}.`);
  }
  if (data.upTo !== undefined && !(Number.isInteger(data.upTo) && data.upTo >= 0 && data.upTo <= data.loss.length)) {
    throw new Error(`Loss curve: cannot draw up to epoch ${data.upTo} of ${data.loss.length}.`);
  }
}

// Draws `data` with options {width, height, title}; returns {plot, x (epoch -> px), y}.
export function drawLossCurve(canvas, data, options = {}) {
  checkLossCurve(data);
  const n = data.loss.length;
  const upTo = data.upTo ?? n;
  const W = options.width || 560;
  const H = options.height || 300;
  const ctx = setupCanvas(canvas, W, H);
  const scored = Boolean(data.validation);
  const items = [{ label: LOSS.label, colour: LOSS.colour, shape: "filled" }];
  if (scored) items.push({ label: `${SCORE.label} (${data.scoreName})`, colour: SCORE.colour, shape: "filled" });
  // The legend sits above the plot, right of the title, where no line can run under it.
  const plot = plotArea(W, H, { top: 16 + legendHeight(items), right: scored ? 64 : 20, bottom: 50, left: 64 });
  const x = linearScale(n > 1 ? [1, n] : [0.5, 1.5], [plot.left, plot.right]);
  const y = linearScale(pad(extent(data.loss.filter(Number.isFinite)), 0.06), [plot.bottom, plot.top]);
  drawAxes(ctx, plot, x, y, { xLabel: "epoch", yLabel: "loss", grid: true });
  drawLine(ctx, data.loss.slice(0, upTo), x, y, LOSS.colour);
  if (scored) {
    const v = linearScale(pad(extent(data.validation.filter(Number.isFinite)), 0.06), [plot.bottom, plot.top]);
    rightAxis(ctx, plot, v, data.scoreName);
    drawLine(ctx, data.validation.slice(0, upTo), x, v, SCORE.colour);
  }
  if (upTo < n) drawDashedVertical(ctx, plot, x(Math.max(1, upTo)));
  drawLegend(ctx, items, Math.max(plot.left + 160, W - 240), 12, 230);
  ctx.fillStyle = INK.text;
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(fitText(ctx, options.title || "", W - 16), 8, 6);
  return { plot, x, y };
}

function drawLine(ctx, values, x, y, colour) {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  let started = false;
  values.forEach((value, i) => {
    if (!Number.isFinite(value)) return;
    if (started) ctx.lineTo(x(i + 1), y(value));
    else ctx.moveTo(x(i + 1), y(value));
    started = true;
  });
  ctx.stroke();
  if (values.length === 1 && Number.isFinite(values[0])) {
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x(1), y(values[0]), 3, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
}

// The held-out score's scale on the right, in its colour, so it is not read on the loss's axis.
function rightAxis(ctx, plot, v, name) {
  const [lo, hi] = [v.invert(plot.bottom), v.invert(plot.top)];
  const step = tickStep(lo, hi, 5);
  ctx.save();
  ctx.fillStyle = SCORE.colour;
  ctx.font = "12px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const t of niceTicks(lo, hi, 5)) ctx.fillText(formatTick(t, step), plot.right + 6, v(t));
  ctx.translate(plot.right + 54, (plot.top + plot.bottom) / 2);
  ctx.rotate(Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText(name, 0, 0);
  ctx.restore();
}

// The text twin: the loss (and held-out score) of each epoch drawn, the lowest loss named.
export function describeLossCurve(data, { caption = "The loss per epoch" } = {}) {
  checkLossCurve(data);
  const upTo = data.upTo ?? data.loss.length;
  const shown = data.loss.slice(0, upTo);
  const headers = ["epoch", "training loss", ...(data.validation ? [`held-out ${data.scoreName}`] : [])];
  const rows = shown.map((loss, i) => [String(i + 1), fmt(loss, 5), ...(data.validation ? [fmt(data.validation[i], 4)] : [])]);
  let note = "No epoch drawn yet.";
  if (shown.length) {
    const best = shown.indexOf(Math.min(...shown.filter(Number.isFinite)));
    note = `${shown.length} of ${data.loss.length} epochs: the loss went from ${fmt(shown[0], 4)} to ${fmt(shown[shown.length - 1], 4)}, `
      + `lowest at epoch ${best + 1} (${fmt(shown[best], 4)}).`;
  }
  return makeTwin(makeParagraph(note), makeTable(caption, headers, rows));
}
