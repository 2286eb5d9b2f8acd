// The control an error is about. Python's DataError names the setting it refused in `field`, from a
// fixed vocabulary (docs/bridge.md, "Error fields"); this one table maps each field to the control that
// holds it, for the panel whose command failed: Train's controls, or Tune's, Compare learners' and Apply's
// own boxes where they have one. An error without a field (or about a control not on the page) points at
// nothing, and is shown without a "Go to" link.

const roleControl = (column) => `#profile tr[data-column="${CSS.escape(column)}"] select`;

const TRAIN = {
  target: "#target",
  model: "#model",
  sample: "#row-limit-sample",
  "evaluation.method": 'input[name="eval-method"]:checked',
  "evaluation.split": "#split-train",
  "evaluation.k": "#cv-k",
  "evaluation.repeats": "#cv-repeats",
  "evaluation.seed": "#eval-seed",
  "evaluation.stratify": "#eval-stratify",
  "preprocessing.impute": "#pre-impute",
  "preprocessing.standardize": "#pre-standardize",
  model_file: "#import-button",  // a damaged or newer model file: choose another
  paste: "#paste-text",
  sheet: "#sheet-choice",
};

const PANELS = {
  train: {},
  tune: { "evaluation.k": "#tune-k", metric: "#tune-metric", grid: "#tune-param-1" },
  rank: { learners: "#leaderboard-learners input", metric: "#leaderboard-metric", sample: "#leaderboard-sample" },
  apply: { model_file: "#apply-import" },
};

// `where`: {panel: "train" | "tune" | "rank" | "apply", table: the loaded TableInfo, grid: tune's [{name, values}]}.
export function controlOf(field, { panel = "train", table = null, grid = [] } = {}) {
  if (typeof field !== "string" || !field) return null;
  if (field.startsWith("feature:")) {
    const column = field.slice("feature:".length);
    return table?.columns.includes(column) ? roleControl(column) : null;
  }
  if (field === "features") return table?.columns.length ? roleControl(table.columns[0]) : null;
  if (field.startsWith("params.")) return `#param-${CSS.escape(field.slice("params.".length))}`;
  if (field.startsWith("grid.")) {
    const at = grid.findIndex((g) => g.name === field.slice("grid.".length));
    return at >= 0 ? `#tune-values-${at + 1}` : PANELS.tune.grid;
  }
  return PANELS[panel]?.[field] ?? TRAIN[field] ?? null;
}

export { roleControl };
