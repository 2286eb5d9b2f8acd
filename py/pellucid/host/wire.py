"""A reply's bulk numbers kept apart from its JSON text, so the page's worker hands them over as typed arrays.

A reply of 50,000 predictions as JSON is half a million characters written one number at a time in Python
and parsed back in JavaScript. `pack` walks a reply as `core.jsonable.plain` does, but lifts every large
array of numbers out into a list of contiguous numpy arrays and leaves a marker in its place:

  {"__bulk__": i}                              -> the page gets a typed array (Float64Array, Int32Array, ...)
  {"__labels__": [...], "__codes__": {"__bulk__": i}}
                                               -> the page gets an array of the labels, one per code

  {"__utf8__": i}                              -> the page gets a Uint8Array of the text's UTF-8 bytes

The worker (web/js/worker.js) copies each array out of Python's memory and transfers it to the page; the
markers are revived there, so a view reads `predicted[i]` as it did from a list. Small arrays, arrays with
a non-finite value (JSON's rule makes it null; a typed array would keep NaN) and text arrays with
anything but strings stay plain lists, exactly as `plain` writes them.

A long text (an exported CSV or model file, tens of MB) goes as its UTF-8 bytes: written into the reply's
JSON it would be escaped there, parsed back into a string in the worker, copied to the page and encoded to
UTF-8 again for the download, which only needs the bytes.
"""

import math

import numpy as np

from ..core.jsonable import plain

BULK_MIN = 256  # arrays with fewer values go as JSON: a marker and a buffer cost more than they save
TEXT_MIN = 65536  # characters from which a text goes as UTF-8 bytes
_INT32 = np.iinfo(np.int32)


def pack(value, bulk):
    """A JSON-able copy of `value` with its large arrays appended to the list `bulk` (markers in place)."""
    if isinstance(value, dict):
        return {str(k): pack(v, bulk) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if len(value) >= BULK_MIN and _plain_numbers(value):
            return value  # already JSON data: no walk of every number in Python
        return [pack(v, bulk) for v in value]
    if isinstance(value, str) and len(value) >= TEXT_MIN:
        bulk.append(np.frombuffer(value.encode("utf-8"), dtype=np.uint8))
        return {"__utf8__": len(bulk) - 1}
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.size >= BULK_MIN:
        marker = _numbers(value, bulk) if value.dtype.kind in "iuf" else _labels(value, bulk)
        if marker is not None:
            return marker
    return plain(value)


def _plain_numbers(values):
    """True for a list of Python ints and finite floats, or a list of such lists (as tolist() writes a
    table of probabilities): `plain` would give it back as it is, so it is not walked number by number.
    The types and the finiteness are checked in C (map, set); anything else is walked."""
    kinds = set(map(type, values))
    if kinds == {list}:
        return all(_flat_numbers(row, set(map(type, row))) for row in values)
    return _flat_numbers(values, kinds)


def _flat_numbers(values, kinds):
    if not kinds <= {int, float}:
        return False
    try:
        return float not in kinds or all(map(math.isfinite, values))
    except OverflowError:  # an int too large for a float beside floats: let the walk decide
        return False


def _numbers(values, bulk):
    """A marker for an array of numbers (ints as int32 when they fit), or None when it must stay a list."""
    if values.dtype.kind == "f":
        if not np.isfinite(values).all():
            return None
        values = values.astype(np.float64 if values.dtype.itemsize > 4 else np.float32, copy=False)
    elif values.min() >= _INT32.min and values.max() <= _INT32.max:
        values = values.astype(np.int32, copy=False)
    else:
        values = values.astype(np.float64)  # beyond int32: exact up to 2^53, as JSON would read it
    bulk.append(np.ascontiguousarray(values))
    return {"__bulk__": len(bulk) - 1}


def _labels(values, bulk):
    """A marker for an array of text labels (codes into the distinct labels), or None if any is not a str."""
    try:
        labels, codes = np.unique(values, return_inverse=True)
    except TypeError:  # mixed kinds (None beside text) cannot be ordered: leave the list as it is
        return None
    if not all(isinstance(label, str) for label in labels.tolist()):
        return None
    return {"__labels__": labels.tolist(), "__codes__": _numbers(codes.ravel(), bulk)}


def unpack(packed, bulk):
    """The reply `pack` was given, with lists for its arrays: what the page sees, for tests."""
    if isinstance(packed, dict):
        if set(packed) == {"__bulk__"}:
            return bulk[packed["__bulk__"]].tolist()
        if set(packed) == {"__utf8__"}:
            return bulk[packed["__utf8__"]].tobytes().decode("utf-8")
        if set(packed) == {"__labels__", "__codes__"}:
            labels = packed["__labels__"]
            return [labels[c] for c in unpack(packed["__codes__"], bulk)]
        return {k: unpack(v, bulk) for k, v in packed.items()}
    if isinstance(packed, list):
        return [unpack(v, bulk) for v in packed]
    return packed
