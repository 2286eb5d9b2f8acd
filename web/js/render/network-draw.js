// A network drawn unit by unit: one column per layer (inputs, hidden layers, outputs), each weight a line
// from the unit it reads to the unit it feeds, as thick as |w| (against the layer's largest) and coloured by
// its sign. Each unit after the inputs is a small heatmap of its own output a = g(z) over the plane's two
// features (light to dark: low to high over that unit's range), when the data has such a plane. A layer of
// more units than fit shows its first MAX_UNITS and says how many are left out. With a text twin.
import { INK, sequentialColour } from "./palette.js";
import { setupCanvas, fitText } from "./scales.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

export const MAX_UNITS = 24;  // units drawn per layer; the twin lists every one
const POSITIVE = "#2f6fd0";
const NEGATIVE = "#d0452f";
const TWIN_WEIGHTS = 12;  // a twin row lists each incoming weight up to this many, else the largest few

// data: {layers: [{name, units: [label]}], coefs: [W_l (before x after)], intercepts: [b_l], maps?: [[{values,
// low, high}] per unit] per layer after the inputs, plane?: {x, y, size}}.
export function checkNetwork(data) {
  if (!data || !Array.isArray(data.layers) || data.layers.length < 2) throw new Error("Network: expected at least two layers.");
  if (data.coefs?.length !== data.layers.length - 1) throw new Error(`Network: ${data.layers.length} layers need ${data.layers.length - 1} weight matrices.`);
  data.coefs.forEach((W, l) => {
    const [before, after] = [data.layers[l].units.length, data.layers[l + 1].units.length];
    if (W.length !== before || W.some((row) => row.length !== after)) {
      throw new Error(`Network: the weights into ${data.layers[l + 1].name} must be ${before} x ${after}.`);
    }
    if (data.intercepts?.[l]?.length !== after) throw new Error(`Network: ${data.layers[l + 1].name} needs ${after} biases.`);
  });
  if (data.maps) {
    const size = data.plane?.size;
    data.maps.forEach((layer, l) => {
      if (layer.length !== data.layers[l + 1].units.length) throw new Error(`Network: ${data.layers[l + 1].name} needs a map per unit.`);
      if (layer.some((m) => m.values.length !== size * size)) throw new Error(`Network: each unit's map must be ${size} x ${size}.`);
    });
  }
}

// Which units of a layer are drawn: all, or the first MAX_UNITS.
function shown(layer) {
  return Math.min(layer.units.length, MAX_UNITS);
}

// Where each drawn unit sits: {x, units: [{cx, cy}], box (a map's size), half (half the unit's width: its
// map's, or its circle's radius)} per layer.
export function layout(data, W, H) {
  const top = 40;
  const bottom = H - 16;
  const columns = data.layers.length;
  const left = Math.min(170, W * 0.2);  // room for the inputs' names
  const right = W - Math.min(120, W * 0.15);
  const most = Math.max(...data.layers.map(shown));
  const gap = (bottom - top) / most;
  const box = Math.max(10, Math.min(56, gap * 0.86, ((right - left) / Math.max(1, columns - 1)) * 0.4));
  return data.layers.map((layer, l) => {
    const n = shown(layer);
    const x = columns === 1 ? W / 2 : left + ((right - left) * l) / (columns - 1);
    const span = n * gap;
    const start = top + (bottom - top - span) / 2 + gap / 2;
    const half = l > 0 && data.maps ? box / 2 : Math.min(box, 26) / 2;
    return { x, units: Array.from({ length: n }, (_, i) => ({ cx: x, cy: start + i * gap })), box, half };
  });
}

// Draws the network with options {width, height, title, fixedRange: per layer index, [low, high] or null};
// returns the layout.
export function drawNetwork(canvas, data, options = {}) {
  checkNetwork(data);
  const W = options.width || 640;
  const H = options.height || 420;
  const ctx = setupCanvas(canvas, W, H);
  const places = layout(data, W, H);
  drawWeights(ctx, data, places);
  data.layers.forEach((layer, l) => {
    const place = places[l];
    place.units.forEach(({ cx, cy }, i) => {
      const map = l > 0 && data.maps ? data.maps[l - 1][i] : null;
      if (map) drawMap(ctx, map, data.plane.size, cx, cy, place.box, options.fixedRange?.[l] || null);
      else drawUnit(ctx, cx, cy, place.half);
    });
    labelLayer(ctx, layer, place, l, data.layers.length, columnRoom(places));
  });
  ctx.fillStyle = INK.text;
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(fitText(ctx, options.title || "", W - 16), 8, 6);
  return places;
}

