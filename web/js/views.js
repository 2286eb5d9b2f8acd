// The view tabs: which views apply to a trained model, which one is shown, keyboard movement between
// tabs (arrow keys, Home, End) as the WAI-ARIA tabs pattern describes.

export const VIEW_ORDER = ["metrics", "tree", "boundary", "clusters", "dendrogram", "pca", "regression", "curves", "importance"];

// The views that mean something for this result, from the capabilities its learner's descriptor claims
// (sent with every trained or imported model); `numericFeatures` are the features a plane can show.
export function applicableViews(result, numericFeatures) {
  const can = new Set(result.capabilities || []);
  const views = new Set();
  if (result.metrics || result.summary) views.add("metrics");
  if (can.has("tree") && result.model?.tree) views.add("tree");
  if (can.has("boundary") && numericFeatures.length >= 2 && !result.imported) views.add("boundary");
  if (can.has("clusters")) views.add("clusters");
  if (can.has("dendrogram") && result.dendrogram?.merges?.length) views.add("dendrogram");
  if (can.has("projection") && result.pca) views.add("pca");
  if (can.has("regression_fit") && result.predictions) views.add("regression");
  // Judged on rows the model did not see, so only for a model trained here (an imported one has no rows).
  const supervised = result.task === "classification" || result.task === "regression";
  if (result.task === "classification" && can.has("probabilities") && !result.imported) views.add("curves");
  if (supervised && !result.imported) views.add("importance");
  return VIEW_ORDER.filter((v) => views.has(v));
}

// The view a fresh result opens on: the asked one if it applies, else the most telling one.
export function preferredView(enabled, asked) {
  if (asked && enabled.includes(asked)) return asked;
  for (const v of ["tree", "boundary", "clusters", "pca", "regression", "metrics"]) if (enabled.includes(v)) return v;
  return enabled[0] || "";
}

function tabs(list) {
  return Array.from(list.querySelectorAll('[role="tab"]'));
}

// Shows `current`, enables the tabs in `enabled` (others stay visible but disabled, with a reason).
export function showTabs(list, enabled, current) {
  for (const tab of tabs(list)) {
    const view = tab.dataset.view;
    const on = enabled.includes(view);
    tab.disabled = !on;
    tab.title = on ? "" : "Does not apply to this model";
    tab.setAttribute("aria-selected", String(view === current));
    tab.tabIndex = view === current ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = view !== current;
  }
}

export function onTabChoice(list, handler) {
  list.addEventListener("click", (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab && !tab.disabled) handler(tab.dataset.view);
  });
  list.addEventListener("keydown", (event) => {
    const all = tabs(list).filter((t) => !t.disabled);
    const at = all.indexOf(document.activeElement);
    if (at < 0) return;
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = all[(moves[event.key] + all.length) % all.length];
    next.focus();
    handler(next.dataset.view);
  });
}
