// The page's link: the settings a URL carries (link-settings.js) read when the page opens, and written
// back to location.hash whenever one of them changes, so a copied link reproduces the run.
import { store } from "./store.js";
import { makeProps, readHash, writeHash, defaults } from "./link-settings.js";
import { changedParams } from "./model-controls.js";
import { EVALUATION_KEYS } from "./eval-panel.js";
import { PREPROCESS_KEYS } from "./preprocess-panel.js";
import { PCA } from "./results.js";

let props = null;  // known once the shared settings and the menus are in

// Whether the settings a link carries are known (the shared settings and the menus are in).
export const linkKnown = () => props !== null;

// Reads the link the page was opened with: {settings, rejected: [names whose values did not fit]}.
export function openLink(hash) {
  const { shared, datasets, models } = store.get();
  props = makeProps(shared, { datasets, models });
  return readHash(props, hash);
}

// The view and axes a link records: the shown ones, else those a link asked for and still waits for.
function viewSettings({ result, view, axes, wanted }) {
  if (!result) return { view: wanted.view || "", x: wanted.x || "", y: wanted.y || "" };
  const { x, y } = axes[view === "clusters" ? "clusters" : "boundary"];
  return { view, x, y: x !== PCA ? y : wanted.y || "" };
}

// The store's state as the settings a link carries.
export function linkSettings(s = store.get()) {
  const out = defaults(props);
  const { source, table, roles, pending } = s;
  out.dataset = source?.type === "file" || (!source && pending) ? "upload" : source?.name || s.dataset || out.dataset;
  if (source?.type === "example") {
    const g = source.generator;
    Object.assign(out, { n: g.n ?? out.n, noise: g.noise ?? out.noise, dataSeed: g.seed ?? out.dataSeed });
  }
  if (table) {
    out.target = table.columns.find((c) => roles[c] === "target") || "";
    out.ignore = table.columns.filter((c) => roles[c] === "ignore");
    out.categorical = Object.entries(source?.kinds || {}).filter(([, k]) => k === "categorical").map(([c]) => c);
  } else if (pending) {
    // A link made with an uploaded file keeps its roles until the file is uploaded again.
    Object.assign(out, { target: pending.target, ignore: pending.ignore, categorical: pending.categorical || [] });
  }
  out.model = s.model || out.model;
  out.params = changedParams(s);
  for (const key of [...EVALUATION_KEYS, ...PREPROCESS_KEYS]) out[key] = s[key];
  return Object.assign(out, viewSettings(s));
}

function saveLink(s) {
  // While the page opens it is still applying the link it was given: written once that is done.
  if (!props || !s.ready || s.starting || !s.models.length) return;
  history.replaceState(null, "", `${location.pathname}${location.search}${writeHash(props, linkSettings(s))}`);
}

export function mountLink() {
  store.subscribe(["starting", "dataset", "source", "table", "roles", "pending", "model", "params", ...EVALUATION_KEYS, ...PREPROCESS_KEYS,
    "result", "view", "axes", "wanted"], saveLink);
}
