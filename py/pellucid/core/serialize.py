"""Turn fitted state (numpy arrays, numpy scalars, nested containers) into JSON-able values and back.

Arrays become `{"__ndarray__": [...], "dtype": "float64", "shape": [...]}`; non-finite floats, which JSON
cannot hold, become the strings "nan", "inf" and "-inf" (the fitted-state rule of
`pellucid.core.jsonable`), so a model reads back exactly. A fitted FeatureEncoder becomes
`{"__encoder__": {...}}`.
"""

import numpy as np

from ..tabular.encoding import FeatureEncoder
from .jsonable import tag, untag


def encode(value):
    """A JSON-able copy of `value`."""
    if isinstance(value, np.ndarray):
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


def decode(value):
    """Undo `encode`."""
    if isinstance(value, dict):
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
