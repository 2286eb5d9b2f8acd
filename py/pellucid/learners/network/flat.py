"""The network's parameters as one flat vector: the coefficient matrices first, then the bias vectors,
layer by layer (scikit-learn's packing), each layer's arrays being views into it. Both paths train on it,
so one solver step updates every weight at once and a solver's state carries over between the paths.
"""


def layout(layer_units):
    """[(start, end, shape)] of each coefficient matrix, then each bias vector, in the flat vector."""
    spans, start = [], 0
    for fan_in, fan_out in zip(layer_units[:-1], layer_units[1:]):
        spans.append((start, start + fan_in * fan_out, (fan_in, fan_out)))
        start += fan_in * fan_out
    for fan_out in layer_units[1:]:
        spans.append((start, start + fan_out, (fan_out,)))
        start += fan_out
    return spans, start


def views(flat, spans):
    """The arrays of `spans` as views into `flat` (writing one writes the flat vector)."""
    return [flat[start:end].reshape(shape) for start, end, shape in spans]
