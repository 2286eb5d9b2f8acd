"""The site's wheel ships pellucid compiled for Pyodide's Python, so the page does not compile it on every
visit: each module's .pyc is in the format Pyodide reads, made from the very source shipped beside it,
and importing pellucid in Pyodide loads those files instead of compiling."""

import shutil
import sys
import textwrap
import zipfile

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
import build  # noqa: E402

# Run in Pyodide: every shipped module has a .pyc whose magic is this Python's and whose source hash is
# its source's (an unchecked-hash .pyc is used as it is, so a stale one would run old code); then the
# imported modules were all loaded from their .pyc (bytecode writing is off, so none could be made now).
SCRIPT = textwrap.dedent("""
    import importlib.util, pathlib, sys, sysconfig
    sys.dont_write_bytecode = True
    root = pathlib.Path(sysconfig.get_paths()["purelib"]) / "pellucid"
    sources = sorted(root.rglob("*.py"))
    for source in sources:
        cached = pathlib.Path(importlib.util.cache_from_source(str(source)))
        data = cached.read_bytes()
        assert data[:4] == importlib.util.MAGIC_NUMBER, source
        assert int.from_bytes(data[4:8], "little") == 0b01, source  # hash-based, source not checked
        assert data[8:16] == importlib.util.source_hash(source.read_bytes()), source
    import pellucid.bridge
    loaded = [m for name, m in sys.modules.items() if name.split(".")[0] == "pellucid"]
    assert all(pathlib.Path(m.__cached__).exists() for m in loaded if getattr(m, "__file__", None))
    print("ok", len(sources), "sources", len(loaded), "modules loaded")
""")


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_wheel_ships_bytecode_pyodide_loads(site, run_in_pyodide):
    info = __import__("json").loads((site / "build-info.json").read_text())
    names = zipfile.ZipFile(site / info["wheel"]).namelist()
    sources = [n for n in names if n.endswith(".py")]
    assert sources and all(n.endswith(".cpython-312.pyc") for n in names if n.endswith(".pyc"))
    printed = run_in_pyodide(SCRIPT)
    assert f"ok {len(sources)} sources" in printed, printed


def test_wheel_without_bytecode_holds_sources_only():
    names = zipfile.ZipFile(__import__("io").BytesIO(build.build_wheel("0.0.0"))).namelist()
    assert any(n.endswith(".py") for n in names) and not any(n.endswith(".pyc") for n in names)
