"""Phones and tablets: at 390x844 and 768x1024 (touch) the page is one column, the decision boundary
uses at least 90% of the screen's width, and the controls are at least 44 px high."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.mark.parametrize("width,height", [(390, 844), (768, 1024)])
def test_one_column_wide_drawing_and_fingertip_controls(browser, site_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True,
                                  device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(site_url)
        wait_until_ready(page)
        page.get_by_label("Dataset").select_option("iris")
        expect(page.locator("#data-summary")).to_contain_text("150 rows")
        page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
        page.get_by_role("button", name="Train").click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        page.get_by_role("tab", name="Decision boundary").click()
        page.wait_for_function("document.querySelector('#boundary-canvas').width > 0")
        page.wait_for_timeout(500)
        assert painted_pixels(page, "#boundary-canvas") > 20_000

        controls = page.locator(".controls").first.bounding_box()
        results = page.locator(".results").bounding_box()
        assert results["y"] >= controls["y"] + controls["height"], "the results sit below the controls"
        canvas = page.locator("#boundary-canvas").bounding_box()
        assert canvas["width"] >= 0.9 * width, f"boundary {canvas['width']:.0f} px wide of {width}"
        # The plot itself, not only its canvas: on a phone the legend goes below it, not beside it.
        left, top, plot_width, plot_height = map(int, page.get_attribute("#boundary-canvas", "data-plot").split(","))
        wanted = 0.9 * canvas["width"] if width < 560 else 480  # a tablet has room for the legend beside it
        assert plot_width >= wanted, f"the plot is {plot_width} px wide of {canvas['width']:.0f}"
        assert plot_height >= 0.6 * plot_width, f"the plot is {plot_width} x {plot_height} px: too flat"
        page.get_by_label("Model", exact=True).select_option("KMeans")
        page.get_by_role("button", name="Train").click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        page.get_by_role("tab", name="Clusters").click()
        page.wait_for_function("document.querySelector('#clusters-canvas')?.dataset.plot")
        clusters = page.locator("#clusters-canvas").bounding_box()
        assert clusters["width"] >= 0.9 * width, f"clusters {clusters['width']:.0f} px wide of {width}"
        plot_width = int(page.get_attribute("#clusters-canvas", "data-plot").split(",")[2])
        wanted = 0.85 * clusters["width"] if width < 480 else 300
        assert plot_width >= wanted, f"the clusters plot is {plot_width} px wide of {clusters['width']:.0f}"
        page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
        for name in ("Train", "Export predictions"):
            box = page.get_by_role("button", name=name).bounding_box()
            assert box["height"] >= 44, f"{name} is {box['height']:.0f} px high"
        for label in ("Dataset", "Target", "Model"):
            assert page.get_by_label(label, exact=True).bounding_box()["height"] >= 44, label
        if width == 390:
            page.evaluate("window.scrollTo(0, "
                          "document.querySelector('#view-tabs').getBoundingClientRect().top + scrollY - 8)")
            page.screenshot(path=str(SHOTS / "phone-390x844.png"))
    finally:
        context.close()


def test_desktop_screenshot(browser, site_url):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        page.goto(site_url)
        wait_until_ready(page)
        page.get_by_label("Dataset").select_option("iris")
        page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
        page.get_by_role("button", name="Train").click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        page.get_by_role("tab", name="Decision boundary").click()
        page.wait_for_timeout(1000)
        page.evaluate("window.scrollTo(0, 0)")  # the picture in the README shows the page from its top
        page.screenshot(path=str(SHOTS / "desktop-1440x900.png"))
    finally:
        context.close()
