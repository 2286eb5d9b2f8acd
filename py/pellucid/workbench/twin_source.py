"""A learner's scikit-learn twin as Python source, without scikit-learn.

A descriptor's twin is a function build(sk, params, ctx) that calls scikit-learn
(`sk.linear_model.Ridge(alpha=ctx["n_train"] * params["l2"])`). To write that estimator into a script,
the function is called with a stand-in for the `sk` module that records the call instead of making it,
and with stand-ins for the context values the script computes itself (`n_train` differs from fold to
fold). So a twin is written once, in its descriptor, and both the comparison and the script use it;
the page can export a script before scikit-learn is loaded (in the browser it is loaded on demand).
"""

import math
import operator

import numpy as np


class Name:
    """A value the script computes (`n_train`), standing for itself in the source; `value` is what it is on
    the run, used where a builder must compare it (min, int). Arithmetic gives a new Name whose source is
    the expression."""

    def __init__(self, source, value):
        self.source, self.value = source, value

    def _combine(self, other, symbol, op, reflected=False):
        left, right = (other, self) if reflected else (self, other)
        source = f"({literal(left)} {symbol} {literal(right)})"
        value = op(getattr(left, "value", left), getattr(right, "value", right))
        return Name(source, value)

    def __mul__(self, other):
        return self._combine(other, "*", operator.mul)

    def __rmul__(self, other):
        return self._combine(other, "*", operator.mul, reflected=True)

    def __truediv__(self, other):
        return self._combine(other, "/", operator.truediv)

    def __rtruediv__(self, other):
        return self._combine(other, "/", operator.truediv, reflected=True)

    def __lt__(self, other):
        return self.value < getattr(other, "value", other)

    def __gt__(self, other):
        return self.value > getattr(other, "value", other)

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)


class Call:
    """scikit-learn's `module.Class(**kwargs)`, recorded: `source` is how the script writes it."""

    def __init__(self, module, name, kwargs):
        self.module, self.name, self.kwargs = module, name, kwargs

    @property
    def source(self):
        return f"{self.name}({', '.join(f'{key}={literal(value)}' for key, value in self.kwargs.items())})"


class _Module:
    """Stands for `sklearn` or one of its modules: attributes are submodules or classes, and calling a class
    records a Call. `calls` keeps every call made through it, for the script's imports."""

    def __init__(self, path, calls):
        self._path, self._calls = path, calls

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _Module(f"{self._path}.{name}", self._calls)

    def __call__(self, **kwargs):
        module, _, name = self._path.rpartition(".")
        call = Call(module, name, kwargs)
        self._calls.append(call)
        return call


def literal(value):
    """Python source for a hyperparameter value: numbers, text, None, booleans, lists, infinity, Names."""
    if isinstance(value, (Name, Call)):
        return value.source
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (float, np.floating)) and math.isinf(value):
        return "np.inf" if value > 0 else "-np.inf"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(value.item() if isinstance(value, np.generic) else value)
    if isinstance(value, (list, tuple)):
        return f"[{', '.join(literal(v) for v in value)}]"
    if value is None or isinstance(value, str):
        return repr(value)
    raise TypeError(f"No Python literal for {value!r}.")


def twin_source(twin, params, ctx):
    """(source of the estimator, [(module, class)] to import) for descriptor twin `twin` with our `params`
    and `ctx` (values or Names)."""
    calls = []
    estimator = twin.build(_Module("sklearn", calls), params, ctx)
    imports = list(dict.fromkeys((call.module, call.name) for call in calls))
    return estimator.source, imports
