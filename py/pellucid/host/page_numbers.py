"""Many numbers written as text by the page's JavaScript (web/js/number-text.js), in place of a Python repr
per value, where `cells.format_numbers` has that many to write.

In Pyodide a float's repr costs about 0.8 microseconds; an exported CSV of 50,000 rows with 45 principal
components writes 2.25 million of them (nearly 2 s). The page's worker registers a function that reads the
float64 values straight from Python's memory and writes each as `cells.format_number` would, as UTF-8 into a
buffer of Python's, in about a third of the time; tests/pyodide/test_number_text.py checks the two texts are the
same, character for character.
Natively, or before the page has registered it, `writer` answers None and Python writes them.
"""

import functools

import numpy as np

from .kernels import page_kernel

MIN_VALUES = 4096  # fewer are written by Python: the call costs more than it saves
_LONGEST = len("-2.2250738585072014e-308")  # the longest text of a float64


def writer():
    """A function (float64 array, missing text) -> list of str, or None outside the page."""
    found = page_kernel("numberText")
    return functools.partial(_write, found) if found is not None else None


def _write(found, values, missing):
    values = np.ascontiguousarray(values, dtype=np.float64)  # (n,) read in place by the page
    longest = max(_LONGEST, len(missing.encode("utf-8")))
    out = np.empty(len(values) * (longest + 1), dtype=np.uint8)  # room for every text and its line break
    written = found(values.ctypes.data, len(values), missing, out.ctypes.data, len(out))
    return out[:written].tobytes().decode("utf-8").split("\n")
