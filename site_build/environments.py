"""Where the tests run: the two virtual environments made from the lock files, the npm test tools, and the
browsers (from Debian's packages with apt-get when run as root)."""

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys

from .common import ROOT, BuildError, run

# The tests run in virtual environments inside the project, never in the system Python: .venv/ holds
# the newest versions the tests support (requirements/test.txt), .venv-lowest/ the lowest scikit-learn
# with its numpy and scipy (requirements/test-lowest.txt). Both lock files pin every package to an
# exact version and its sha256, so every machine installs the same bytes.
REQUIREMENTS = ROOT / "requirements"
TEST_ENVIRONMENTS = {"newest": (ROOT / ".venv", REQUIREMENTS / "test.txt"),
                     "lowest": (ROOT / ".venv-lowest", REQUIREMENTS / "test-lowest.txt")}
LOCK_STAMP = "pellucid-lock.sha256"  # in each environment: which lock file (and Python) it was made from


def venv_python(venv):
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _lock_stamp(lock):
    return f"{hashlib.sha256(lock.read_bytes()).hexdigest()} python {sys.version.split()[0]}\n"


def make_venv(venv):
    """A fresh virtual environment at `venv`, made by this Python; on Debian its venv module is a
    separate package, which is installed when running as root and named otherwise."""
    if importlib.util.find_spec("ensurepip") is None:
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        if _is_root() and shutil.which("apt-get") and sys.executable.startswith("/usr/bin/"):
            _apt_get_install(f"{version}-venv")
        else:
            raise BuildError(f"{sys.executable} cannot create virtual environments (its venv module has no "
                             f"ensurepip). On Debian or Ubuntu: sudo apt-get install {version}-venv "
                             "(or python3-venv), then run the tests again.")
    run([sys.executable, "-m", "venv", "--clear", str(venv)])


def ensure_test_environment(environment):
    """The Python of a test environment holding exactly its lock file's packages. It is (re)made only
    when the lock file, or the Python that made it, changed since the last install."""
    venv, lock = TEST_ENVIRONMENTS[environment]
    python, stamp = venv_python(venv), venv / LOCK_STAMP
    wanted = _lock_stamp(lock)
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    print(f"Installing {lock.relative_to(ROOT)} into {venv.name}/ ...", flush=True)
    make_venv(venv)  # from scratch, so nothing from an older lock file stays behind
    run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--require-hashes",
         "-r", str(lock)])
    stamp.write_text(wanted)
    return python


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _is_root():
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _apt_get_install(*packages):
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-qq"], env=env)
    run(["apt-get", "install", "-y", "-qq", *packages], env=env)


# The smoke test's other browsers, from Debian's packages (tests/e2e/browserkit.py): Firefox ESR, and
# WebKitGTK's WebDriver with the virtual X display its MiniBrowser draws on. Command -> package.
OTHER_BROWSERS = {"firefox-esr": "firefox-esr", "WebKitWebDriver": "webkit2gtk-driver", "Xvfb": "xvfb"}
# puppeteer-core drives Firefox over WebDriver BiDi, stable from Firefox 129: an older ESR (128) starts but
# fails inside the driver, so the test command upgrades it, or the browser tests skip Firefox and say why.
FIREFOX_MIN_VERSION = 129


def firefox_version(command="firefox-esr"):
    """The installed Firefox's major version ("Mozilla Firefox 153.8.0esr" -> 153), or None."""
    path = shutil.which(command)
    if path is None:
        return None
    try:
        words = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    major = next((word.split(".")[0] for word in words if word[:1].isdigit()), "")
    return int(major) if major.isdigit() else None


def firefox_too_old(command="firefox-esr"):
    """Why the installed Firefox ESR cannot run the browser tests, or None when it can (or is absent)."""
    version = firefox_version(command)
    if version is None or version >= FIREFOX_MIN_VERSION:
        return None
    return (f"Firefox ESR {version} is older than {FIREFOX_MIN_VERSION}, the first version whose WebDriver BiDi "
            "puppeteer-core drives (as root, python3 build.py test upgrades it: apt-get install --only-upgrade "
            "firefox-esr)")


def install_node_tools():
    """package-lock.json's test-only npm packages (puppeteer-core, axe-core) into node_modules/, again
    only when the lock file changed; puppeteer-core downloads no browser."""
    lock, stamp = ROOT / "package-lock.json", ROOT / "node_modules" / ".pellucid-lock.sha256"
    wanted = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("The browser tests need Node.js and npm (Debian: sudo apt-get install nodejs npm).")
    run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT)
    stamp.write_text(wanted)


def install_test_tools():
    """Both test environments, the npm test tools, Firefox ESR and WebKitGTK where apt-get can install
    them, and a Chromium for the browser tests; the Pythons of the environments."""
    pythons = {name: ensure_test_environment(name) for name in TEST_ENVIRONMENTS}
    install_node_tools()
    missing = [package for command, package in OTHER_BROWSERS.items() if not shutil.which(command)]
    if not find_chromium():
        missing.append("chromium")
    if missing and _is_root() and shutil.which("apt-get"):
        _apt_get_install(*missing)
    if firefox_too_old() and _is_root() and shutil.which("apt-get"):
        print(f"{firefox_too_old()}; upgrading it ...", flush=True)
        run(["apt-get", "install", "-y", "-qq", "--only-upgrade", "firefox-esr"],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    if firefox_too_old():
        print(f"build.py test: {firefox_too_old()}; the browser tests skip Firefox.", flush=True)
    if find_chromium():
        return pythons
    try:
        run([str(pythons["newest"]), "-m", "playwright", "install", "chromium"])
    except subprocess.CalledProcessError:
        raise BuildError("The browser tests need Chromium. Install it (Debian: sudo apt-get install chromium) "
                         "and run the tests again.") from None
    return pythons
