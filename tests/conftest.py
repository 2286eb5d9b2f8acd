"""Shared test setup: make the in-repo package importable without installing it."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))


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
