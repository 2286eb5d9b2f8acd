"""Accessibility checks the browser tests share: axe-core run on the page as it is now.

axe-core is a test-only npm package (package.json; `python3 build.py test` runs `npm ci`). The page's
Content-Security-Policy forbids inline scripts, so axe is not added as a <script> tag: its source is
evaluated through the browser's debugging protocol, which the policy does not govern, and nothing is
fetched, so the off-origin request guard never sees it.
"""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
AXE_PATH = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# The rules of WCAG 2.1 A and AA, and axe's best practices (headings, landmarks, regions).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

# Each state is checked on a wide screen and on a phone: what overflows (and so must be reachable by
# keyboard), wraps or hides differs between the two.
SIZES = ({"width": 1440, "height": 900}, {"width": 390, "height": 844})


def axe_source():
    if not AXE_PATH.exists():
        pytest.fail(f"{AXE_PATH.relative_to(ROOT)} is missing: run `npm ci` (python3 build.py test does)")
    return AXE_PATH.read_text(encoding="utf-8")


def axe_violations(page):
    """axe-core's violations on the page now, each as 'rule: what is wrong (where)'."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;undefined")
    result = page.evaluate("""(tags) => axe.run(document, {runOnly: {type: "tag", values: tags},
                                                          resultTypes: ["violations"]})""", AXE_TAGS)
    return [f"{v['id']}: {v['help']} ({', '.join(str(n['target']) for n in v['nodes'][:4])})"
            for v in result["violations"]]


def settle(page):
    """Wait two frames: views redraw on a resize in the next animation frame."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def assert_accessible(page, state):
    """Fail, naming the page's state and the screen size, when axe-core finds any violation at either size.
    The same page is resized rather than reloaded, and given back its own size afterwards."""
    own, found = page.viewport_size, []
    for size in SIZES:
        page.set_viewport_size(size)
        settle(page)
        found += [f"{size['width']}x{size['height']} {v}" for v in axe_violations(page)]
    page.set_viewport_size(own)
    settle(page)
    assert found == [], f"axe-core, {state}:\n  " + "\n  ".join(found)
