"""What every part of the build shares: the project's folders, the build's error, and running a command."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
PACKAGE_DIR = ROOT / "py" / "pellucid"


class BuildError(Exception):
    """Something the build needs is missing or does not match what it must be."""


def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)
