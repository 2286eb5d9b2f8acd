// The page's state in one place. Controls write to it; views subscribe to the keys they draw from and
// render when those change. Nothing learns the state by reading it back from the page. A module keeps a
// variable of its own only for what is not the page's state: a drawn object or a drawing's geometry, a
// cache of what Python computed, a counter that drops stale replies (each says so where it is).

// What the page knows. The choices a link records (link-settings.js) are kept as the controls hold them:
// the dataset and generator values, the model and all its parameter values, and the evaluation keys
// (method, train, validation, test, k, stratify, seed), which the page sets from the link at start.
// The link's target, ignore and categorical come from `roles` and `source`; view, x and y from the
// results' keys (link.js turns the state into a link).
const INITIAL = {
  dataset: "",         // the chosen dataset's name ("" for an upload or none)
  generator: {},       // the chosen generator's {n, noise, seed}
  model: "",           // the chosen model's class name
  params: {},          // its hyperparameters' values
  modelByUser: false,  // the user chose the model (else the page did, and it follows the target's task)
  learnerSwitched: null,  // {from, to, target}: the page switched the model to follow that target
  view: "",            // the view shown
  ready: false,        // Python has started (the menus may still be loading)
  python: null,        // how it started: {seconds, version (pellucid's), snapshot (from Pyodide's snapshot)}
  starting: false,     // the opening load (menus, linked data, first training) is under way
  status: { state: "loading", text: "Loading Python…" },  // the status line
  progress: null,      // the running job's fraction done, or null when none is reported
  progressLabel: "",   // what its last report said ("epoch 37 of 200")
  progressDetail: null, // and what else it carried ({epoch, loss} of a network's epoch: live-loss.js)
  message: null,       // {text, detail?}: what went wrong, shown in the message area
  note: "",            // a quiet note about the link the page was opened with
  busy: "",            // what the page is doing, or "" when idle
  cancellable: false,  // whether the busy work can be stopped
  recovering: false,   // a new worker is being started after Python died
  shared: null,        // settings.json: what Python and the page share (split, k, limits, kinds)
  datasets: [],        // the dataset menu from Python
  models: [],          // the model menu from Python
  source: null,        // where the loaded data came from (data-source.js), replayed after a restart
  table: null,         // the loaded table's TableInfo
  roles: {},           // column -> "target" | "feature" | "ignore"
  noTarget: false,     // the user chose "none" as the target (else, with no target, the menu asks for one)
  pending: null,       // roles a link asked for, waiting for the user's upload
  trained: false,      // a model was trained on this data (the session retrains it on reload)
  result: null,        // the shown model's result
  lastTrain: null,     // the train arguments of that result (retrained into a new worker after a cancel)
  training: null,      // the train arguments of the training running now, or null
  trainedSettings: null,  // the settings that result was trained with (result-standing.js), to mark it out of date
  enabledViews: [],    // the views that apply to the result
  wanted: {},          // the view and axes a link asked for, used by the next result
  axes: { boundary: { x: "", y: "" }, clusters: { x: "", y: "" } },
  cut: 2,              // the dendrogram's number of clusters
  standardize: null,   // standardize numeric columns: true, false, or null for the model's default
  impute: null,        // missing cells: one of settings.json's impute choices, or null: the model's default
  sample: false,       // train a learner with a row limit on a seeded sample of that many rows
  rankSample: false,   // Compare learners: rank a learner with a row limit on a seeded sample of that many rows
  trainedRun: null,    // the last training that succeeded, {args, result}: set once per training, the run history records it
  historyEntries: [],  // the run history, newest first: plain data, as saved in this browser (history.js)
  ranking: null,       // Compare learners' table on screen, {reply, setup}: the reply and the settings it was trained with
  rankTicked: [],      // the learners ticked to compare: the user's, and the chosen model for them
  rankTickedByUser: [],  // those of them the user ticked (kept when another model is chosen)
  tuning: null,        // the tuning on screen, {reply, model}: for "Use the best" while that model is chosen
  applyModels: { table_id: null, models: [] },  // models imported in Apply to new data, [{model_id, label, file}], beside that table
  applied: null,       // Apply to new data's last reply ({filename, csv, ...}), kept for the download
};

function createStore(initial) {
  let state = { ...initial };
  const listeners = [];

  function set(patch) {
    const changed = Object.keys(patch).filter((key) => !Object.is(state[key], patch[key]));
    if (!changed.length) return;
    state = { ...state, ...patch };
    for (const { keys, fn } of [...listeners]) {
      if (!keys || keys.some((key) => changed.includes(key))) fn(state, changed);
    }
  }

  return {
    get: () => state,
    set,
    update: (fn) => set(fn(state)),
    // Calls fn(state, changedKeys) after every change to one of `keys` (every change when keys is null);
    // returns a function that stops it.
    subscribe(keys, fn) {
      const entry = { keys, fn };
      listeners.push(entry);
      return () => listeners.splice(listeners.indexOf(entry), 1);
    },
  };
}

export const store = createStore(INITIAL);
