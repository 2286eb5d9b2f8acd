"""Turn fitted state (numpy arrays, numpy scalars, nested containers) into JSON-able values and back.

A small array becomes readable numbers, `{"__ndarray__": [...], "dtype": "float64", "shape": [...]}`,
where non-finite floats, which JSON cannot hold, become the strings "nan", "inf" and "-inf" (the
fitted-state rule of `pellucid.core.jsonable`). A large numeric array (a k-NN model's training rows) is
packed instead: `{"__packed__": "<base64>", "dtype": "float64", "shape": [...]}`, its values as the
little-endian bytes of the dtype. Packed, a float64 takes 10.7 characters of JSON rather than up to 24
and is read back without a Python loop per value; every value, NaN and infinity included, reads back
bit for bit. Files written before packing (only "__ndarray__") read back as before. A fitted
FeatureEncoder becomes `{"__encoder__": {...}}`.
"""

import base64

import numpy as np

from ..tabular.encoding import FeatureEncoder
from .jsonable import tag, untag

PACK_ABOVE = 1000  # numeric arrays with more values than this are packed; smaller ones stay readable
PACKABLE = "fiub"  # dtype kinds with a fixed byte layout: floats, signed and unsigned integers, booleans


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
    if isinstance(value, FeatureEncoder):
        return {"__encoder__": encode(value.to_dict())}
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
        if "__encoder__" in value:
            return FeatureEncoder.from_dict(decode(value["__encoder__"]))
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value
