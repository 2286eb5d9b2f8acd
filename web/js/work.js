// The page at work: the status line, the progress bar, the message area, and `run`, which marks the
// page busy around one piece of work and turns a failure into what the user should see, by its code.
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { controlOf } from "./error-fields.js";

const els = { status: byId("status"), progress: byId("progress"), note: byId("note"), message: byId("message") };

export function setStatus(state, text) {
  store.set({ status: { state, text } });
}

// `control` (a selector) is the control the message is about: it is marked and one click away.
export function showMessage(text, detail = "", control = null) {
  store.set({ message: text ? { text, detail, control } : null });
}

export function showNote(text) {
  store.set({ note: text || "" });
}

// An error reaching the page, shown according to its code (pyclient.js sets it from the worker's reply);
// a bad setting's message points at its control (`where`: the panel that asked, error-fields.js).
export function showError(error, where = {}) {
  switch (error.code) {
    case "cancelled":
      return;  // the user stopped it; the cancel flow says so
    case "crashed":
      return;  // the recover flow explains and restores the data
    case "internal":
      return showMessage(`Something went wrong inside pellucid: ${error.message}`, error.traceback || "");
    default:
      // data_error (bad input), not_loaded, and the page's own checks: the message says what to do.
      return showMessage(error.message, "", controlOf(error.field, { table: store.get().table, ...where }));
  }
}

// Runs one piece of work with the page marked busy; resolves to its result, or null when it failed
// (after `onError(error)`, where the caller has more to undo than the message shows). `where` says
// which panel asked, so a refused setting points at that panel's control (error-fields.js).
export async function run(label, work, { cancellable = false, onError = () => {}, where = {} } = {}) {
  store.set({ busy: label, cancellable });
  setStatus("busy", label);
  try {
    return await work();
  } catch (error) {
    showError(error, where);
    onError(error);
    return null;
  } finally {
    store.set({ busy: "", cancellable: false, progress: null, progressLabel: "" });
    if (store.get().status.state === "busy") {
      if (store.get().starting) setStatus("loading", "Preparing the workbench…");
      else setStatus("ready", "Ready");
    }
  }
}

export function showProgress(event) {
  if (event.event !== "progress") return;
  store.set({ progress: Math.max(0, Math.min(1, Number(event.fraction) || 0)), progressLabel: String(event.label || ""),
    progressDetail: event.detail || null });
  if (event.label) setStatus("busy", String(event.label));
}

store.subscribe(["status"], ({ status }) => {
  els.status.dataset.state = status.state;
  els.status.textContent = status.text;
});

store.subscribe(["progress"], ({ progress }) => {
  els.progress.hidden = progress === null;
  if (progress === null) els.progress.removeAttribute("value");
  else els.progress.value = progress;
});

store.subscribe(["note"], ({ note }) => {
  els.note.textContent = note;
  els.note.hidden = !note;
});

// The traceback of an internal error is kept out of the way, one click from the message; the control a
// message is about is marked invalid and described by it, with a button that takes the focus there.
let marked = null;  // the control marked invalid and its attributes before: the DOM's to restore, not state
store.subscribe(["message"], ({ message }) => {
  unmark();
  els.message.hidden = !message;
  if (!message) return els.message.replaceChildren();
  const detail = message.detail
    ? el("details", {}, el("summary", { text: "Details for a bug report" }), el("pre", { text: message.detail }))
    : null;
  const control = message.control ? document.querySelector(message.control) : null;
  els.message.replaceChildren(message.text, ...(detail ? [detail] : []), ...(control ? [goTo(control)] : []));
  if (control) mark(control);
});

function nameOf(control) {
  const label = control.labels?.[0]?.textContent || control.getAttribute("aria-label")
    || (control.tagName === "BUTTON" ? control.textContent : "") || control.id;  // a button names itself
  return label.trim();
}

function goTo(control) {
  const button = el("button", { type: "button", class: "link go-to", text: `Go to ${nameOf(control)}` });
  button.addEventListener("click", () => {
    control.closest("details")?.setAttribute("open", "");
    control.focus();
    control.scrollIntoView({ block: "center" });
  });
  return button;
}

function mark(control) {
  marked = { control, invalid: control.getAttribute("aria-invalid"), described: control.getAttribute("aria-describedby") };
  control.setAttribute("aria-invalid", "true");
  control.setAttribute("aria-describedby", [marked.described, "message"].filter(Boolean).join(" "));
  control.classList.add("points-here");
}

function unmark() {
  if (!marked) return;
  const { control, invalid, described } = marked;
  if (invalid === null) control.removeAttribute("aria-invalid");
  else control.setAttribute("aria-invalid", invalid);
  if (described === null) control.removeAttribute("aria-describedby");
  else control.setAttribute("aria-describedby", described);
  control.classList.remove("points-here");
  marked = null;
}
