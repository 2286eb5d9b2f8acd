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

A dict whose keys are all texts stays a JSON object. One with other keys (class labels that are numbers,
in a class_weight {0: 5.0}) becomes `{"__pairs__": [[key, value], ...]}`, so its keys read back as they
were rather than as texts.
"""

import base64
import binascii
import math

import numpy as np

from .file_fields import damaged
from .jsonable import tag, untag

PACK_ABOVE = 1000  # numeric arrays with more values than this are packed; smaller ones stay readable
PACKABLE = "fiub"  # dtype kinds with a fixed byte layout: floats, signed and unsigned integers, booleans
# The dtypes a file's arrays may name: the ones `encode` writes. Anything else (a text dtype of a gigabyte
# per item, say) is refused before numpy is asked to make it.
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "object")

PAIRS = "__pairs__"  # a dict whose keys are not all texts: {"__pairs__": [[key, value], ...]}
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
        if all(isinstance(k, str) for k in value):
            return {k: encode(v) for k, v in value.items()}
        # JSON keys are texts, so a dict keyed by numbers (class weights {0: 5.0}) would come back keyed by
        # "0": it is written as its [key, value] pairs, each key as it is.
        return {PAIRS: [[encode(k), encode(v)] for k, v in value.items()]}
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


def unpack(value, path="packed array"):
    """The array `pack` described (a writable copy, in the machine's byte order); a DataError when the
    description does not hold together (an unknown dtype, bytes that do not fill the shape)."""
    dtype = _dtype(value, path)
    if dtype.kind not in PACKABLE:
        raise damaged(path, f"must be numeric, not {dtype}")
    shape = _shape(value, path)
    text = value["__packed__"]
    if not isinstance(text, str):
        raise damaged(path, "must hold its bytes as base64 text")
    try:
        data = _base64_bytes(text)
    except ValueError:
        raise damaged(path, "is not valid base64") from None
    if len(data) != dtype.itemsize * math.prod(shape):
        raise damaged(path, f"has {len(data)} bytes; its shape {shape} and dtype {dtype} need "
                                      f"{dtype.itemsize * math.prod(shape)}")
    raw = np.frombuffer(data, dtype=dtype.newbyteorder("<"))
    return raw.astype(dtype.newbyteorder("="), copy=True).reshape(shape)


def _base64_bytes(text):
    """The bytes base64 `text` holds; ValueError at any character outside the alphabet. binascii's strict
    mode reads the text where it is (base64.b64decode copies it to bytes first: a tenth of reading a
    forest's file); Python 3.10 has no strict mode."""
    try:
        return binascii.a2b_base64(text, strict_mode=True)
    except TypeError:
        return base64.b64decode(text, validate=True)


def _dtype(value, path):
    if value.get("dtype") not in DTYPES:
        raise damaged(path, f"has an unknown dtype {value.get('dtype')!r}; expected one of {', '.join(DTYPES)}")
    return np.dtype(value["dtype"])


def _shape(value, path):
    shape = value.get("shape")
    if not isinstance(shape, list) or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                              for n in shape):
        raise damaged(path, f"must have a shape of whole numbers; got {shape!r}")
    return shape


def _unlisted(value, path):
    """The array an "__ndarray__" description holds, its values checked against its dtype and shape."""
    dtype, shape = _dtype(value, path), _shape(value, path)
    flat = value["__ndarray__"]
    if not isinstance(flat, list) or len(flat) != math.prod(shape):
        raise damaged(path, f"must hold {math.prod(shape)} values for its shape {shape}")
    if dtype.kind == "f":
        flat = [untag(v) for v in flat]
    if dtype.kind == "O":
        items = [decode(v, f"{path}[{i}]") for i, v in enumerate(flat)]
        if not all(v is None or isinstance(v, (str, int, float)) for v in items):
            raise damaged(path, "of labels must hold only texts, numbers, true/false or null")
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
        return arr.reshape(shape)
    if not all(isinstance(v, (int, float)) for v in flat):  # bools are ints; text is refused, not parsed
        raise damaged(path, f"of {dtype} must hold numbers only")
    try:
        return np.array(flat, dtype=dtype).reshape(shape)
    except (OverflowError, ValueError, TypeError):
        raise damaged(path, f"holds a value that is not a {dtype}") from None


def _paired(pairs, path):
    """The dict `encode` wrote as [key, value] pairs; each key a text, number, true/false or null."""
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise damaged(path, "must be a list of [key, value] pairs")
    keys = [k for k, _ in pairs]
    if not all(k is None or isinstance(k, (str, int, float)) for k in keys):
        raise damaged(path, "must have keys that are texts, numbers, true/false or null")
    if len(set(keys)) != len(keys):
        raise damaged(path, "names a key twice")
    return {k: decode(v, f"{path}[{i}][1]") for i, (k, (_, v)) in enumerate(zip(keys, pairs))}


def decode(value, path="value"):
    """Undo `encode`; a DataError naming the field at `path` when an array's description is damaged."""
    if isinstance(value, dict):
        if "__packed__" in value:
            return unpack(value, path)
        if "__ndarray__" in value:
            return _unlisted(value, path)
        for key, cls in _TAGGED.items():
            if key in value:
                return cls.from_dict(decode(value[key], f"{path}.{key}"))
        if PAIRS in value:
            return _paired(value[PAIRS], f"{path}.{PAIRS}")
        return {k: decode(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value
