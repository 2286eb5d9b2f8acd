"""numpy values to plain JSON data, with one rule for what JSON cannot hold (NaN and infinity).

The rule: **in a reply to the page, a non-finite float becomes null** (the page shows it as "—");
**in fitted state, which must read back exactly, it becomes the string "nan", "inf" or "-inf"**.
`plain` applies the first, `tagged` the second (`pellucid.core.serialize` wraps arrays around it, and a
model's trace and explanations, which are kept with its state, use it too); `untag` reads a tag back.
Every other value is the same in both: numpy scalars and arrays become Python numbers and lists,
tuples become lists, dict keys become strings.
"""

import math

import numpy as np

_TAGS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def plain(value):
    """A JSON-able copy of `value` for a reply: non-finite floats become None."""
    return _convert(value, _finite_or_none)


def tagged(value):
    """A JSON-able copy of `value` for fitted state: non-finite floats become "nan", "inf" or "-inf"."""
    return _convert(value, tag)


def tag(x):
    """A float, or its tag when it is not finite."""
    if math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def untag(value):
    """The float a tag stands for; any other value unchanged."""
    return _TAGS.get(value, value) if isinstance(value, str) else value


def python_scalar(value):
    """A numpy scalar as the Python value it holds (a class label, a count); anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


def _finite_or_none(x):
    return x if math.isfinite(x) else None


def _convert(value, on_float):
    if isinstance(value, dict):
        return {str(k): _convert(v, on_float) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_convert(v, on_float) for v in value]
    if isinstance(value, np.ndarray):
        if _needs_no_rule(value):  # numbers only, all finite: tolist's Python numbers are the answer
            return value.tolist()
        return _convert(value.tolist(), on_float)
    if isinstance(value, np.generic):
        return _convert(value.item(), on_float)
    if isinstance(value, float):
        return on_float(value)
    return value


def _needs_no_rule(array):
    """True for an array of booleans, integers or finite floats, whose tolist() is already plain JSON data
    (both rules leave such values as they are): the lists of predictions and probabilities in a reply
    skip a walk of every value in Python."""
    kind = array.dtype.kind
    return kind in "biu" or (kind == "f" and bool(np.isfinite(array).all()))
