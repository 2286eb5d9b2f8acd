"""Keyboard only: the whole flow (load a dataset, choose the target and a model, train, switch views,
step through how it learned, export the predictions) with Tab, Shift+Tab, Enter, Space and the arrow
keys; the mouse is never used. Every control that takes the focus on the way shows it (an outline or a
ring), and Tab meets the controls in the order a person works through the page."""

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e

# What has the focus, and whether it can be seen: an outline or a box shadow that is not "none".
FOCUSED = """() => {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    const style = getComputedStyle(a);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow && style.boxShadow !== "none";
    return {id: a.id, tag: a.tagName, text: (a.getAttribute("aria-label") || a.textContent || "").trim().slice(0, 40),
            visible: outline || ring};
}"""


def tab_until(page, matches, *, key="Tab", limit=80):
    """Press `key` until the focused element satisfies `matches`; every element passed on the way must
    show its focus. Returns the elements visited, in order."""
    visited = []
    for _ in range(limit):
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        assert focused is not None, f"{key} left the page's controls after {[v['id'] or v['text'] for v in visited]}"
        assert focused["visible"], f"the focus on {focused} cannot be seen"
        visited.append(focused)
        if matches(focused):
            return visited
    raise AssertionError(f"{key} never reached the control; it went through {[v['id'] or v['text'] for v in visited]}")


def by_id(name):
    return lambda focused: focused["id"] == name


def arrow_select(page, select_id, value, limit=40):
    """Choose an option of the focused <select> with the arrow keys, as a keyboard user does."""
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(limit):
            if page.eval_on_selector(f"#{select_id}", "s => s.value") == value:
                return
            before = page.eval_on_selector(f"#{select_id}", "s => s.selectedIndex")
            page.keyboard.press(key)
            if page.eval_on_selector(f"#{select_id}", "s => s.selectedIndex") == before:
                break  # the end of the list: go the other way
    assert page.eval_on_selector(f"#{select_id}", "s => s.value") == value, f"{value} is not in #{select_id}"


def selected_tab(page):
    return page.eval_on_selector("#view-tabs [aria-selected=true]", "t => t.dataset.view")


def test_the_whole_flow_by_keyboard(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    page.locator("body").focus()

    # 1 Data: the dataset comes first on the page, then the target.
    order = tab_until(page, by_id("dataset"))
    assert len(order) <= 3, f"the dataset is not among the first controls: {order}"
    arrow_select(page, "dataset", "iris")
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    order = tab_until(page, by_id("target"))
    arrow_select(page, "target", "species")

    # 2 Model: next after the target, then its hyperparameters, then Train.
    order = tab_until(page, by_id("model"))
    assert len(order) == 1, f"the model does not follow the target: {[v['id'] for v in order]}"
    arrow_select(page, "model", "DecisionTreeClassifier")
    order = tab_until(page, by_id("train"))
    ids = [v["id"] for v in order]
    assert any(i.startswith("param-") for i in ids), f"the hyperparameters are not between model and Train: {ids}"
    assert ids.index("split-train") < ids.index("train"), "the evaluation settings come before Train"
    page.keyboard.press("Enter")
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)

    # 3 The views: one stop in the tab list (the chosen tab), then the arrows move between views.
    tab_until(page, lambda f: f["id"].startswith("tab-"))
    first = selected_tab(page)
    assert page.evaluate("document.activeElement.getAttribute('aria-selected')") == "true"
    seen = [first]
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        seen.append(selected_tab(page))
        assert page.evaluate("document.activeElement.dataset.view") == seen[-1], "the focus follows the chosen tab"
        expect(page.locator(f"#view-{seen[-1]}")).to_be_visible()
    assert len(set(seen)) == 4, f"the arrows did not move through the views: {seen}"
    page.keyboard.press("Home")
    assert selected_tab(page) == "metrics"
    # The tree view: its drawing takes the focus, so it can be scrolled with the arrows too.
    while selected_tab(page) != "tree":
        page.keyboard.press("ArrowRight")
    expect(page.locator("#view-tree")).to_be_visible()
    tab_until(page, by_id("tree-scroll"))

    # 4 Export: Tab reaches the export bar after the view; Enter hands the predictions to the browser.
    tab_until(page, by_id("export-predictions"))
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename.endswith(".csv")
    lines = open(download.value.path(), encoding="utf-8").read().splitlines()
    assert len(lines) == 151, f"{len(lines)} lines exported, not a header and 150 rows"

    # 5 See it learn: Space presses "Show the steps"; the timeline takes the focus and the arrows step.
    tab_until(page, lambda f: f["text"] == "Show the steps")
    page.keyboard.press("Space")
    steps = page.locator(".learn-pane[data-pane=steps]")
    expect(steps).to_have_attribute("data-step", "0", timeout=30_000)
    assert page.evaluate(FOCUSED)["visible"], "the timeline's focus cannot be seen"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(steps).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowLeft")
    expect(steps).to_have_attribute("data-step", "1")
    # Forward is a button in the timeline: Tab to it, Enter presses it.
    tab_until(page, lambda f: f["text"] == "Step forward")
    page.keyboard.press("Enter")
    expect(steps).to_have_attribute("data-step", "2")

    # Shift+Tab walks back the same way: from the timeline to the views' export bar.
    back = tab_until(page, by_id("copy-link"), key="Shift+Tab")
    assert "export-predictions" not in [v["id"] for v in back], "Shift+Tab reached the export bar from its end"
