// A table pasted in: "Paste a table…" opens a box to paste into (then "Read the pasted table"), and a
// paste anywhere on the page outside a text field reads the clipboard's text at once. Spreadsheets
// (Excel, LibreOffice, Google Sheets) and browsers copying an HTML table put tab-separated text on the
// clipboard; Python reads it as it reads an uploaded CSV (bridge `load_pasted`).
import { byId } from "./dom.js";

const els = { open: byId("paste-open"), box: byId("paste-box"), text: byId("paste-text"), read: byId("paste-read"),
  close: byId("paste-close") };

// The most text put back into the box after a refused paste, so the user sees what was pasted; a larger
// paste is not copied into the page's text field (it would make typing there slow).
const SHOW_BACK = 200_000;

function setOpen(open) {
  els.box.hidden = !open;
  els.open.setAttribute("aria-expanded", String(open));
}

// A text field, where a paste is the user's typing and not a table for the page.
function typingIn(target) {
  return target instanceof Element && Boolean(target.closest("input, textarea, select, [contenteditable]"));
}

// The box opened, with `text` in it when it is not too long (after Python refused a paste).
export function showPasteBox(text = "") {
  setOpen(true);
  if (text && text.length <= SHOW_BACK && els.text.value !== text) els.text.value = text;
}

// Closed and emptied once its table is read: the table is the data now, shown below.
export function closePasteBox() {
  setOpen(false);
  els.text.value = "";
}

// `onText(text)` reads a pasted table (from the box or the page's paste event).
export function mountPasteBox(onText) {
  els.open.addEventListener("click", () => {
    setOpen(els.box.hidden);
    if (!els.box.hidden) els.text.focus();
  });
  els.close.addEventListener("click", () => {
    setOpen(false);
    els.open.focus();
  });
  els.read.addEventListener("click", () => onText(els.text.value));
  document.addEventListener("paste", (event) => {
    if (typingIn(event.target) || typingIn(document.activeElement)) return;
    const text = event.clipboardData?.getData("text/plain") ?? "";
    if (!text && event.clipboardData?.files?.length) return;  // a copied file, not a table: nothing to read
    event.preventDefault();
    onText(text);
  });
}
