"""End to end: the tree view on trees with 50 and 500 leaves (a fully grown regression tree has one leaf
per distinct target): nothing goes blank, large trees draw with subtrees collapsed that a click or the
keyboard opens, labels are shortened with the full text on hover, numbers are rounded, zoom out reaches
the whole tree, and dragging pans."""

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, wait_until_ready

pytestmark = pytest.mark.e2e


def _csv(n_rows, seed=0):
    """A table like people bring: an id, a city with many values, numbers on different scales, and a
    price target with many digits (every value distinct)."""
    rng = np.random.default_rng(seed)
    lines = ["id,city,rooms,area_m2,price"]
    for i in range(n_rows):
        lines.append(f"A{i:05d},city_{rng.integers(0, 25):02d},{rng.integers(1, 8)},{rng.uniform(20, 400):.2f},"
                     f"{rng.uniform(50_000, 900_000) + i * 1e-3:.4f}")
    return "\n".join(lines) + "\n"


def _train_tree(page, site_url, tmp_path, n_rows):
    path = tmp_path / f"houses-{n_rows}.csv"
    path.write_text(_csv(n_rows))
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(path))
    expect(page.locator("#data-summary")).to_contain_text(f"{n_rows} rows")
    page.get_by_label("Target").select_option("price")
    page.get_by_label("Model", exact=True).select_option("DecisionTreeRegressor")
    page.locator('input[name="eval-method"][value="none"]').check()
    page.get_by_role("button", name="Train").click()
    page.locator("#tab-tree").click()
    expect(page.locator("#tree-text")).to_contain_text("split on", timeout=60_000)


def _find_collapsed(page):
    """Viewport point of a collapsed box, found by hovering (the tooltip names it), or None."""
    return page.evaluate(
        """() => {
            const canvas = document.querySelector("#tree-canvas");
            const scroll = document.querySelector("#tree-scroll");
            const box = scroll.getBoundingClientRect(), c = canvas.getBoundingClientRect();
            // only where a pointer can reach: inside the scroll box, the canvas and the window
            const left = Math.max(box.left, c.left, 0), right = Math.min(box.right, c.right, innerWidth);
            const top = Math.max(box.top, c.top, 0), bottom = Math.min(box.bottom, c.bottom, innerHeight);
            // the middle of the first collapsed box met (whole pixels, as a real pointer has them)
            let found = null;
            const hits = [];
            for (let y = Math.ceil(top) + 1; y < bottom; y += 2) for (let x = Math.ceil(left) + 1; x < right; x += 3) {
                canvas.dispatchEvent(new PointerEvent("pointermove", {clientX: x, clientY: y, bubbles: true}));
                if (!canvas.title.includes("click to open") || (found && canvas.title !== found)) continue;
                if (hits.length && Math.hypot(x - hits[0][0], y - hits[0][1]) > 30) continue;  // that box only
                found = canvas.title;
                hits.push([x, y]);
            }
            if (!found) return null;
            const mid = (i) => Math.round(hits.reduce((s, h) => s + h[i], 0) / hits.length);
            return {x: mid(0), y: mid(1), title: found};
        }""")


def _leaf_lines(page):
    return page.evaluate("""() => [...document.querySelectorAll("#tree-text li")]
        .filter((li) => !li.querySelector("ul, button")).map((li) => li.textContent)""")


def test_a_50_leaf_tree_is_drawn_whole_with_rounded_values(page, site_url, tmp_path):
    _train_tree(page, site_url, tmp_path, 50)
    assert painted_pixels(page, "#tree-canvas") > 20_000
    text = page.locator("#tree-text")
    leaves = _leaf_lines(page)
    assert len(leaves) == 50  # every leaf shown, none collapsed
    assert text.locator("button.tree-open").count() == 0
    for leaf in leaves:  # prices such as 123456.7891 print to 4 significant digits
        value = leaf.split("predict ")[1].split(" ")[0]
        assert len(value.replace(".", "").replace("-", "").lstrip("0").rstrip("0")) <= 4, value


def test_a_500_leaf_tree_collapses_opens_zooms_to_fit_and_pans(page, site_url, tmp_path, screenshots_dir):
    _train_tree(page, site_url, tmp_path, 500)
    assert painted_pixels(page, "#tree-canvas") > 20_000
    text = page.locator("#tree-text")
    openers = text.locator("button.tree-open")
    assert openers.count() > 0
    shown = text.locator("li").count()
    assert shown < 500  # not all 999 nodes: subtrees are folded

    # Zoom out until the whole tree fits its box.
    page.locator("#zoom-fit").click()
    width = page.evaluate("() => document.querySelector('#tree-canvas').getBoundingClientRect().width")
    assert width <= page.evaluate("() => document.querySelector('#tree-scroll').clientWidth") + 1
    page.screenshot(path=str(screenshots_dir / "tree-large.png"), full_page=False)

    # Hover names a collapsed box in full; a click on it opens it (at a third of full size, where
    # boxes are big enough to aim at).
    page.locator("#zoom-reset").click()
    for _ in range(4):
        page.locator("#zoom-out").click()
    expect(page.locator("#zoom-reset")).to_have_text("33%")
    page.locator("#tree-scroll").scroll_into_view_if_needed()
    spot = _find_collapsed(page)
    assert spot is not None and "leaves hidden" in spot["title"]
    before = openers.count()
    listed = text.locator("li").count()
    page.mouse.move(spot["x"], spot["y"])  # where the hover said "click to open"
    page.mouse.down()
    page.mouse.up()
    expect(text.locator("li")).not_to_have_count(listed)

    # The keyboard opens one from the text twin (the view keeps its node budget, so opening one box
    # may fold another: what must change is that this node now lists its branches).
    page.locator("#tree-text-box > summary").focus()
    page.keyboard.press("Enter")  # opens "The tree as text"
    opener = text.locator("button.tree-open").first
    node = opener.evaluate("(button) => button.closest('li').dataset.node")
    opener.focus()
    page.keyboard.press("Enter")
    expect(text.locator(f'li[data-node="{node}"] > ul')).to_have_count(1)
    assert painted_pixels(page, "#tree-canvas") > 20_000
    assert before > 0

    # Drag pans the view at 100%.
    page.locator("#zoom-reset").click()
    scroll = page.locator("#tree-scroll")
    box = scroll.bounding_box()
    start = page.evaluate("() => document.querySelector('#tree-scroll').scrollLeft")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 40)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 150, box["y"] + 60, steps=5)
    page.mouse.up()
    assert page.evaluate("() => document.querySelector('#tree-scroll').scrollLeft") != start


def test_a_tree_beyond_the_reply_budget_says_where_its_other_nodes_are(page, site_url, tmp_path):
    """3,000 distinct prices grow about 6,000 nodes; the reply carries the first 1,000 (breadth first), and
    the page says how many it left out, marks the cut nodes and never draws them as leaves."""
    _train_tree(page, site_url, tmp_path, 3000)
    note = page.locator("#tree-cut-note")
    expect(note).to_be_visible()
    omitted = int(note.inner_text().split(": ")[1].split(" of its nodes")[0].replace(",", ""))
    assert 3000 < omitted < 6000
    page.locator("#tree-text-box summary").click()  # the text twin, where every fold is a button
    openers = page.locator("#tree-text button.tree-open")
    for _ in range(60):  # unfold every folded subtree, level by level, down to the cut
        if not openers.count():
            break
        openers.first.click()
    cut = page.locator("#tree-text li", has_text="more nodes below, in the exported model")
    expect(cut.first).to_be_visible()
    assert painted_pixels(page, "#tree-canvas") > 20_000
