"""Touch: on a phone (390x844, touch, mobile) one finger drags the tree to pan and two fingers pinch it to
zoom. The touches are real ones, sent through the browser's input pipeline (Chrome DevTools
Input.dispatchTouchEvent), so the page sees the pointer events (pointerType "touch") a finger makes.

The plots (decision boundary, clusters, PCA, regression) do not pan or zoom: on a phone they are drawn
to the screen's width, whole, so a finger on them scrolls the page as anywhere else (their
touch-action is left to the browser), and the boundary's grid is computed by Python over the data's
extent, so zooming in would only enlarge its cells; the test checks that a finger on a plot is not
caught by the page."""

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e


def touch(cdp, kind, points):
    """One touch event; points are (x, y) in CSS pixels of the viewport, one per finger."""
    cdp.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def gesture(cdp, start, end, steps=8):
    """Fingers put down at `start` and moved together in `steps` to `end`, then lifted."""
    touch(cdp, "touchStart", start)
    for s in range(1, steps + 1):
        touch(cdp, "touchMove", [(x0 + (x1 - x0) * s / steps, y0 + (y1 - y0) * s / steps)
                                 for (x0, y0), (x1, y1) in zip(start, end)])
    touch(cdp, "touchEnd", [])


def transform(page):
    box = page.locator("#tree-scroll")
    return float(box.get_attribute("data-zoom")), box.get_attribute("data-pan")


@pytest.fixture
def phone(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  device_scale_factor=2)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, context.new_cdp_session(page)
    context.close()
    assert errors == [], f"page errors: {errors}"


def test_drag_pans_and_pinch_zooms_the_tree(phone, site_url):
    page, cdp = phone
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option("breast_cancer")
    expect(page.locator("#data-summary")).to_contain_text("569 rows")
    page.get_by_label("Model").select_option("DecisionTreeClassifier")
    page.get_by_role("button", name="Train").tap()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.locator("#tab-tree").tap()
    expect(page.locator("#tree-text")).to_contain_text("split on", timeout=30_000)
    page.locator("#zoom-reset").tap()  # 100%: wider than a phone, so there is room to pan
    page.locator("#tree-scroll").scroll_into_view_if_needed()
    box = page.locator("#tree-scroll").bounding_box()
    assert page.evaluate("document.querySelector('#tree-scroll').scrollWidth") > box["width"], "the tree fits: nothing to pan"
    cx, cy = box["x"] + box["width"] / 2, box["y"] + min(box["height"], 300) / 2
    zoom, pan = transform(page)
    assert zoom == pytest.approx(1)

    # One finger drags the drawing to the left: the view pans right, the zoom stays.
    gesture(cdp, [(cx + 100, cy)], [(cx - 100, cy)])
    zoom_after, pan_after = transform(page)
    assert zoom_after == pytest.approx(zoom)
    assert int(pan_after.split(",")[0]) >= int(pan.split(",")[0]) + 150, f"pan {pan} -> {pan_after}"

    # Two fingers spread apart: zoom in about their midpoint; pinched together: zoom out.
    # The zoom follows the fingers' distance: 80 -> 140 px is 1.75 times, 240 -> 60 px a quarter.
    gesture(cdp, [(cx - 40, cy), (cx + 40, cy)], [(cx - 70, cy), (cx + 70, cy)])
    spread, _ = transform(page)
    assert spread == pytest.approx(1.75 * zoom, rel=0.05), f"zoom {zoom} -> {spread}"
    gesture(cdp, [(cx - 120, cy), (cx + 120, cy)], [(cx - 30, cy), (cx + 30, cy)])
    pinched, _ = transform(page)
    assert pinched == pytest.approx(0.25 * spread, rel=0.05), f"zoom {spread} -> {pinched}"
    expect(page.locator("#zoom-reset")).to_have_text(f"{round(pinched * 100)}%")


def test_the_plots_leave_a_finger_to_scroll_the_page(phone, site_url):
    page, _ = phone
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option("iris")
    page.get_by_label("Model").select_option("KNeighborsClassifier")
    page.get_by_role("button", name="Train").tap()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.locator("#tab-boundary").tap()
    for plot in ("#boundary-canvas", "#tree-scroll"):
        action = page.eval_on_selector(plot, "c => getComputedStyle(c).touchAction")
        assert (action == "none") == (plot == "#tree-scroll"), f"{plot} has touch-action {action}"
