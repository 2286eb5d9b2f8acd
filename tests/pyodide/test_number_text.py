"""The page writes many numbers as text with its JavaScript (web/js/number-text.js, for
host/page_numbers.py): character for character what `cells.format_number` writes with Python's repr, on
values of every size and kind a CSV holds, the boundaries where either language changes its layout, and
float64 values drawn from their whole range."""

import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from pellucid.host import page_numbers
from pellucid.tabular import cells

ROOT = pathlib.Path(__file__).resolve().parents[2]
node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's number writer")


def _values():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2 ** 63, size=200_000, dtype=np.uint64) * 2 + rng.integers(0, 2, size=200_000,
                                                                                     dtype=np.uint64)
    anything = bits.view(np.float64)  # every magnitude, sign, subnormals, NaNs and infinities among them
    scaled = rng.normal(size=100_000) * 10.0 ** rng.uniform(-30, 30, size=100_000)
    decimals = np.concatenate([np.round(rng.normal(scale=10.0 ** k, size=20_000), d)
                               for k in range(-5, 9, 2) for d in (0, 2, 6)])  # what people's CSVs hold
    short = np.array([float(f"{v:.6g}") for v in rng.normal(scale=1e4, size=20_000)])
    whole = np.concatenate([rng.integers(-2 ** 53, 2 ** 53, size=20_000).astype(float),
                            rng.integers(1, 2 ** 20, size=20_000) * 2.0 ** rng.integers(53, 74, size=20_000)])
    edges = []
    for edge in (1e-4, 1e-5, 1e-6, 1e-7, 1e15, 1e16, 1e17, 1e21, 1e22, 2.0 ** 53, 0.5, 1.0):
        for sign in (1.0, -1.0):
            x = sign * edge
            for _ in range(4):
                edges += [x, np.nextafter(x, 0.0), np.nextafter(x, np.inf * sign)]
                x = np.nextafter(x, np.inf * sign)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
               1.7976931348623157e308, -1.7976931348623157e308, 0.1, 0.2, 0.30000000000000004, 1 / 3, 100.0,
               123456789012345.67, 9007199254740993.0, 1e300 * 1e8]
    return np.concatenate([anything, scaled, decimals, short, whole, edges, special])


@node
@pytest.mark.parametrize("missing", ["", '""'])
def test_the_page_writes_every_number_as_python_does(tmp_path, missing):
    values = _values()
    path = tmp_path / "values.f64"
    path.write_bytes(values.astype("<f8").tobytes())
    run = subprocess.run(["node", str(ROOT / "tests" / "number_text_run.mjs"), str(path), missing],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    in_page = run.stdout.split("\n")
    in_python = cells.format_numbers(values, missing)  # natively: Python's repr
    assert len(in_page) == len(in_python) == len(values)
    differ = [(values[i], in_page[i], in_python[i]) for i in range(len(values)) if in_page[i] != in_python[i]]
    assert not differ, differ[:10]


SCRIPT = """
import numpy as np
from pellucid.host import page_numbers
from pellucid.tabular import cells
from pellucid.tabular.table import Table

assert page_numbers.writer() is not None, "the page's number writer is not registered"
rng = np.random.default_rng(3)
values = rng.normal(size=9000) * 10.0 ** rng.uniform(-8, 20, size=9000)
values[::97] = np.nan
values[::89] = np.round(values[::89])
table = Table({"x": values, "label": np.array(["a", "b", "c"], dtype=object)[rng.integers(0, 3, 9000)]})
in_page = (cells.format_numbers(values, "NA"), table.to_csv())
page_numbers.MIN_VALUES = 10 ** 12  # Python's repr for every value from here
assert cells.format_numbers(values, "NA") == in_page[0]
assert table.to_csv() == in_page[1]
print("same", len(in_page[0]))
"""


def test_in_pyodide_the_page_writer_is_used_and_agrees(run_in_pyodide):
    assert run_in_pyodide(SCRIPT).split() == ["same", "9000"]


def test_natively_python_writes_them():
    assert page_numbers.writer() is None
    assert cells.format_numbers(np.array([1.0, 1.5e-05, np.nan, 1e16]), "") == ["1", "1.5e-05", "", "1e+16"]
