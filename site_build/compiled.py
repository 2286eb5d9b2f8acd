"""What the build makes by running Node.js: pellucid's bytecode compiled by Pyodide's own Python, a memory
snapshot of Pyodide just started, and the WebAssembly kernels compiled from web/wasm/*.wat. Each is cached in
.cache/; without Node.js the site ships without it (and a note says so) and works, only slower."""

import gzip
import hashlib
import json
import pathlib
import shutil
import subprocess
import tarfile
import tempfile
import zipfile

from .common import CACHE, ROOT
from .vendor import PYODIDE_VERSION, npm_tarball

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
