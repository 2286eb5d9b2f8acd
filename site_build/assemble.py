"""dist/ put together from web/ and the parts the other modules make, and served."""

import functools
import hashlib
import http.server
import json
import shutil

from .common import DIST, ROOT, BuildError
from .compiled import SNAPSHOT_NAME, compile_wasm, pyodide_bytecode, pyodide_snapshot
from .page import add_module_preloads, inline_boot_script, write_service_worker, write_settings
from .vendor import (ON_DEMAND_PACKAGES, PYODIDE_VERSION, START_PACKAGES, pyodide_tarball, read_runtime,
                     vendor_npm_packages, vendor_pypi_wheels, verified_packages, wheel_closure)
from .wheel import build_wheel, package_files, project_version, wheel_as_bundle


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
    workbook_wheels = vendor_pypi_wheels(out)  # precached by the service worker like every other file
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
            "package_files": [lock["packages"][name]["file_name"] for name in wheel_closure(lock, START_PACKAGES)],
            # the wheels loaded when an Excel workbook is opened (openpyxl), in load order
            "workbook_wheels": workbook_wheels}
    (out / "build-info.json").write_text(json.dumps(info, indent=2))
    write_settings(out)
    write_service_worker(out, on_demand_files={wheel_name} | {lock["packages"][name]["file_name"]
                                                              for name in wheel_closure(lock, ON_DEMAND_PACKAGES)
                                                              if name not in wheel_closure(lock, START_PACKAGES)})
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"Built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} "
          f"({size / 1e6:.1f} MB, pellucid {version}, Pyodide {PYODIDE_VERSION}).")
    return out


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
