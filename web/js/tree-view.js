// The tree drawing at any size: zoom in, out (down to the whole tree), to fit, back to 100%, ctrl+wheel
// or pinch zoom; drag to pan; hover a box or branch label for its full text; click a collapsed subtree
// ("+412 leaves"), or its button in the text twin, to open it.
// A wide tree opens fitted on a wide screen (its whole shape first, never below half size); on a phone
// it opens readable instead, on the root and the levels under it, to drag around (Fit shows it whole).
import { drawTree, treeAsList, SMALLEST_TEXT_PX } from "./render/tree-draw.js";

const STEPS = [0.05, 0.1, 0.15, 0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];
const DRAG_PX = 4;  // a press that moves less than this is a click
const OVERVIEW_MIN_ZOOM = 0.5;  // a wide screen opens a wide tree fitted, but not below this
const NARROW_BOX_PX = 600;  // a drawing box narrower than this is a phone's: the tree opens readable ...
const READABLE_TEXT_PX = 11;  // ... with its smallest text this size on screen, in CSS pixels

export function createTreeView({ scroll, canvas, text, buttons }) {
  const view = { zoom: 1, natural: null, layout: null, tree: null, classes: null, open: new Set() };

  function fitZoom() {
    if (!view.natural) return 1;
    const height = Math.max(0.7 * window.innerHeight, 320);
    return Math.min(1, (scroll.clientWidth - 4) / view.natural.width, height / view.natural.height);
  }

  // The smallest text of the drawing as it is on screen, in CSS pixels.
  function textPx() {
    return SMALLEST_TEXT_PX * (view.layout?.scale ?? 1) * view.zoom;
  }

  // How a new drawing opens: whole when it fits; else on a wide screen fitted (at least half size), and on
  // a narrow one at the zoom where its smallest text reads READABLE_TEXT_PX (100% unless the drawing had
  // to be scaled down), where half size would make it 5 px.
  function openingZoom() {
    if (view.natural.width <= scroll.clientWidth || scroll.clientWidth === 0) return 1;
    if (scroll.clientWidth >= NARROW_BOX_PX) return Math.max(fitZoom(), OVERVIEW_MIN_ZOOM);
    const readable = READABLE_TEXT_PX / (SMALLEST_TEXT_PX * view.layout.scale);
    return Math.min(STEPS[STEPS.length - 1], Math.max(fitZoom(), readable));
  }

  function apply() {
    if (!view.natural) return;
    canvas.style.width = `${Math.round(view.natural.width * view.zoom)}px`;
    canvas.style.height = `${Math.round(view.natural.height * view.zoom)}px`;
    buttons.reset.textContent = `${Math.round(view.zoom * 100)}%`;
    showTransform();
  }

  // The zoom and the scroll offset, on the scroll box, for anything that needs to know what is in view.
  function showTransform() {
    scroll.dataset.zoom = view.zoom.toFixed(3);
    scroll.dataset.textPx = textPx().toFixed(1);
    scroll.dataset.pan = `${Math.round(scroll.scrollLeft)},${Math.round(scroll.scrollTop)}`;
  }

  // Zooms about a point of the scroll box (its centre by default), so what is under it stays put.
  function setZoom(z, anchor = null) {
    const before = view.zoom;
    view.zoom = Math.min(STEPS[STEPS.length - 1], Math.max(Math.min(fitZoom(), STEPS[0]), z));
    const ax = anchor ? anchor.x : scroll.clientWidth / 2;
    const ay = anchor ? anchor.y : scroll.clientHeight / 2;
    const px = (scroll.scrollLeft + ax) / before;
    const py = (scroll.scrollTop + ay) / before;
    apply();
    scroll.scrollLeft = px * view.zoom - ax;
    scroll.scrollTop = py * view.zoom - ay;
  }

  function step(direction, anchor) {
    const fit = fitZoom();
    const stops = [...new Set([...STEPS, fit])].sort((a, b) => a - b);
    const next = direction > 0 ? stops.find((s) => s > view.zoom + 1e-9) : [...stops].reverse().find((s) => s < view.zoom - 1e-9);
    setZoom(next ?? view.zoom, anchor);
  }

  // The hit region under a pointer, in the drawing's own pixels.
  function regionAt(event) {
    if (!view.layout) return null;
    const rect = canvas.getBoundingClientRect();
    const x = (event.clientX - rect.left) * (view.layout.width / rect.width);
    const y = (event.clientY - rect.top) * (view.layout.height / rect.height);
    const hits = view.layout.regions.filter((r) => x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h);
    return hits[hits.length - 1] || null;  // boxes are listed after edge labels: a box wins
  }

  function openSubtree(key) {
    view.open.add(key);
    render({ keepView: true });
  }

  function render({ keepView = false } = {}) {
    const layout = drawTree(canvas, view.tree, view.classes, { open: view.open });
    view.layout = layout;
    view.natural = { width: parseFloat(canvas.style.width), height: parseFloat(canvas.style.height) };
    text.replaceChildren(treeAsList(view.tree, () => false, { layout, onOpen: openSubtree }));
    if (keepView) return apply();
    // Zoom out goes on until it all fits; a start wider than the box is scrolled to the root.
    view.zoom = openingZoom();
    apply();
    scroll.scrollLeft = Math.max(0, layout.rootX * layout.scale * view.zoom - scroll.clientWidth / 2);
    scroll.scrollTop = 0;
  }

  buttons.zoomIn.addEventListener("click", () => step(1));
  buttons.zoomOut.addEventListener("click", () => step(-1));
  buttons.fit.addEventListener("click", () => setZoom(fitZoom()));
  buttons.reset.addEventListener("click", () => setZoom(1));
  scroll.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;  // a trackpad pinch arrives as ctrl+wheel
    event.preventDefault();
    const rect = scroll.getBoundingClientRect();
    step(event.deltaY < 0 ? 1 : -1, { x: event.clientX - rect.left, y: event.clientY - rect.top });
  }, { passive: false });

  // Drag to pan with one pointer (mouse, pen or finger); a press that barely moves is a click (it opens
  // a collapsed subtree). Two fingers pinch to zoom about their midpoint.
  const pointers = new Map();
  let drag = null;
  let pinch = null;
  const where = (event) => {
    const rect = scroll.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const spread = () => {
    const [a, b] = [...pointers.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  };
  scroll.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    pointers.set(event.pointerId, where(event));
    if (pointers.size === 2) {
      if (drag?.moved) scroll.releasePointerCapture?.(drag.id);
      scroll.classList.remove("dragging");
      drag = null;  // a second finger turns the drag into a pinch
      pinch = { zoom: view.zoom, distance: spread().distance };
      return;
    }
    drag = { x: event.clientX, y: event.clientY, left: scroll.scrollLeft, top: scroll.scrollTop, moved: false, id: event.pointerId };
  });
  scroll.addEventListener("pointermove", (event) => {
    if (pointers.has(event.pointerId)) pointers.set(event.pointerId, where(event));
    if (pinch && pointers.size === 2) {
      const { distance, mid } = spread();
      setZoom(pinch.zoom * (distance / pinch.distance), mid);
      return;
    }
    if (!drag) {
      const region = regionAt(event);
      canvas.title = region ? region.text : "";
      canvas.style.cursor = region?.hidden ? "pointer" : "";
      return;
    }
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < DRAG_PX) return;
    if (!drag.moved) {
      drag.moved = true;
      scroll.setPointerCapture?.(drag.id);
      scroll.classList.add("dragging");
    }
    scroll.scrollLeft = drag.left - dx;
    scroll.scrollTop = drag.top - dy;
    showTransform();
  });
  const endDrag = (event) => {
    pointers.delete(event.pointerId);
    if (pinch) {
      if (pointers.size === 0) pinch = null;  // lifting the last finger ends the pinch, never a click
      return;
    }
    if (!drag) return;
    const click = !drag.moved && event.type === "pointerup";
    if (drag.moved) scroll.releasePointerCapture?.(drag.id);
    scroll.classList.remove("dragging");
    drag = null;
    if (!click) return;
    const region = regionAt(event);
    if (region?.hidden) openSubtree(region.key);
  };
  scroll.addEventListener("pointerup", endDrag);
  scroll.addEventListener("pointercancel", endDrag);
  scroll.addEventListener("scroll", showTransform);

  // Draws a new tree: every subtree beyond the node budget starts collapsed.
  view.draw = (tree, classes) => {
    view.tree = tree;
    view.classes = classes;
    view.open = new Set();
    render();
  };
  return view;
}
