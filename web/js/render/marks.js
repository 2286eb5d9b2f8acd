// Point markers and legends shared by the charts, so a split or a class looks the same in every view.
import { FONT, fitText, linearScale, niceTicks, formatTick } from "./scales.js";
import { INK, sequentialColour } from "./palette.js";

// How each split is marked: train filled circles, validation hollow circles, test hollow squares.
export const SPLIT_SHAPES = { train: "filled", validation: "ring", test: "square" };

export function splitShape(split) {
  return SPLIT_SHAPES[split] || "filled";
}

// One marker centred on (x, y). Shapes: "filled", "ring", "square", "cross", "swatch", "line", "dashed".
// `halo` is the outline that keeps a marker readable on any background (white by default).
export function drawMarker(ctx, shape, x, y, colour, size = 4, halo = "#ffffff") {
  ctx.save();
  if (shape === "filled") {
    ctx.beginPath();
    ctx.arc(x, y, size, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.strokeStyle = halo;
    ctx.lineWidth = 1;
    ctx.stroke();
  } else if (shape === "ring") {
    ctx.beginPath();
    ctx.arc(x, y, size, 0, 2 * Math.PI);
    ctx.strokeStyle = halo;
    ctx.lineWidth = 4;
    ctx.stroke();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.stroke();
  } else if (shape === "square") {
    const s = size * 0.9;
    ctx.strokeStyle = halo;
    ctx.lineWidth = 4;
    ctx.strokeRect(x - s, y - s, 2 * s, 2 * s);
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.strokeRect(x - s, y - s, 2 * s, 2 * s);
  } else if (shape === "cross") {
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(x - size, y - size);
    ctx.lineTo(x + size, y + size);
    ctx.moveTo(x + size, y - size);
    ctx.lineTo(x - size, y + size);
    ctx.strokeStyle = halo;
    ctx.lineWidth = 6;
    ctx.stroke();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 3;
    ctx.stroke();
  } else if (shape === "swatch") {
    ctx.fillStyle = colour;
    ctx.fillRect(x - size, y - size, 2 * size, 2 * size);
  } else if (shape === "line" || shape === "dashed") {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    if (shape === "dashed") ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x - 2 * size, y);
    ctx.lineTo(x + 2 * size, y);
    ctx.stroke();
  }
  ctx.restore();
}

// A vertical legend at (x, y) no wider than `width`: items {label, colour, shape} and {heading}.
// Returns the height used.
export function drawLegend(ctx, items, x, y, width = 140) {
  ctx.save();
  let cy = y;
  for (const item of items) {
    if (item.heading) {
      ctx.font = "600 12px system-ui, sans-serif";
      ctx.fillStyle = INK.text;
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      cy += cy === y ? 6 : 12;
      ctx.fillText(fitText(ctx, item.heading, width), x, cy);
      cy += 18;
      continue;
    }
    drawMarker(ctx, item.shape || "swatch", x + 8, cy, item.colour, item.shape === "swatch" || !item.shape ? 6 : 4.5);
    ctx.font = FONT;
    ctx.fillStyle = INK.text;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText(fitText(ctx, String(item.label), width - 24), x + 22, cy);
    cy += 18;
  }
  ctx.restore();
  return cy - y;
}

// The height drawLegend() will use for `items`, so a chart can make room for it before drawing.
export function legendHeight(items) {
  return items.reduce((h, item, i) => h + (item.heading ? (i === 0 ? 6 : 12) + 18 : 18), 0);
}

// Legend entries for the splits present in a list of split names, drawn in a neutral ink.
export function splitLegendItems(splits, colour = INK.muted) {
  const present = new Set(splits || ["train"]);
  return ["train", "validation", "test"].filter((s) => present.has(s))
    .map((s) => ({ label: s, colour, shape: splitShape(s) }));
}

// A vertical colour bar of the sequential ramp over [lo, hi] with ticks and a title; returns the height used.
export function drawColourBar(ctx, x, y, height, [lo, hi], title) {
  ctx.save();
  ctx.font = "600 12px system-ui, sans-serif";
  ctx.fillStyle = INK.text;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  ctx.fillText(title, x, y + 6);
  const top = y + 20;
  const barW = 14;
  const steps = Math.max(2, Math.round(height));
  for (let s = 0; s < steps; s++) {
    const [r, g, bl] = sequentialColour(1 - s / (steps - 1));
    ctx.fillStyle = `rgb(${r},${g},${bl})`;
    ctx.fillRect(x, top + (s * height) / steps, barW, height / steps + 1);
  }
  ctx.strokeStyle = INK.axis;
  ctx.strokeRect(x + 0.5, top + 0.5, barW, height);
  const scale = linearScale([lo, hi], [top + height, top]);
  const ticks = niceTicks(lo, hi, 5);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  ctx.font = FONT;
  ctx.fillStyle = INK.muted;
  for (const t of ticks) {
    ctx.fillRect(x + barW, Math.round(scale(t)), 4, 1);
    ctx.fillText(formatTick(t, step), x + barW + 8, scale(t));
  }
  ctx.restore();
  return height + 30;
}

// A dashed vertical line across the plot at x = px: the chosen value of a curve (the best, the epoch shown).
export function drawDashedVertical(ctx, plot, px) {
  ctx.save();
  ctx.strokeStyle = INK.muted;
  ctx.setLineDash([5, 4]);
  ctx.beginPath();
  ctx.moveTo(Math.round(px) + 0.5, plot.top);
  ctx.lineTo(Math.round(px) + 0.5, plot.bottom);
  ctx.stroke();
  ctx.restore();
}
