"""The build ships openpyxl and et_xmlfile, which Pyodide's lock lacks, as wheels from PyPI pinned by sha256:
a wheel whose bytes differ from the pin stops the build, the shipped ones go into dist/vendor/wheels/ in load
order (a dependency before what needs it), and the service worker precaches them, so a workbook opens
offline."""

import hashlib
import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from site_build.common import BuildError  # noqa: E402
from site_build.page import write_service_worker  # noqa: E402
from site_build.vendor import PYPI_WHEELS, WHEELS_DIR, pypi_wheel, vendor_pypi_wheels  # noqa: E402


def pinned(tmp_path, name, data):
    """A wheel spec for `data`, cached in tmp_path under its file name (so nothing is downloaded)."""
    spec = {"name": name, "version": "1.0", "file": f"{name}-1.0-py3-none-any.whl",
            "sha256": hashlib.sha256(data).hexdigest()}
    (tmp_path / spec["file"]).write_bytes(data)
    return spec


def test_a_wheel_matching_its_pin_is_shipped_and_one_that_differs_stops_the_build(tmp_path):
    spec = pinned(tmp_path, "tiny", b"PK wheel bytes")
    assert pypi_wheel(spec, cache=tmp_path) == b"PK wheel bytes"
    (tmp_path / spec["file"]).write_bytes(b"PK wheel bytes, changed")
    with pytest.raises(BuildError, match="sha256 .* pins " + spec["sha256"]):
        pypi_wheel(spec, cache=tmp_path)
    out = tmp_path / "dist"
    with pytest.raises(BuildError):
        vendor_pypi_wheels(out, [spec], cache=tmp_path)


def test_the_wheels_land_in_load_order_and_are_precached(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    specs = [pinned(cache, "dependency", b"first"), pinned(cache, "reader", b"second")]
    out = tmp_path / "dist"
    (out / "js").mkdir(parents=True)
    (out / "sw.js").write_text('const BUILD = "__BUILD_VERSION__";\nconst PRECACHE = __PRECACHE_FILES__;\n')
    (out / "build-info.json").write_text("{}")  # the build writes it before the service worker
    paths = vendor_pypi_wheels(out, specs, cache=cache)
    assert paths == [f"{WHEELS_DIR}/dependency-1.0-py3-none-any.whl", f"{WHEELS_DIR}/reader-1.0-py3-none-any.whl"]
    assert [(out / p).read_bytes() for p in paths] == [b"first", b"second"]
    write_service_worker(out, on_demand_files=set())
    precache = json.loads((out / "sw.js").read_text().split("const PRECACHE = ")[1].rstrip(";\n"))
    assert set(paths) <= set(precache)


def test_the_pins_are_openpyxl_and_its_dependency_first():
    assert [spec["name"] for spec in PYPI_WHEELS] == ["et-xmlfile", "openpyxl"]
    for spec in PYPI_WHEELS:
        assert len(spec["sha256"]) == 64
        assert spec["file"].startswith(f"{spec['name'].replace('-', '_')}-{spec['version']}-")
        cached = ROOT / ".cache" / spec["file"]
        if cached.exists():  # the build's own download: it holds to the pin
            assert hashlib.sha256(cached.read_bytes()).hexdigest() == spec["sha256"]


def test_the_pins_match_the_test_lock(tmp_path):
    lock = (ROOT / "requirements" / "test.txt").read_text()
    for spec in PYPI_WHEELS:
        assert f"{spec['name']}=={spec['version']}" in lock
        assert f"--hash=sha256:{spec['sha256']}" in lock
