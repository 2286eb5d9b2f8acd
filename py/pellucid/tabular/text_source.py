"""The text of a CSV from a path, bytes or a file object: within a size limit, decoded (UTF-16 with a
byte-order mark, else UTF-8, else Windows-1252/Latin-1), its byte-order mark dropped, binary refused.
"""

import os
import pathlib

from ..core.errors import DataError

_UTF8_BOM = b"\xef\xbb\xbf"
_SAMPLE_CHARS = 65536  # how much of the file is looked at to tell binary from text
# ASCII control bytes that do not occur in text (tab, newlines and form feed do).
_CONTROL_BYTES = bytes(set(range(32)) - {9, 10, 12, 13} | {127})
_BINARY_SHARE = 0.05


def read_source(source, max_bytes):
    """The raw content (bytes, or str from a text-mode file), refused early if over max_bytes."""
    if isinstance(source, (str, pathlib.PurePath)):
        if isinstance(source, str) and ("\n" in source or "\r" in source):
            raise DataError("read_csv takes a path, bytes or a file object, and this text is not a path; "
                            "to read CSV text, pass source.encode() or io.StringIO(source).")
        if max_bytes is not None:
            _check_size(os.path.getsize(source), max_bytes)
        with open(source, "rb") as handle:
            return handle.read()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, (str, bytes, bytearray)):
            raise DataError(f"The file object gave {type(data).__name__}, not text or bytes.")
    else:
        raise TypeError(f"read_csv needs a path, bytes or a file object; got {type(source).__name__}.")
    if max_bytes is not None:
        _check_size(len(data.encode("utf-8")) if isinstance(data, str) else len(data), max_bytes)
    return data


def _check_size(size, max_bytes):
    if size > max_bytes:
        found, limit = format_size(size), format_size(max_bytes)
        if found == limit:
            found, limit = f"{size:,} bytes", f"{max_bytes:,} bytes"
        raise DataError(f"The file is too large to load here: the file is {found}; the limit is {limit}.")


def format_size(n_bytes):
    """Bytes for people: 532 bytes, 4.1 kB, 12.3 MB, 2 GB."""
    if n_bytes < 1000:
        return f"{n_bytes} bytes"
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if n_bytes < scale * 999.95 or unit == "GB":
            return f"{n_bytes / scale:.1f}".rstrip("0").rstrip(".") + f" {unit}"


def decode(data):
    """Text from bytes: UTF-16 with a BOM, else UTF-8, else Windows-1252 (Latin-1); binary is refused.
    A byte-order mark is dropped whichever way the rest is decoded."""
    if isinstance(data, (bytes, bytearray)):
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            try:
                data = data.decode("utf-16")
            except UnicodeDecodeError:
                raise DataError("The file starts like UTF-16 text but is not valid UTF-16; "
                                "save it as UTF-8 CSV.") from None
        else:
            _refuse_binary(data, b"\x00", _CONTROL_BYTES, data[:4])
            # Dropped before decoding: a UTF-8 BOM before bytes that are not UTF-8 would else read
            # as the three characters "ï»¿" at the start of the first name.
            data = _decode_8bit(data[3:] if data.startswith(_UTF8_BOM) else data)
    else:
        _refuse_binary(data, "\x00", _CONTROL_BYTES.decode("latin-1"), b"")
    text = data[1:] if data.startswith("\ufeff") else data
    if not text.strip():
        raise DataError("The file is empty: there is no header line and no data.")
    return text


# What a binary file's first bytes say it may be, for the message refusing it as a CSV.
_BINARY_HINTS = {
    b"PK\x03\x04": " (it is a zip archive, perhaps an Excel workbook: open it under its .xlsx name, or save it "
                    "as CSV)",
    b"\xd0\xcf\x11\xe0": " (perhaps an old Excel .xls workbook: save it as .xlsx or CSV)",
}


def _refuse_binary(data, nul, controls, magic):
    sample = data[:_SAMPLE_CHARS]
    n_control = sum(sample.count(c) for c in controls) if isinstance(sample, str) else \
        len(sample) - len(sample.translate(None, controls))
    if nul in data or n_control > _BINARY_SHARE * len(sample):
        hint = _BINARY_HINTS.get(magic, "; a CSV is plain text with one row per line")
        raise DataError(f"Cannot read this file: this looks like a binary file, not a CSV{hint}.")


def _decode_8bit(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")  # Latin-1 plus the printable characters Windows puts in 0x80-0x9f
    except UnicodeDecodeError:
        return data.decode("latin-1")
