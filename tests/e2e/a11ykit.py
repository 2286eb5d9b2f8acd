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


def assert_accessible(page, state):
    """Fail, naming the page's state, when axe-core finds any violation."""
    violations = axe_violations(page)
    assert violations == [], f"axe-core, {state}:\n  " + "\n  ".join(violations)
