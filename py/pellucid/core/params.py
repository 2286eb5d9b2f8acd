"""Declarative hyperparameter rules: one table per estimator checks values and describes them to the UI.

Each estimator lists `_param_rules = {"max_depth": Integer(1, None, none_ok=True), ...}`. `fit` calls
`check_params`, so an out-of-range value fails with a message naming the parameter, the allowed range
and the value given; the bridge sends `describe()` to the page, which builds labelled controls from it.
"""

import numbers

from .errors import DataError


class Rule:
    """A constraint on one hyperparameter; `none_ok` lets None mean "no limit" or "automatic". `label` is
    what the page calls it when that is not the parameter's name: the notes' symbol (k, the seed) for a
    parameter that carries scikit-learn's name (n_neighbors, random_state)."""

    kind = "any"

    def __init__(self, none_ok=False, help="", label=None, also=()):
        self.none_ok = none_ok
        self.help = help
        self.label = label
        self.also = tuple(also)  # values accepted besides the rule's (KMeans' n_init="auto", C=inf)

    def check(self, name, value):
        if value is None:
            if not self.none_ok:
                raise DataError(f"Parameter {name!r} must be {self.expectation()}; got None.",
                                field=f"params.{name}")
            return
        if isinstance(value, (str, numbers.Real)) and value in self.also:
            return
        self._check_value(name, value)

    def _check_value(self, name, value):
        pass

    def expectation(self):
        return "set"

    def describe(self):
        return {"kind": self.kind, "none_ok": self.none_ok, "help": self.help, "label": self.label,
                "also": [value if isinstance(value, str) else repr(value) for value in self.also]}


class Number(Rule):
    """A real number in [low, high] (either end may be open or absent)."""

    kind = "float"

    def __init__(self, low=None, high=None, *, low_open=False, high_open=False, **kwargs):
        super().__init__(**kwargs)
        self.low, self.high = low, high
        self.low_open, self.high_open = low_open, high_open

    def _is_right_type(self, value):
        return isinstance(value, numbers.Real) and not isinstance(value, bool)

    def _check_value(self, name, value):
        # NaN and infinities are never a setting: an open end means "any finite number".
        if not self._is_right_type(value) or value != value or value in (float("inf"), float("-inf")):
            raise DataError(f"Parameter {name!r} must be {self.expectation()}; got {value!r}.", field=f"params.{name}")
        too_low = self.low is not None and (value <= self.low if self.low_open else value < self.low)
        too_high = self.high is not None and (value >= self.high if self.high_open else value > self.high)
        if too_low or too_high:
            raise DataError(f"Parameter {name!r} must be {self.expectation()}; got {value!r}.", field=f"params.{name}")

    def expectation(self):
        noun = "an integer" if self.kind == "int" else "a number"
        parts = []
        if self.low is not None:
            parts.append(f"{'>' if self.low_open else '>='} {self.low}")
        if self.high is not None:
            parts.append(f"{'<' if self.high_open else '<='} {self.high}")
        text = noun + (" " + " and ".join(parts) if parts else "")
        text += "".join(f" or {value!r}" for value in self.also)
        return text + (" or None" if self.none_ok else "")

    def describe(self):
        return {**super().describe(), "low": self.low, "high": self.high,
                "low_open": self.low_open, "high_open": self.high_open}


class Integer(Number):
    """A whole number in [low, high]."""

    kind = "int"

    def _is_right_type(self, value):
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)


class Choice(Rule):
    """One of a fixed set of values (strings, usually)."""

    kind = "choice"

    def __init__(self, *options, **kwargs):
        super().__init__(**kwargs)
        self.options = options

    def _check_value(self, name, value):
        if value not in self.options:
            raise DataError(f"Parameter {name!r} must be {self.expectation()}; got {value!r}.", field=f"params.{name}")

    def expectation(self):
        listed = ", ".join(repr(o) for o in self.options)
        return f"one of {listed}" + (" or None" if self.none_ok else "")

    def describe(self):
        return {**super().describe(), "options": list(self.options)}


class Flag(Rule):
    """True or False."""

    kind = "bool"

    def _check_value(self, name, value):
        if not isinstance(value, bool):
            raise DataError(f"Parameter {name!r} must be True or False; got {value!r}.", field=f"params.{name}")

    def expectation(self):
        return "True or False"


class Vector(Rule):
    """A list of numbers (initial weights, say); its length is checked by the estimator that knows it."""

    kind = "vector"

    def _check_value(self, name, value):
        ok = isinstance(value, (list, tuple)) or (hasattr(value, "ndim") and value.ndim == 1)
        ok = ok and all(isinstance(v, numbers.Real) and not isinstance(v, bool) and v == v for v in value)
        if not ok:
            raise DataError(f"Parameter {name!r} must be a list of numbers; got {value!r}.", field=f"params.{name}")

    def expectation(self):
        return "a list of numbers" + (" or None" if self.none_ok else "")


def check_params(estimator):
    """Check every hyperparameter of `estimator` against its class's rules."""
    for name, rule in type(estimator)._param_rules.items():
        rule.check(name, getattr(estimator, name))
