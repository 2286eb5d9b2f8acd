"""Hyperparameters that were renamed to scikit-learn's names, and the rule that reads the old names.

An estimator lists its renamed parameters beside its rule table, `_renamed_params = {"k": "n_neighbors"}`
(old name: new name, or (new name, how an old value reads as a new one) when the meaning moved too).
Model files, links and saved sessions written before the rename still read: the old name's value is
taken as the new one's. A script that passes an old name to the constructor runs,
with a FutureWarning naming the new name. The page keeps showing the notes' symbols (k, the seed) as
the controls' labels (see params.py, `label`).
"""

import functools
import inspect
import warnings

from .errors import DataError


def current_names(cls, params, *, field=None, warn=False):
    """`params` ({name: value}) with every old name of `cls` replaced by its new name.

    When a file holds both names (a file written while both existed, as PCA's `variance` beside
    `n_components`), the one that says something wins: a None or default value yields to the other; two
    different settings are a DataError naming both.
    """
    renamed = getattr(cls, "_renamed_params", {})
    if not renamed or not any(old in params for old in renamed):
        return params
    out = dict(params)
    defaults = _defaults(cls)
    for old, rename in renamed.items():
        if old not in out:
            continue
        new, convert = rename if isinstance(rename, tuple) else (rename, None)
        value = out.pop(old)
        value = convert(value) if convert is not None and value is not None else value
        if warn:
            warnings.warn(f"{cls.__name__}: the parameter {old!r} is now called {new!r} (scikit-learn's name); "
                          f"{old!r} still works for now.", FutureWarning, stacklevel=4)
        if new not in out or _says_nothing(out[new], defaults.get(new)):
            if value is not None or new not in out:
                out[new] = value
        elif not _says_nothing(value, defaults.get(new)) and value != out[new]:
            raise DataError(f"{cls.__name__} was given both {old}={value!r} and {new}={out[new]!r}; {old!r} is the "
                            f"old name of {new!r}: give one of them.", field=field or f"params.{new}")
    return out


def accept_old_names(cls):
    """Wrap `cls.__init__` so an old parameter name still works (with a warning). The wrapper keeps the
    signature (`functools.wraps`), which is what get_params and scikit-learn's clone read."""
    if not getattr(cls, "_renamed_params", None) or "__init__" not in vars(cls):
        return
    original = cls.__init__

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        original(self, *args, **current_names(type(self), kwargs, warn=True))

    cls.__init__ = __init__


def old_name_of(cls, new):
    """The name `new` had before, or None."""
    renamed = getattr(cls, "_renamed_params", {}).items()
    return next((old for old, now in renamed if (now[0] if isinstance(now, tuple) else now) == new), None)


def _says_nothing(value, default):
    return value is None or (type(value) is type(default) and value == default)


def _defaults(cls):
    parameters = inspect.signature(cls.__init__).parameters
    return {name: p.default for name, p in parameters.items() if p.default is not p.empty}
