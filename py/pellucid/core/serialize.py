"""Turn fitted state (numpy arrays, numpy scalars, nested containers) into JSON-able values and back.

A small array becomes readable numbers, `{"__ndarray__": [...], "dtype": "float64", "shape": [...]}`,
where non-finite floats, which JSON cannot hold, become the strings "nan", "inf" and "-inf" (the
fitted-state rule of `pellucid.core.jsonable`). A large numeric array (a k-NN model's training rows) is
packed instead: `{"__packed__": "<base64>", "dtype": "float64", "shape": [...]}`, its values as the
little-endian bytes of the dtype. Packed, a float64 takes 10.7 characters of JSON rather than up to 24
and is read back without a Python loop per value; every value, NaN and infinity included, reads back
bit for bit. Files written before packing (only "__ndarray__") read back as before.

An object of a class registered with `register_tagged` (a fitted FeatureEncoder: tabular.encoding registers
it under "__encoder__") becomes `{tag: its to_dict()}` and is read back by the class's `from_dict`. The
classes register themselves, so this module, low in the package, imports none of them.
"""

import base64

import numpy as np

from .jsonable import tag, untag

PACK_ABOVE = 1000  # numeric arrays with more values than this are packed; smaller ones stay readable
PACKABLE = "fiub"  # dtype kinds with a fixed byte layout: floats, signed and unsigned integers, booleans

_TAGGED = {}  # tag -> a class with to_dict() and from_dict(d), written as {tag: ...}


def register_tagged(tag, cls):
    """Write instances of `cls` as {tag: encode(obj.to_dict())} and read them back with cls.from_dict."""
    if _TAGGED.get(tag, cls) is not cls:
        raise ValueError(f"Another class is already written under {tag!r}.")
    _TAGGED[tag] = cls


def encode(value):
    """A JSON-able copy of `value`."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in PACKABLE and value.size > PACK_ABOVE:
            return pack(value)
        if value.dtype.kind == "f":
            flat = [tag(float(v)) for v in value.ravel()]
        elif value.dtype.kind in "iub":
            flat = value.ravel().tolist()
        else:
            flat = [encode(v) for v in value.ravel().tolist()]
        return {"__ndarray__": flat, "dtype": "object" if value.dtype.kind in "OUS" else str(value.dtype),
                "shape": list(value.shape)}
    for key, cls in _TAGGED.items():
        if isinstance(value, cls):
            return {key: encode(value.to_dict())}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, np.generic):
        return encode(value.item())
    if isinstance(value, float):
        return tag(value)
    return value


def pack(array):
    """A numeric array as {"__packed__": base64 of its little-endian bytes, "dtype", "shape"}."""
    little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    return {"__packed__": base64.b64encode(little.tobytes()).decode("ascii"), "dtype": str(array.dtype),
            "shape": list(array.shape)}


def unpack(value):
    """The array `pack` described (a writable copy, in the machine's byte order)."""
    dtype = np.dtype(value["dtype"])
    if dtype.kind not in PACKABLE:
        raise ValueError(f"a packed array must be numeric, not {dtype}")
    raw = np.frombuffer(base64.b64decode(value["__packed__"], validate=True), dtype=dtype.newbyteorder("<"))
    return raw.astype(dtype.newbyteorder("="), copy=True).reshape(value["shape"])


def decode(value):
    """Undo `encode`."""
    if isinstance(value, dict):
        if "__packed__" in value:
            return unpack(value)
        if "__ndarray__" in value:
            dtype = value["dtype"]
            flat = value["__ndarray__"]
            if dtype.startswith("float"):
                flat = [untag(v) for v in flat]
            arr = np.empty(len(flat), dtype=object) if dtype == "object" else np.array(flat, dtype=dtype)
            if dtype == "object":
                arr[:] = flat
            return arr.reshape(value["shape"])
        for key, cls in _TAGGED.items():
            if key in value:
                return cls.from_dict(decode(value[key]))
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value
