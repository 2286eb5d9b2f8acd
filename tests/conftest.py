"""Shared test setup: make the in-repo package importable without installing it, and the helpers every
group shares (bridgekit.py, realistic_tables.py, passengers_csv.py, beside this file) importable from the
groups' folders: tests/unit, tests/oracle, tests/pyodide and tests/e2e."""

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tests"))

try:  # Hypothesis draws the same examples on every run, so a run passes or fails the same way on any
    # machine; HYPOTHESIS_PROFILE=explore draws new ones (and keeps what it finds in .hypothesis/).
    from hypothesis import settings as _hypothesis

    _hypothesis.register_profile("reproducible", derandomize=True, database=None)
    _hypothesis.register_profile("explore")
    _hypothesis.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "reproducible"))
except ImportError:  # the property tests import it themselves and say so
    pass


def pytest_report_header(config):
    """The versions this run tests with (build.py test runs the suite with the newest and the lowest)."""
    import importlib.metadata
    versions = []
    for name in ("numpy", "scipy", "scikit-learn"):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} not installed")
    return ", ".join(versions)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The static site built once for the tests that run it in Pyodide under Node.js (the browser tests
    serve it under a sub-path)."""
    from prebuilt import site_folder

    return site_folder(tmp_path_factory, "pyodide-site")


@pytest.fixture
def run_in_pyodide(built_site, tmp_path):
    """A function that runs a Python script's text in the built site's Pyodide under Node.js
    (tests/pyodide_run.mjs) and returns what it printed; the test fails with the script's error output if
    it raised. Tests that use it skip themselves when Node.js is missing."""
    import subprocess

    def run(text):
        script = tmp_path / "script.py"
        script.write_text(text)
        done = subprocess.run(["node", str(ROOT / "tests" / "pyodide_run.mjs"), str(built_site), str(script)],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout
    return run


def pytest_collection_modifyitems(config, items):
    """The files with a test marked slow first, each file's tests in their order: build.py test runs the
    browser groups on two workers a file at a time, in this order, so the longest files start first rather
    than end the run on one worker while the other waits."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
