// The page's settings as one declarative table, serialised to location.hash so a link reproduces a run
// on built-in data (dataset, roles, model, parameters, evaluation, view). User data is never put in
// the URL. Everything read from a hash is untrusted: each value is checked against its type and range,
// and anything that does not fit is dropped with a note, never interpreted as markup or code.

const text = (max = 200) => ({
  parse: (v) => (typeof v === "string" && v.length <= max ? v : undefined),
  format: (v) => v,
});
const integer = (low, high) => ({
  parse: (v) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= low && n <= high ? n : undefined;
  },
  format: (v) => String(v),
});
const number = (low, high) => ({
  parse: (v) => {
    const n = Number(v);
    return Number.isFinite(n) && n >= low && n <= high ? n : undefined;
  },
  format: (v) => String(v),
});
const flag = { parse: (v) => (v === "1" ? true : v === "0" ? false : undefined), format: (v) => (v ? "1" : "0") };
const list = (max = 200) => ({
  parse: (v) => {
    if (typeof v !== "string" || v.length > 4000) return undefined;
    const items = v === "" ? [] : v.split(",").map(decodeURIComponent);
    return items.length <= max && items.every((s) => s.length <= 200) ? items : undefined;
  },
  format: (items) => items.map(encodeURIComponent).join(","),
});
const json = (max = 4000) => ({
  parse: (v) => {
    if (typeof v !== "string" || v.length > max) return undefined;
    try {
      const value = JSON.parse(v);
      return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
    } catch {
      return undefined;
    }
  },
  format: (v) => JSON.stringify(v),
});

// name -> {type, default}. The order is the order in the URL. The split and its limits, the folds' range,
// the seeds' range, the ways to handle missing cells and the default model and dataset are not written
// here: they come from what Python shares (settings.json) and from
// its menus (the first dataset and the model marked default, else the first), so there is one source.
export function makeProps(shared, { datasets, models }) {
  const { split, split_limits: parts, cv_folds: folds, cv_repeats: repeats, seed, impute } = shared;
  const model = models.find((m) => m.default) || models[0];
  return {
    dataset: { type: text(60), default: datasets[0]?.name ?? "" },
    n: { type: integer(10, 5000), default: 300 },
    noise: { type: number(0, 1), default: 0.2 },
    dataSeed: { type: integer(seed.min, seed.max), default: 0 },
    target: { type: text(), default: "" },
    ignore: { type: list(), default: [] },
    categorical: { type: list(), default: [] },
    model: { type: text(60), default: model?.name ?? "" },
    params: { type: json(), default: {} },
    method: { type: { parse: (v) => (["split", "kfold", "none"].includes(v) ? v : undefined), format: (v) => v }, default: "split" },
    train: { type: integer(parts.train.min, parts.train.max), default: split.train },
    validation: { type: integer(parts.validation.min, parts.validation.max), default: split.validation },
    test: { type: integer(parts.test.min, parts.test.max), default: split.test },
    k: { type: integer(folds.min, folds.max), default: folds.default },
    repeats: { type: integer(repeats.min, repeats.max), default: repeats.default },
    stratify: { type: flag, default: true },
    seed: { type: integer(seed.min, seed.max), default: 0 },
    standardize: { type: flag, default: null },  // null: the model's default
    impute: { type: { parse: (v) => (impute.choices.includes(v) ? v : undefined), format: (v) => v }, default: null },  // null: the model's default
    view: { type: text(30), default: "" },
    x: { type: text(), default: "" },
    y: { type: text(), default: "" },
  };
}

export function defaults(props) {
  return Object.fromEntries(Object.entries(props).map(([name, p]) => [name, structuredClone(p.default)]));
}

// Reads a location.hash into settings. Returns {settings, rejected: [names whose values did not fit]}.
export function readHash(props, hash) {
  const settings = defaults(props);
  const rejected = [];
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  for (const [name, raw] of params) {
    const prop = props[name];
    if (!prop) {
      rejected.push(name);
      continue;
    }
    const value = prop.type.parse(raw);
    if (value === undefined) rejected.push(name);
    else settings[name] = value;
  }
  return { settings, rejected };
}

// Writes settings as a hash, leaving out values equal to their defaults so links stay short.
export function writeHash(props, settings) {
  const params = new URLSearchParams();
  for (const [name, prop] of Object.entries(props)) {
    const value = settings[name];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(prop.default)) continue;
    params.set(name, prop.type.format(value));
  }
  const out = params.toString();
  return out ? `#${out}` : "";
}
