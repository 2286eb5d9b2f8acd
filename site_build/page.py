"""What the build writes into the page's own files: settings.json (shared with Python), boot.js inlined into
index.html, the first screen's module preloads, and sw.js's version and precache list."""

import base64
import hashlib
import importlib
import importlib.util
import json
import posixpath
import re
import sys

from .common import ROOT, BuildError

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
        raise BuildError("index.html no longer loads js/boot.js or states script-src as expected; "
                         "update inline_boot_script.")
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
    """Fill in sw.js: the build's id (a hash of every file) and the files to precache; the id is also written
    into build-info.json, whence the page's Python worker reports which build it runs (a page checks that
    a worker it starts again is of its own build).

    The on-demand wheels are left out of the precache (they are large and most visits never load
    them); the worker caches them the first time they are fetched. So is the pellucid wheel, which the
    page never loads (its worker reads the same files from the bundle). build-info.json is left out of
    the hash: it holds the id, and otherwise only describes the files hashed."""
    info_path = out / "build-info.json"
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != "sw.js" and p.name not in on_demand_files)
    digest = hashlib.sha256()
    for path in files:
        if path == info_path:
            continue
        digest.update(path.relative_to(out).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    build_id = digest.hexdigest()[:16]
    precache = ["./"] + [p.relative_to(out).as_posix() for p in files]
    template = (out / "sw.js").read_text()
    if "__BUILD_VERSION__" not in template:
        raise BuildError("sw.js is already filled in; write_service_worker needs web/sw.js as it is in the sources.")
    (out / "sw.js").write_text(template.replace("__BUILD_VERSION__", build_id)
                               .replace("__PRECACHE_FILES__", json.dumps(precache)))
    info = json.loads(info_path.read_text())
    info_path.write_text(json.dumps({**info, "build": build_id}, indent=2))
    return build_id
