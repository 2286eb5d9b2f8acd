// Colours shared by every view, so a class has the same colour in the tree, the boundary and the legend.
export const CLASS_COLOURS = ["#3b6fd8", "#e07b22", "#2f9e5b", "#c23b5a", "#7b52c7", "#8c6d31", "#d04ea8", "#5b6770"];

export function classColour(index) {
  return CLASS_COLOURS[index % CLASS_COLOURS.length];
}

// Colours of the data splits, for views where points are told apart by split rather than by class.
export const SPLIT_COLOURS = { train: "#3b6fd8", validation: "#e07b22", test: "#c23b5a" };

// Ink for axes, labels and anything that is not data.
export const INK = { text: "#1d232a", muted: "#5b6770", axis: "#7d8791", grid: "#e6e9ee", neutral: "#8a939c" };

// A sequential ramp (light yellow to deep blue, readable in grey scale) for values of a regressor.
const RAMP = [[255, 247, 188], [199, 233, 180], [127, 205, 187], [65, 182, 196], [29, 145, 192], [34, 94, 168], [12, 44, 132]];

export function sequentialColour(t) {
  const u = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(u));
  const f = u - i;
  return RAMP[i].map((c, k) => Math.round(c + (RAMP[i + 1][k] - c) * f));
}

export function hexToRgb(hex) {
  const h = hex.replace("#", "");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}
