"""The tree's opening zoom: on a phone (390x844) a tree wider than the screen opens with its text readable
(the smallest at least 11 CSS px, where half size made it 5.5) on the root, and Fit still shows it whole;
on a desktop it opens as before, fitted but never below half size."""

import pytest
from playwright.sync_api import expect

from pagekit import open_example, show, train

pytestmark = pytest.mark.e2e

READABLE_TEXT_PX = 11  # the smallest text of a box (its counts) is drawn at 11 px (render/tree-draw.js)


def _open_tree(browser, site_url, viewport, phone):
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone,
                                  device_scale_factor=2 if phone else 1)
    page = context.new_page()
    open_example(page, site_url, "breast_cancer", "569 rows")
    train(page, "DecisionTreeClassifier")
    show(page, "Tree")
    expect(page.locator("#tree-text")).to_contain_text("split on")
    return context, page


def _drawing(page):
    """The drawing's zoom as its sizes show it (CSS width over the drawn width), the view's own account
    (data-zoom, data-text-px), the scroll box's size and the drawn size in CSS pixels at 100%."""
    return page.evaluate("""() => {
        const scroll = document.querySelector("#tree-scroll"), canvas = document.querySelector("#tree-canvas");
        const drawn = { width: canvas.width / devicePixelRatio, height: canvas.height / devicePixelRatio };
        return { zoom: parseFloat(canvas.style.width) / drawn.width, said: parseFloat(scroll.dataset.zoom),
                 textPx: parseFloat(scroll.dataset.textPx), box: scroll.clientWidth, drawn,
                 innerHeight, shown: parseFloat(canvas.style.width) };
    }""")


def _title_at(page, x, y):
    """The hover text of what is drawn at viewport point (x, y)."""
    return page.evaluate("""([x, y]) => {
        const canvas = document.querySelector("#tree-canvas");
        canvas.dispatchEvent(new PointerEvent("pointermove", { clientX: x, clientY: y, bubbles: true }));
        return canvas.title;
    }""", [x, y])


def test_a_phone_opens_the_tree_readable_on_its_root(browser, site_url):
    context, page = _open_tree(browser, site_url, {"width": 390, "height": 844}, phone=True)
    try:
        d = _drawing(page)
        assert d["drawn"]["width"] > 2 * d["box"], "the tree must be wider than the phone for this to mean anything"
        assert d["zoom"] == pytest.approx(d["said"], abs=0.01)
        text_px = READABLE_TEXT_PX * d["zoom"]  # this tree is drawn unscaled (a few hundred px per level)
        assert text_px >= READABLE_TEXT_PX - 0.01, f"the smallest text opens at {text_px:.1f} CSS px"
        assert d["textPx"] == pytest.approx(text_px, abs=0.1)
        # The root is in view: the top middle of the drawing box shows it (its hover text is the root's).
        page.locator("#tree-scroll").scroll_into_view_if_needed()
        box = page.locator("#tree-scroll").bounding_box()
        root_feature = page.locator("#tree-text li").first.text_content().split("split on ")[1].split(",")[0]
        title = _title_at(page, box["x"] + box["width"] / 2, box["y"] + 50 * d["zoom"])
        assert title.split("\n")[0] == root_feature, f"at the top middle: {title!r}"
        # Fit shows the whole tree in the box's width.
        page.locator("#zoom-fit").tap()
        fitted = _drawing(page)
        assert fitted["shown"] <= fitted["box"], f"fitted {fitted['shown']:.0f} px wide in a {fitted['box']} px box"
    finally:
        context.close()


def test_a_desktop_opens_the_tree_fitted_as_before(browser, site_url):
    context, page = _open_tree(browser, site_url, {"width": 1280, "height": 800}, phone=False)
    try:
        d = _drawing(page)
        assert d["drawn"]["width"] > d["box"], "the tree must be wider than its box for this to mean anything"
        height = max(0.7 * d["innerHeight"], 320)
        fit = min(1, (d["box"] - 4) / d["drawn"]["width"], height / d["drawn"]["height"])
        assert d["said"] == pytest.approx(max(fit, 0.5), abs=0.002)
        assert d["zoom"] == pytest.approx(d["said"], abs=0.01)
    finally:
        context.close()
