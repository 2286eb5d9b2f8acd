// The notes' formulas as math: Temml (vendored under vendor/temml/) is loaded once, on first use, and
// every formula keeps its plain-text form beside it (for screen readers, copying, and if Temml fails).
const base = new URL("../../vendor/temml/", import.meta.url);
let loading = null;

export function loadTemml() {
  if (globalThis.temml) return Promise.resolve(globalThis.temml);
  if (loading) return loading;
  loading = new Promise((resolve) => {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL("Temml-Local.css", base).href;
    document.head.append(css);
    const script = document.createElement("script");
    script.src = new URL("temml.min.js", base).href;
    script.onload = () => resolve(globalThis.temml || null);
    script.onerror = () => resolve(null);
    document.head.append(script);
  });
  return loading;
}

// Fills `box` with one line per {tex, text}: the rendered formula, then its plain text.
export async function renderMath(box, items) {
  const temml = await loadTemml();
  box.replaceChildren();
  for (const { tex, text } of items || []) {
    const line = document.createElement("div");
    line.className = "learn-math-line";
    const shown = document.createElement("div");
    shown.className = "learn-math-tex";
    shown.tabIndex = 0;  // a wide formula scrolls sideways: the keyboard must be able to reach it too
    let rendered = false;
    if (temml) {
      try { temml.render(tex, shown, { displayMode: true }); rendered = true; } catch { shown.textContent = text; }
    } else shown.textContent = text;
    // The plain text twin: shown only when the formula could not be rendered (else the same formula would
    // be on screen twice); when it is rendered, the MathML is what assistive technology reads.
    const plain = document.createElement("div");
    plain.className = rendered ? "learn-math-text learn-math-alt" : "learn-math-text";
    plain.textContent = text;
    if (rendered) plain.setAttribute("aria-hidden", "true");
    line.append(shown, plain);
    box.append(line);
  }
}
