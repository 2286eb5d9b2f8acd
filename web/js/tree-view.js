// The tree drawing at any size: zoom in, out, to fit, back to 100%, and ctrl+wheel zoom; the scroll box
// moves around a tree bigger than the screen.
import { drawTree, treeAsList } from "./render/tree-draw.js";

const STEPS = [0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];

export function createTreeView({ scroll, canvas, text, buttons }) {
  const view = { zoom: 1, natural: null };

  function apply() {
    if (!view.natural) return;
    canvas.style.width = `${Math.round(view.natural.width * view.zoom)}px`;
    canvas.style.height = `${Math.round(view.natural.height * view.zoom)}px`;
    buttons.reset.textContent = `${Math.round(view.zoom * 100)}%`;
  }

  function setZoom(z) {
    view.zoom = Math.min(STEPS[STEPS.length - 1], Math.max(0.1, z));
    apply();
  }

  function step(direction) {
    const next = direction > 0 ? STEPS.find((s) => s > view.zoom + 1e-9) : [...STEPS].reverse().find((s) => s < view.zoom - 1e-9);
    setZoom(next ?? view.zoom);
  }

  function fit() {
    if (!view.natural) return;
    const z = Math.min(1, (scroll.clientWidth - 4) / view.natural.width, Math.max(0.6 * window.innerHeight, 320) / view.natural.height);
    setZoom(z);
  }

  buttons.zoomIn.addEventListener("click", () => step(1));
  buttons.zoomOut.addEventListener("click", () => step(-1));
  buttons.fit.addEventListener("click", fit);
  buttons.reset.addEventListener("click", () => setZoom(1));
  scroll.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    step(event.deltaY < 0 ? 1 : -1);
  }, { passive: false });

  // Draws the tree; a tree wider than its box starts fitted, so the whole shape is seen first.
  view.draw = (tree, classes) => {
    const layout = drawTree(canvas, tree, classes);
    view.natural = { width: parseFloat(canvas.style.width), height: parseFloat(canvas.style.height) };
    text.replaceChildren(treeAsList(tree));
    view.zoom = 1;
    if (view.natural.width > scroll.clientWidth && scroll.clientWidth > 0) {
      fit();
      if (view.zoom < 0.5) setZoom(0.5); // narrower than this is unreadable: scroll instead
    } else apply();
    scroll.scrollLeft = Math.max(0, layout.rootX * view.zoom - scroll.clientWidth / 2);
  };
  return view;
}
