// What cannot act on the result shown, and why: Python names the commands that need the rows a model was
// trained on (an imported model's reply: `unavailable`, {command: why}); their buttons are disabled, and
// each says why, visibly under the export bar and as its description (aria-describedby) and tooltip.
import { byId, el } from "./dom.js";
import { store } from "./store.js";

// The page's control for each such command (the steps' replay is in "See it learn", which says why itself).
const CONTROLS = { export_predictions: "export-predictions", export_python: "export-python",
  export_sklearn: "export-sklearn", check_twin: "compare-sklearn" };

// Why the command `cmd` cannot act on `result`, or "" when it can.
export function unavailableReason(result, cmd) {
  return result?.unavailable?.[cmd] || "";
}

function render({ result }) {
  const notes = byId("unavailable-notes");
  const items = [];
  for (const [cmd, id] of Object.entries(CONTROLS)) {
    const button = byId(id);
    const why = unavailableReason(result, cmd);
    if (why) {
      items.push(el("li", { id: `why-${id}`, text: `${button.textContent}: ${why}` }));
      button.setAttribute("aria-describedby", `why-${id}`);
      button.title = why;
    } else if (button.getAttribute("aria-describedby") === `why-${id}`) {
      button.removeAttribute("aria-describedby");
      button.title = button.dataset.title || "";
    }
  }
  notes.replaceChildren(...items);
  notes.hidden = !items.length;
  if (items.length) notes.prepend(el("li", { class: "unavailable-head", text: "Not available for an imported model (train one to use them):" }));
}

export function mountUnavailable() {
  for (const id of Object.values(CONTROLS)) byId(id).dataset.title = byId(id).title;  // a button's own tooltip, given back
  store.subscribe(["result"], render);
}
