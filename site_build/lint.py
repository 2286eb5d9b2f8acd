"""The linters `build.py test` runs before the tests and `build.py lint` runs alone: ruff on the Python
(its rules in pyproject.toml, [tool.ruff]) and eslint on the page's JavaScript (eslint.config.mjs). Each
prints its findings; any finding fails the command."""

import subprocess

from .common import ROOT
from .environments import ensure_test_environment, install_node_tools

ESLINT = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"


def lint(python=None):
    """0 when both linters find nothing, else 1. `python` is the test environment's (it holds ruff, pinned in
    requirements/test.txt); without it that environment is made first, and the npm tools installed."""
    if python is None:
        python = ensure_test_environment("newest")
        install_node_tools()
    print("build.py lint: ruff (Python) ...", flush=True)
    ruff = subprocess.call([str(python), "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                           cwd=ROOT)
    print("build.py lint: eslint (the page's JavaScript) ...", flush=True)
    eslint = subprocess.call(["node", str(ESLINT), "--no-warn-ignored", "--max-warnings", "0", "."], cwd=ROOT)
    print(f"build.py lint: ruff {_verdict(ruff)}, eslint {_verdict(eslint)}.", flush=True)
    return 1 if ruff or eslint else 0


def _verdict(code):
    return "clean" if code == 0 else f"found problems (exit code {code})"
