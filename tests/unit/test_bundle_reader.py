"""The page's worker reads pellucid's files from one gzip-compressed tar (build.py's wheel_as_bundle, read by
web/js/bundle.js) while Pyodide starts: every file of the wheel must come out as Python's tarfile and zipfile
read it, in its folder, and an archive the reader does not know is refused, so the worker falls back to
Pyodide's unpackArchive."""

import gzip
import io
import json
import pathlib
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's reader")


def read_with_page(path):
    run = subprocess.run(["node", str(ROOT / "tests" / "bundle_reader_run.mjs"), str(path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def tar_gz(members, tar_format=tarfile.USTAR_FORMAT):
    """A gzip-compressed tar of (name, bytes or None for a folder) made by Python's tarfile."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tar_format) as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
            else:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue())


def test_the_bundle_holds_the_wheels_files_as_zipfile_reads_them(tmp_path):
    wheel = build.build_wheel("0.0.0")
    path = tmp_path / "pellucid.tar.gz"
    path.write_bytes(build.wheel_as_bundle(wheel))
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        expected = {f"/site/{info.filename}": archive.read(info).hex()
                    for info in archive.infolist() if not info.is_dir()}
    assert len(expected) > 100
    assert read_with_page(path) == expected


def test_the_bundle_is_the_same_bytes_from_the_same_wheel():
    wheel = build.build_wheel("0.0.0")
    assert build.wheel_as_bundle(wheel) == build.wheel_as_bundle(wheel)


def test_folders_long_names_and_empty_files(tmp_path):
    long_name = "pkg/" + "deep/" * 25 + "module.cpython-312.pyc"  # over 100 characters: the prefix field
    assert len(long_name) > 100
    path = tmp_path / "mixed.tar.gz"
    path.write_bytes(tar_gz([("pkg", None), ("pkg/a.py", b"x = 1\n" * 500), (long_name, bytes(range(256)) * 3),
                             ("empty.txt", b"")]))
    assert read_with_page(path) == {"/site/pkg/a.py": (b"x = 1\n" * 500).hex(),
                                    f"/site/{long_name}": (bytes(range(256)) * 3).hex(),
                                    "/site/empty.txt": ""}


def test_a_damaged_header_is_refused(tmp_path):
    raw = bytearray(gzip.decompress(tar_gz([("a.txt", b"abc" * 100)])))
    raw[0] ^= 1  # the name changes, its checksum no longer matches
    path = tmp_path / "damaged.tar.gz"
    path.write_bytes(gzip.compress(bytes(raw)))
    assert "bad header" in read_with_page(path)["error"]


def test_a_file_that_is_no_archive_is_refused(tmp_path):
    path = tmp_path / "not.tar.gz"
    path.write_bytes(gzip.compress(b"this is not a tar archive at all" * 40))
    assert "not a tar archive" in read_with_page(path)["error"]
    path.write_bytes(b"not even gzip" * 10)
    assert "error" in read_with_page(path)
