"""hidden_layer_sizes, the network's shape: its rule (one to three layers of whole numbers of units), which
the page reads to offer and check a text box, and the sizes as a list."""

import numbers

import numpy as np

from ...core.errors import DataError
from ...core.params import Vector

MAX_HIDDEN_LAYERS = 3


class LayerSizes(Vector):
    """hidden_layer_sizes: one to three whole numbers >= 1, each the units of one hidden layer. Its kind
    "sizes" and its description (`max_layers`, `low`) let the page offer a text box ("32" or "32, 16") and
    check it by this same rule before anything is sent."""

    kind = "sizes"

    def _check_value(self, name, value):
        sizes = [value] if isinstance(value, numbers.Real) and not isinstance(value, bool) else value
        ok = isinstance(sizes, (list, tuple, np.ndarray)) and 1 <= len(sizes) <= MAX_HIDDEN_LAYERS and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) and v == v and v >= 1 and float(v).is_integer()
            for v in sizes)
        if not ok:
            raise DataError(f"Parameter {name!r} must be {self.expectation()}; got {value!r}.", field=f"params.{name}")

    def expectation(self):
        return f"1 to {MAX_HIDDEN_LAYERS} whole numbers >= 1 (the units of each hidden layer)"

    def describe(self):
        return {**super().describe(), "low": 1, "max_layers": MAX_HIDDEN_LAYERS}


def hidden_sizes(value):
    """The hidden layers' sizes as a list of ints (a single number is one layer)."""
    return [int(value)] if isinstance(value, numbers.Real) else [int(v) for v in value]
