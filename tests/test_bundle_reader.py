"""The page's worker reads the pellucid wheel in JavaScript (web/js/wheel.js) while Pyodide starts, instead
of unpacking it with Pyodide's unpackArchive afterwards: every file must come out as Python's zipfile reads
it, in its folder, and a zip the reader does not know is refused, so the worker falls back to Pyodide."""

import json
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's reader")


def read_with_page(path):
    run = subprocess.run(["node", str(ROOT / "tests" / "wheel_reader_run.mjs"), str(path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_the_wheel_reads_as_zipfile_reads_it(tmp_path):
    wheel = tmp_path / "pellucid.whl"
    wheel.write_bytes(build.build_wheel("0.0.0"))
    written = read_with_page(wheel)
    with zipfile.ZipFile(wheel) as archive:
        expected = {f"/site/{info.filename}": archive.read(info).hex()
                    for info in archive.infolist() if not info.is_dir()}
    assert len(expected) > 100
    assert written == expected


def test_stored_and_deflated_files_in_folders(tmp_path):
    path = tmp_path / "mixed.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("pkg/", b"")
        archive.writestr("pkg/stored.txt", b"kept as it is", compress_type=zipfile.ZIP_STORED)
        archive.writestr("pkg/deep/deflated.py", b"x = 1\n" * 500, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("empty.txt", b"", compress_type=zipfile.ZIP_DEFLATED)
    assert read_with_page(path) == {"/site/pkg/stored.txt": b"kept as it is".hex(),
                                    "/site/pkg/deep/deflated.py": (b"x = 1\n" * 500).hex(),
                                    "/site/empty.txt": ""}


def test_an_unknown_compression_is_refused(tmp_path):
    path = tmp_path / "bzip2.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_BZIP2) as archive:
        archive.writestr("a.txt", b"abc" * 100)
    assert "compression method 12" in read_with_page(path)["error"]


def test_a_file_that_is_no_zip_is_refused(tmp_path):
    path = tmp_path / "not.zip"
    path.write_bytes(b"this is not a zip file at all" * 10)
    assert "not a zip file" in read_with_page(path)["error"]