function drawWeights(ctx, data, places) {
  ctx.save();
  data.coefs.forEach((W, l) => {
    const largest = Math.max(1e-12, ...W.flat().map(Math.abs));
    const [from, to] = [places[l], places[l + 1]];
    from.units.forEach((a, i) => to.units.forEach((b, j) => {
      const w = W[i][j];
      const share = Math.abs(w) / largest;
      ctx.strokeStyle = w >= 0 ? POSITIVE : NEGATIVE;
      ctx.globalAlpha = 0.15 + 0.75 * share;
      ctx.lineWidth = 0.4 + 4 * share;
      ctx.beginPath();
      ctx.moveTo(a.cx + from.half, a.cy);
      ctx.lineTo(b.cx - to.half, b.cy);
      ctx.stroke();
    }));
  });
  ctx.restore();
}

function drawUnit(ctx, cx, cy, r) {
  ctx.save();
  ctx.fillStyle = "#ffffff";
  ctx.strokeStyle = INK.text;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}

// A unit's output over the plane as a box of size x size cells; y grows upwards, as on the boundary.
function drawMap(ctx, map, size, cx, cy, box, fixed) {
  const [low, high] = fixed || [map.low, map.high];
  const span = high - low;
  const image = new ImageData(size, size);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const v = map.values[row * size + col];
      const [r, g, b] = sequentialColour(span > 0 ? (v - low) / span : 0.5);
      const at = ((size - 1 - row) * size + col) * 4;
      image.data.set([r, g, b, 255], at);
    }
  }
  const tile = document.createElement("canvas");
  tile.width = size;
  tile.height = size;
  tile.getContext("2d").putImageData(image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(tile, cx - box / 2, cy - box / 2, box, box);
  ctx.strokeStyle = INK.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(cx - box / 2, cy - box / 2, box, box);
  ctx.restore();
}

// The width a layer's name may take: the distance between two columns, less a margin, at most 150 px.
function columnRoom(places) {
  return places.length > 1 ? Math.min(150, places[1].x - places[0].x - 8) : 150;
}

// A layer's name and size, shortened ("hidden 1 (8)" for "hidden layer 1 (8)") where its column is narrow, so
// neighbouring names never overlap and the size stays readable.
function layerTitle(ctx, layer, room) {
  const full = `${layer.name} (${layer.units.length})`;
  if (ctx.measureText(full).width <= room) return full;
  return fitText(ctx, `${layer.name.replace(/^hidden layer /, "hidden ")} (${layer.units.length})`, room);
}

function labelLayer(ctx, layer, place, l, count, room) {
  ctx.save();
  ctx.fillStyle = INK.text;
  ctx.font = "12px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  const first = l === 0;
  const last = l === count - 1;
  if (first || last) {  // the inputs' and outputs' names beside their units
    ctx.textAlign = first ? "right" : "left";
    place.units.forEach(({ cx, cy }, i) => {
      const room = first ? cx - place.half - 10 : ctx.canvas.width / (window.devicePixelRatio || 1) - cx - place.half - 10;
      ctx.fillText(fitText(ctx, layer.units[i], room), first ? cx - place.half - 6 : cx + place.half + 6, cy);
    });
  }
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.font = "600 12px system-ui, sans-serif";
  const left = layer.units.length - place.units.length;
  ctx.fillText(layerTitle(ctx, layer, room), place.x, 22);
  if (left > 0) {
    ctx.font = "12px system-ui, sans-serif";
    ctx.fillStyle = INK.muted;
    const lowest = place.units[place.units.length - 1].cy + place.half + 2;
    ctx.fillText(`+ ${left} more`, place.x, Math.min(lowest, ctx.canvas.height));
  }
  ctx.restore();
}

// The text twin: per layer after the inputs, a row per unit with its bias, its incoming weights (each one
// for a small layer before it, else the largest in size) and the range of its output over the plane.
export function describeNetwork(data, { caption = "" } = {}) {
  checkNetwork(data);
  const sizes = data.layers.map((layer) => `${layer.units.length} ${layer.name}`).join(", ");
  const parts = [makeParagraph(`${caption ? `${caption}: ` : ""}${sizes}.`)];
  data.coefs.forEach((W, l) => {
    const before = data.layers[l].units;
    const layer = data.layers[l + 1];
    const each = before.length <= TWIN_WEIGHTS;
    const headers = ["unit", "bias b", ...(each ? before.map((u) => `w from ${u}`) : ["largest incoming weights"]),
      ...(data.maps ? [`output over ${data.plane.x} and ${data.plane.y}`] : [])];
    const rows = layer.units.map((unit, j) => {
      const incoming = before.map((u, i) => [u, W[i][j]]);
      const weights = each ? incoming.map(([, w]) => fmt(w, 3))
        : [incoming.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 3).map(([u, w]) => `${u}: ${fmt(w, 3)}`).join("; ")];
      const map = data.maps?.[l][j];
      return [unit, fmt(data.intercepts[l][j], 3), ...weights, ...(map ? [`${fmt(map.low, 3)} to ${fmt(map.high, 3)}`] : [])];
    });
    parts.push(makeTable(`Into ${layer.name}`, headers, rows));
  });
  return makeTwin(...parts);
}
