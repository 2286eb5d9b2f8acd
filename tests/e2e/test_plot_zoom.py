"""Pan and zoom on the plots with a mouse, a trackpad and the keyboard (touch is in test_touch.py): ctrl +
wheel zooms about the pointer, a drag pans a zoomed plot, + and − zoom the focused plot, the arrows pan
it, 0 and "Reset view" show all of it again. Each plot says the data range in view on its canvas
(data-view: x from, x to, y from, y to) and in its text twin; the zoomed states pass axe."""

import pytest
from playwright.sync_api import expect

from a11ykit import assert_accessible
from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e


def shown(page, canvas):
    """The data range a plot shows: [x from, x to, y from, y to]."""
    return [float(v) for v in page.get_attribute(canvas, "data-view").split(",")]


def after(page, canvas, move):
    """Does `move` and returns the plot's range once it changed (plots redraw on the next animation frame)."""
    before = page.get_attribute(canvas, "data-view")
    move()
    page.wait_for_function("([sel, before]) => document.querySelector(sel).dataset.view !== before",
                           arg=[canvas, before])
    return shown(page, canvas)


def span(view, axis):
    return view[1] - view[0] if axis == "x" else view[3] - view[2]


def plot_point(page, canvas, fx, fy):
    """The viewport point at fractions (fx across from the left, fy down from the top) of the plot box."""
    page.locator(canvas).scroll_into_view_if_needed()
    box = page.locator(canvas).bounding_box()
    left, top, width, height = map(int, page.get_attribute(canvas, "data-plot").split(","))
    return box["x"] + left + fx * width, box["y"] + top + fy * height, width


def train_iris(page, site_url, model, target=None):
    page.goto(site_url)
    wait_until_ready(page)
    page.locator("#dataset").select_option("iris")
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    page.locator("#model").select_option(model)
    if target:
        page.locator("#target").select_option(target)
    page.locator("#train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)


def show(page, tab, canvas):
    page.get_by_role("tab", name=tab).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.wait_for_function("(sel) => document.querySelector(sel).dataset.view", arg=canvas)


def test_keys_wheel_and_drag_zoom_and_pan_the_boundary(page, site_url):
    train_iris(page, site_url, "KNeighborsClassifier")
    canvas = "#boundary-canvas"
    show(page, "Decision boundary", canvas)
    whole = shown(page, canvas)
    expect(page.locator("#boundary-text")).to_contain_text("(all of it)")

    # + on the focused plot: 1.5 times closer about its centre; the twin says so.
    page.locator(canvas).focus()
    zoomed = after(page, canvas, lambda: page.keyboard.press("+"))
    for axis in ("x", "y"):
        assert span(zoomed, axis) == pytest.approx(span(whole, axis) / 1.5, rel=1e-3)
    assert sum(zoomed[:2]) / 2 == pytest.approx(sum(whole[:2]) / 2, abs=1e-3 * span(whole, "x"))
    expect(page.locator("#boundary-text")).to_contain_text("zoomed in 1.5 times")
    assert_accessible(page, "the decision boundary zoomed in")
    # The arrows move a tenth of what is in view: right shows more to the right, up more above.
    right = after(page, canvas, lambda: page.keyboard.press("ArrowRight"))
    assert right[0] - zoomed[0] == pytest.approx(0.1 * span(zoomed, "x"), rel=1e-3)
    up = after(page, canvas, lambda: page.keyboard.press("ArrowUp"))
    assert up[2] - right[2] == pytest.approx(0.1 * span(zoomed, "y"), rel=1e-3)
    # The view stops at the edge of the data: held right, it ends where all of it ends, its size kept.
    edge = after(page, canvas, lambda: [page.keyboard.press("ArrowRight") for _ in range(8)])
    page.wait_for_timeout(100)  # the last presses change nothing: two animation frames to be sure
    edge = shown(page, canvas)
    # (data-view holds 6 significant digits, so two equal ends may read a unit of the 6th digit apart)
    assert edge[1] == pytest.approx(whole[1], abs=1e-5 * max(abs(whole[1]), span(whole, "x")))
    assert span(edge, "x") == pytest.approx(span(zoomed, "x"), rel=1e-5)
    # A mouse drag 60 px to the right pulls the drawing along: the view moves left in the data.
    x, y, width = plot_point(page, canvas, 0.5, 0.5)
    page.mouse.move(x, y)

    def drag():
        page.mouse.down()
        page.mouse.move(x + 60, y, steps=6)
        page.mouse.up()
    dragged = after(page, canvas, drag)
    assert edge[0] - dragged[0] == pytest.approx(60 / width * span(zoomed, "x"), rel=0.05)
    # 0 shows all of it again.
    assert after(page, canvas, lambda: page.keyboard.press("0")) == pytest.approx(whole)

    # ctrl + wheel (a trackpad's pinch) 200 px up: twice as close, the data under the pointer kept there.
    x, y, width = plot_point(page, canvas, 0.25, 0.5)
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    wheeled = after(page, canvas, lambda: page.mouse.wheel(0, -200))
    page.keyboard.up("Control")
    assert span(wheeled, "x") == pytest.approx(span(whole, "x") / 2, rel=0.02)
    under = whole[0] + 0.25 * span(whole, "x")
    assert wheeled[0] + 0.25 * span(wheeled, "x") == pytest.approx(under, abs=0.01 * span(whole, "x"))

    # Reset view shows all of it again; zooming out no further than all of it leaves it as it is.
    assert after(page, canvas, page.locator("#boundary-reset-view").click) == pytest.approx(whole)
    page.locator(canvas).focus()
    page.keyboard.press("-")
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(100)  # two animation frames: nothing is to change
    assert shown(page, canvas) == pytest.approx(whole)
    assert page.get_attribute(canvas, "data-zoom") == "1.000"


def test_the_projection_and_each_regression_plot_zoom_on_their_own(page, site_url):
    train_iris(page, site_url, "PCA")
    show(page, "PCA", "#pca-canvas")
    whole = shown(page, "#pca-canvas")
    page.locator("#pca-canvas").focus()
    zoomed = after(page, "#pca-canvas", lambda: page.keyboard.press("+"))
    assert span(zoomed, "x") == pytest.approx(span(whole, "x") / 1.5, rel=1e-3)
    expect(page.locator("#pca-text")).to_contain_text("PC1 from")
    expect(page.locator("#pca-text")).to_contain_text("zoomed in 1.5 times")

    page.locator("#model").select_option("LinearRegression")
    page.locator("#target").select_option("petal width (cm)")
    page.locator("#train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    show(page, "Regression", "#fitted-canvas")
    plots = ["#regression-canvas", "#residual-canvas", "#fitted-canvas"]
    wholes = {plot: shown(page, plot) for plot in plots}
    page.locator("#residual-canvas").focus()
    zoomed = after(page, "#residual-canvas", lambda: page.keyboard.press("+"))
    assert span(zoomed, "y") == pytest.approx(span(wholes["#residual-canvas"], "y") / 1.5, rel=1e-3)
    assert shown(page, "#regression-canvas") == wholes["#regression-canvas"], "another plot zoomed too"
    # Every plot of the view says its range in the twin, in the order they are drawn.
    text = page.locator("#regression-text").text_content()
    lines = [text.index(name) for name in ("Predicted against actual values, in view",
                                           "Residuals against predicted values, in view",
                                           "Predictions along one feature, through the rows, in view")]
    assert lines == sorted(lines)
    assert_accessible(page, "a regression plot zoomed in")
    reset = page.locator("#regression-reset-view").click
    assert after(page, "#residual-canvas", reset) == pytest.approx(wholes["#residual-canvas"])
