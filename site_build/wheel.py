"""pellucid itself: a reproducible wheel of py/pellucid (with its bytecode when given) and the same files as
one gzip-compressed tar, which the page's worker reads."""

import base64
import gzip
import hashlib
import io
import tarfile
import zipfile

from .common import PACKAGE_DIR, ROOT, BuildError

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


def _urlsafe_digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
