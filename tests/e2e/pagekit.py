"""Small helpers the browser tests share: waiting on visible state and reading what a canvas shows."""

from playwright.sync_api import expect


def wait_until_ready(page, timeout=90_000):
    """Wait until the status region says Python, numpy and pellucid are loaded."""
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=timeout)


def painted_pixels(page, selector):
    """How many pixels of a canvas are not transparent (0 for a canvas nothing was drawn on)."""
    return page.evaluate(
        """(selector) => {
            const canvas = document.querySelector(selector);
            const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
            let painted = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
            return painted;
        }""", selector)
