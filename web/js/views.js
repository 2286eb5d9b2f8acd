// The view tabs: which one is shown, keyboard movement between tabs (arrow keys, Home, End) as the
// WAI-ARIA tabs pattern describes. Which views a result has is Python's to say (its reply's `views`,
// workbench/showing.py); the page enables those tabs.

// The view a fresh result opens on: the asked one if the result has it, else the one Python chose.
export function openingView(result, asked) {
  const views = result.views || [];
  return asked && views.includes(asked) ? asked : result.default_view || views[0] || "";
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
