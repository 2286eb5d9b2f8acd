"""The checks a model file's fields pass before a model is rebuilt from them.

A model file is input from outside (written by another version, edited by hand, or made to harm), so each
field a model reads is checked first: its type, its shape, that its numbers are finite and in range, and
that the sizes several fields share agree (`Dims`: the number of classes, of features, of stored rows).
A failed check is a DataError about the "model_file" field whose message names the field, what was
expected and what was found; never a model that crashes, loops or allocates without bound later.

A learner states its fitted state as `{attribute: spec}` (`Int`, `Real`, `Bool`, `Text`, `Names`,
`Array`, `Labels`, ...), each spec checking one decoded value (core.serialize) and giving back the value
to keep; `check_state` applies such a table to a file's state.
"""

import math

import numpy as np

from .errors import DataError
from .jsonable import untag

FIELD = "model_file"  # the error field of every problem with a model file (core.settings.ERROR_FIELDS)
KINDS = ("numeric", "categorical")  # the kinds of a model's input columns


def damaged(path, why):
    """The DataError for the field at `path` ("state.coef_"): `why` says what was expected and found."""
    return DataError(f"This model file is damaged: its {path} {why}.", field=FIELD)


def _got(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Dims:
    """Named sizes several fields share; the first field that gives a size fixes it for the others. It
    also keeps the fields checked so far (`values`), for a check that compares with an earlier field."""

    def __init__(self, **known):
        self.sizes = dict(known)
        self.values = {}  # the fields checked so far, by name, for a spec that depends on an earlier one

    def bind(self, name, size, path):
        """Fix size `name` at `size`, or check `size` against it (a DataError about `path` if it differs)."""
        if name in self.sizes and self.sizes[name] != size:
            raise damaged(path, f"has size {size}, but other fields give {name} = {self.sizes[name]}")
        self.sizes[name] = size
        return size


# --- single values ---------------------------------------------------------------------------------

def require_int(value, path, low=None, high=None):
    """`value` as an int: a whole number (not a bool) from `low` to `high`."""
    if isinstance(value, (float, np.floating)) and math.isfinite(value) and value == int(value):
        value = int(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise damaged(path, f"must be a whole number; got {_got(value)}")
    return int(_in_range(int(value), path, low, high))


def require_number(value, path, low=None, high=None, finite=True):
    """`value` as a float: a number (not a bool), finite unless `finite` is False, from `low` to `high`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise damaged(path, f"must be a number; got {_got(value)}")
    value = float(value)
    if finite and not math.isfinite(value):
        raise damaged(path, f"must be a finite number; got {value}")
    return _in_range(value, path, low, high) if math.isfinite(value) else value


def _in_range(value, path, low, high):
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if low is not None and high is not None else \
            f"at least {low}" if low is not None else f"at most {high}"
        raise damaged(path, f"must be {bounds}; got {value}")
    return value


def require_bool(value, path):
    if not isinstance(value, (bool, np.bool_)):
        raise damaged(path, f"must be true or false; got {_got(value)}")
    return bool(value)


def require_text(value, path, choices=None):
    if not isinstance(value, str) or (choices is not None and value not in choices):
        expected = "text" if choices is None else "one of " + ", ".join(map(repr, choices))
        raise damaged(path, f"must be {expected}; got {_got(value)}")
    return value


def require_dict(value, path):
    if not isinstance(value, dict):
        raise damaged(path, f"must be an object of named fields; got {_got(value)}")
    return value


def require_list(value, path, length=None):
    if isinstance(value, np.ndarray) and value.ndim == 1:
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise damaged(path, f"must be a list; got {_got(value)}")
    if length is not None and len(value) != length:
        raise damaged(path, f"must hold {length} items; got {len(value)}")
    return list(value)


def require_names(value, path, length=None, unique=True):
    """A list of texts (column names, say), all different when `unique`."""
    names = require_list(value, path, length)
    if not all(isinstance(n, str) for n in names):
        raise damaged(path, "must hold only texts")
    if unique and len(set(names)) != len(names):
        raise damaged(path, "names the same thing twice")
    return names


def require_key(d, key, path):
    """d[key], or a DataError naming the missing field."""
    if key not in d:
        raise damaged(f"{path}.{key}" if path else key, "is missing")
    return d[key]


def require_array(value, path, kinds="f", shape=None, finite=True, low=None, high=None, nan=False):
    """`value` as an array whose dtype kind is one of `kinds` ("f" floats, "i" integers: "iu" and whole
    floats accepted, "b" booleans), of `shape` (None for any size along an axis), its numbers finite when
    `finite` (else infinities are allowed, and NaN only with `nan`) and from `low` to `high`."""
    if isinstance(value, (list, tuple)):
        value = _from_list(value, path)
    if not isinstance(value, np.ndarray):
        raise damaged(path, f"must be an array of numbers; got {_got(value)}")
    value = _as_kind(value, kinds, path)
    if shape is not None and (value.ndim != len(shape) or
                              any(s is not None and s != n for s, n in zip(shape, value.shape))):
        want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
        raise damaged(path, f"must have shape {want}; got {tuple(value.shape)}")
    if value.dtype.kind == "f" and finite and not np.isfinite(value).all():
        raise damaged(path, "must hold finite numbers only")
    if value.dtype.kind == "f" and not nan and np.isnan(value).any():
        raise damaged(path, "must hold numbers, not NaN")
    if value.size and value.dtype.kind in "fiu":
        if low is not None and np.nanmin(value) < low:
            raise damaged(path, f"must hold numbers of at least {low}; got {np.nanmin(value)}")
        if high is not None and np.nanmax(value) > high:
            raise damaged(path, f"must hold numbers of at most {high}; got {np.nanmax(value)}")
    return value


def _from_list(value, path):
    value = [untag(v) for v in value]  # a list keeps non-finite floats as their tags (core.jsonable)
    if not all(isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)) for v in value):
        raise damaged(path, "must hold numbers only")
    return np.array(value, dtype=float)


def _as_kind(value, kinds, path):
    kind = value.dtype.kind
    if kind in kinds or (kind in "iu" and "f" in kinds):
        return value.astype(float) if kind in "iu" and "f" in kinds and "i" not in kinds else value
    if kind == "f" and "i" in kinds and np.isfinite(value).all() and (value == np.round(value)).all():
        return value.astype(np.int64)
    if kind == "u" and "i" in kinds:
        return value.astype(np.int64)
    names = {"f": "numbers", "i": "whole numbers", "b": "true/false values"}
    raise damaged(path, f"must hold {' or '.join(names[k] for k in kinds if k in names)}; got {value.dtype}")


def require_labels(value, path, length=None):
    """Class labels: a 1-D array or list of different texts, or of different finite numbers, not mixed
    (so they sort and compare as a fitted model's classes_ do)."""
    items = value.tolist() if isinstance(value, np.ndarray) and value.ndim == 1 else value
    items = require_list(items, path, length)
    texts = all(isinstance(v, str) for v in items)
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in items)
    flags = all(isinstance(v, bool) for v in items)
    if not items or not (texts or numbers or flags):
        raise damaged(path, "must hold class labels: texts, or finite numbers, of one type")
    if len(set(items)) != len(items):
        raise damaged(path, "names a class twice")
    if items != sorted(items):
        raise damaged(path, "must list the classes in sorted order")
    return value if isinstance(value, np.ndarray) else np.array(items, dtype=object if texts else None)


# --- specs: one field of a fitted state ------------------------------------------------------------

class Spec:
    """How one field of a fitted state is checked. `optional`: a file may leave it out (files written
    before it existed): it is then `default`."""

    optional = False
    default = None

    def check(self, value, path, dims):
        raise NotImplementedError


class Optional(Spec):
    """The field may be absent or null (then `default`); otherwise it is checked by `spec`."""

    optional = True

    def __init__(self, spec, default=None):
        self.spec, self.default = spec, default

    def check(self, value, path, dims):
        return self.default if value is None else self.spec.check(value, path, dims)


class Int(Spec):
    def __init__(self, low=None, high=None, dim=None):
        self.low, self.high, self.dim = low, high, dim

    def check(self, value, path, dims):
        value = require_int(value, path, self.low, self.high)
        return dims.bind(self.dim, value, path) if self.dim else value


class Real(Spec):
    def __init__(self, low=None, high=None, finite=True):
        self.low, self.high, self.finite = low, high, finite

    def check(self, value, path, dims):
        return require_number(value, path, self.low, self.high, self.finite)


class Bool(Spec):
    def check(self, value, path, dims):
        return require_bool(value, path)


class Text(Spec):
    def __init__(self, *choices):
        self.choices = choices or None

    def check(self, value, path, dims):
        return require_text(value, path, self.choices)


class Names(Spec):
    """A list of different texts; `dim` names its length."""

    def __init__(self, dim=None, unique=True):
        self.dim, self.unique = dim, unique

    def check(self, value, path, dims):
        names = require_names(value, path, unique=self.unique)
        if self.dim:
            dims.bind(self.dim, len(names), path)
        return names


class Kinds(Names):
    """Each input column's kind, "numeric" or "categorical"."""

    def __init__(self, dim="n_features"):
        super().__init__(dim, unique=False)

    def check(self, value, path, dims):
        kinds = super().check(value, path, dims)
        if any(k not in KINDS for k in kinds):
            raise damaged(path, f"must hold only {' or '.join(KINDS)}")
        return kinds


class Texts(Spec):
    """A list of texts, any number (a model's warnings)."""

    def check(self, value, path, dims):
        return require_names(value, path, unique=False)


class Array(Spec):
    """An array of dtype kind `kinds` whose axes are named sizes (bound in `dims`), fixed numbers or None."""

    def __init__(self, kinds, shape, finite=True, low=None, high=None):
        self.kinds, self.shape, self.finite, self.low, self.high = kinds, shape, finite, low, high

    def check(self, value, path, dims):
        array = require_array(value, path, self.kinds, [None] * len(self.shape), self.finite, self.low, self.high)
        for axis, (size, n) in enumerate(zip(self.shape, array.shape)):
            if isinstance(size, str):
                dims.bind(size, n, f"{path} (axis {axis})")
            elif size is not None and size != n:
                raise damaged(path, f"must have {size} values along axis {axis}; got {n}")
        return array


class Curve(Spec):
    """A record of training, one number per step (a loss curve): any length, NaN and infinity allowed."""

    def check(self, value, path, dims):
        return require_array(value, path, "f", (None,), finite=False, nan=True)


class Labels(Spec):
    """Class labels (`require_labels`); `dim` names their number."""

    def __init__(self, dim="n_classes"):
        self.dim = dim

    def check(self, value, path, dims):
        labels = require_labels(value, path)
        dims.bind(self.dim, len(labels), path)
        return labels


class Each(Spec):
    """A list of values each checked by `spec`; `dim` names its length."""

    def __init__(self, spec, dim=None):
        self.spec, self.dim = spec, dim

    def check(self, value, path, dims):
        items = require_list(value, path)
        if self.dim:
            dims.bind(self.dim, len(items), path)
        return [self.spec.check(v, f"{path}[{i}]", dims) for i, v in enumerate(items)]


class Custom(Spec):
    """A field checked by a function check(value, path, dims) -> the value to keep."""

    def __init__(self, function, optional=False):
        self.function, self.optional = function, optional

    def check(self, value, path, dims):
        return self.function(value, path, dims)


def check_state(state, fields, path="state", dims=None):
    """{attribute: checked value} for each of `fields` ({attribute: Spec}) read from the dict `state`;
    fields the table does not name are left out, so a file cannot set anything else on a model."""
    state = require_dict(state, path)
    dims = Dims() if dims is None else dims
    out = {}
    for name, spec in fields.items():
        if name not in state:
            if not spec.optional:
                raise damaged(f"{path}.{name}", "is missing")
            out[name] = dims.values[name] = spec.default
            continue
        out[name] = dims.values[name] = spec.check(state[name], f"{path}.{name}", dims)
    return out
