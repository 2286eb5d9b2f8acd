"""`build.py test`: the linters, then the suite with the newest versions and the native tests again with the
lowest scikit-learn."""

import os
import subprocess

from .assemble import build
from .common import DIST, ROOT
from .environments import install_test_tools
from .lint import lint

# Only the browser tests' documented start-up wait (tests/e2e/pagekit.py, StartupTimeout) is retried: on
# a loaded machine Pyodide can take longer to start; the rerun shows in the summary ("R", "rerun").
RERUN_STARTUP_TIMEOUT = ["--reruns", "1", "--only-rerun", "StartupTimeout"]
PYTEST_NO_TESTS_COLLECTED = 5  # pytest.ExitCode, spelled out: pytest lives in the environments, not here
# The groups that run in Pyodide or a browser, with Pyodide's own packages rather than an environment's:
# the run with the lowest scikit-learn leaves them out.
E2E_DIR = ROOT / "tests" / "e2e"
PYODIDE_DIR = ROOT / "tests" / "pyodide"
NOT_NATIVE = (E2E_DIR, PYODIDE_DIR)
# Names the folder of the site just built, which the Pyodide and browser groups then use (tests/prebuilt.py).
BUILT_SITE = "PELLUCID_BUILT_SITE"
NATIVE_ONLY = ["--ignore=tests/e2e", "--ignore=tests/pyodide", "-m", "not e2e"]


def spread_over_cores():
    """pytest-xdist's arguments for the native groups: one worker a core (they are independent and CPU-bound);
    none on one core."""
    cores = os.cpu_count() or 1
    return ["-n", str(min(cores, 4))] if cores > 1 else []


def spread_pages_over_cores():
    """pytest-xdist's arguments for the Pyodide and browser groups: at most two workers (each runs a browser or
    Node.js, themselves several processes), a test file's tests kept on one worker, so a module's shared
    page or build is made once, the files in the order tests/conftest.py gives (those marked slow first);
    none on one core."""
    cores = os.cpu_count() or 1
    return ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"] if cores > 1 else []  # the slow files first


def test(pytest_args):
    """Install the test tools, run the linters, build dist/, then run the suite twice: everything with the
    newest versions (the browser tests must run, not skip), and the native tests with the lowest
    scikit-learn. A linter's finding or either run failing fails the command."""
    pythons = install_test_tools()
    linted = lint(pythons["newest"])
    build()
    newest = run_newest(pythons["newest"], pytest_args)
    lowest = run_native_tests(pythons["lowest"], pytest_args)
    print(f"build.py test: linters {'clean' if linted == 0 else 'FOUND PROBLEMS (printed above)'}; newest "
          f"versions {_outcome(newest)}; lowest scikit-learn (native tests) {_outcome(lowest)}.", flush=True)
    return newest or lowest or linted


def run_newest(python, pytest_args):
    """The whole suite with the newest versions: with no arguments, the native groups spread over the cores,
    then the Pyodide and browser groups on two workers; with arguments, what they choose, in one run. The
    Pyodide and browser tests use dist/, which `test` has just built."""
    env = {**os.environ, "PELLUCID_E2E": "required", BUILT_SITE: str(DIST)}  # dist/, built just before
    if pytest_args:
        return subprocess.call([str(python), "-m", "pytest", *RERUN_STARTUP_TIMEOUT, *pytest_args], cwd=ROOT, env=env)
    native = subprocess.call([str(python), "-m", "pytest", *spread_over_cores(), *NATIVE_ONLY], cwd=ROOT, env=env)
    in_pages = subprocess.call([str(python), "-m", "pytest", *spread_pages_over_cores(), *RERUN_STARTUP_TIMEOUT,
                                "tests/pyodide", "tests/e2e"], cwd=ROOT, env=env)
    return native or in_pages


def run_native_tests(python, pytest_args):
    """pytest's exit code for the chosen tests less the browser and Pyodide ones (tests/e2e, tests/pyodide),
    which use Pyodide's own packages, not this environment's; 0 when only those were chosen."""
    paths = [arg for arg in pytest_args if not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists()]
    elsewhere = [path for path in paths
                 if any((ROOT / path.split("::")[0]).resolve().is_relative_to(folder) for folder in NOT_NATIVE)]
    if paths and len(elsewhere) == len(paths):
        print("build.py test: only browser or Pyodide tests chosen, so no run with the lowest scikit-learn.",
              flush=True)
        return 0
    args = [arg for arg in pytest_args if arg not in elsewhere]
    code = subprocess.call([str(python), "-m", "pytest", *NATIVE_ONLY, *(args or spread_over_cores())], cwd=ROOT)
    return 0 if code == PYTEST_NO_TESTS_COLLECTED and pytest_args else code  # e.g. -k matched browser tests only


def _outcome(code):
    return "passed" if code == 0 else f"FAILED (pytest exit code {code})"
