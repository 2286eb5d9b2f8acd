"""Small helpers the browser tests share: waiting on visible state and reading what a canvas shows."""

from playwright.sync_api import expect


class StartupTimeout(Exception):
    """The page was still starting (Python, numpy, pellucid loading) when the wait ran out. On a loaded
    machine Pyodide can start slowly, so this, and only this, failure is tried once more
    (build.py test: --only-rerun StartupTimeout); the rerun shows in the summary."""


def wait_until_ready(page, timeout=90_000):
    """Wait until the status region says Python, numpy and pellucid are loaded."""
    status = page.get_by_role("status")
    try:
        expect(status).to_have_text("Ready", timeout=timeout)
    except AssertionError:
        if status.get_attribute("data-state") != "loading":
            raise  # it started and then failed, or showed an error: not slowness, never retried
        raise StartupTimeout(f"the page was still starting after {timeout / 1000:.0f} s: "
                             f"{status.text_content()!r}") from None


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
