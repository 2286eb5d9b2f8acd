"""A run trained on a sheet of an Excel workbook, exported as a scikit-learn script: the script reads the same
sheet with pandas as the page read it (numbers, dates taken apart into their parts, codes, error values and
blank rows as the page has them) and prints the page's scores."""

import datetime
import io
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

from bridgekit import ok
from test_sklearn_script import page_scores, script_scores

pytest.importorskip("sklearn")
pytest.importorskip("pandas")
openpyxl = pytest.importorskip("openpyxl")


def run_script(data_file, script):
    """The scores the script prints, run where the workbook is, without pellucid on its path (openpyxl's folder
    only, which pandas reads .xlsx with)."""
    path = data_file.parent / "exported.py"
    path.write_text(script)
    beside_openpyxl = str(pathlib.Path(openpyxl.__file__).parents[1])
    done = subprocess.run([sys.executable, str(path)], cwd=data_file.parent, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": beside_openpyxl})
    assert done.returncode == 0, done.stderr
    return {m[1]: float(m[2]) for m in re.finditer(r"^(.+): (\S+)$", done.stdout, re.M)}


def readings_workbook(n=160, seed=4):
    """A cover sheet, then the readings: a date, two numbers (one with an error value and gaps), a code column
    kept as text, a category, a blank row, and a yes/no target that follows the numbers."""
    rng = np.random.default_rng(seed)
    book = openpyxl.Workbook()
    book.active.title = "Cover"
    book.active.append(["Readings of the north station"])
    sheet = book.create_sheet("Readings")
    sheet.append(["day", "temperature", "humidity", "sensor", "site", "alarm"])
    for i in range(n):
        temperature = round(float(rng.normal(15, 6)), 2)
        humidity = float(rng.uniform(0.2, 0.95))  # every digit kept: Excel stores doubles
        site = str(rng.choice(["north", "south"]))
        alarm = "yes" if temperature / 10 + 2 * humidity + (site == "north") + rng.normal(0, 0.5) > 3.3 else "no"
        sheet.append([datetime.datetime(2024, 1, 1) + datetime.timedelta(days=3 * i, hours=i % 3 * 5),
                      temperature, None if i % 17 == 3 else humidity, f"{i % 9:03d}", site, alarm])
        if i == 40:
            sheet.append([])
    sheet["B10"] = "#DIV/0!"
    sheet["B10"].data_type = "e"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.mark.parametrize("model, evaluation", [
    ("LogisticRegression", {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 2}),
    ("GaussianNB", {"method": "kfold", "k": 3, "seed": 1}),
])
def test_the_script_reads_the_sheet_as_the_page_did_and_scores_the_same(tmp_path, model, evaluation):
    path = tmp_path / "readings.xlsx"
    path.write_bytes(readings_workbook())
    info = ok("load_csv", path=str(path), name="readings.xlsx", sheet="Readings")
    assert info["n_rows"] == 160 and info["missing"]["temperature"] == 1
    assert info["kinds"]["sensor"] == "categorical" and info["kinds"]["humidity"] == "numeric"
    features = ["day", "temperature", "humidity", "site"]  # the day taken apart into its parts
    result = ok("train", table_id=info["table_id"], target="alarm", features=features, model=model,
                evaluation=evaluation)
    export = ok("export_sklearn", model_id=result["model_id"])
    assert "pd.read_excel('readings.xlsx', sheet_name='Readings'" in export["script"]
    printed = script_scores(run_script(path, export["script"]))
    page = page_scores(result)
    assert printed.keys() == page.keys()
    for part, score in page.items():
        assert printed[part] == pytest.approx(score, abs=1e-12), part
