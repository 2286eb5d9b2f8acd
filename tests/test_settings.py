"""What Python and the page share is defined once (pellucid.core.settings): Python's own defaults come
from it, the build writes exactly it to settings.json, and the page's scripts do not repeat its numbers."""

import inspect
import json
import pathlib
import re
import sys

import pytest

from pellucid import bridge
from pellucid.core import settings
from pellucid.core.descriptor import Task
from pellucid.core.errors import DataError
from pellucid.tabular import cells
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.table import Table
from pellucid.workbench.evaluation import check_evaluation

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

SHARED = settings.shared_settings()


def test_the_shared_settings_have_the_agreed_keys_and_are_plain_json():
    assert set(SHARED) == {"split", "split_limits", "cv_folds", "seed", "impute", "inline_max", "metrics",
                           "error_fields", "missing_markers", "column_kinds", "limits", "tasks"}
    assert json.loads(json.dumps(SHARED, allow_nan=False)) == SHARED
    assert sum(SHARED["split"].values()) == 100
    folds = SHARED["cv_folds"]
    assert 2 <= folds["min"] <= folds["default"] <= folds["max"]
    assert SHARED["tasks"] == [task.value for task in Task]


def test_the_build_writes_exactly_the_shared_settings(tmp_path):
    build.write_settings(tmp_path)
    assert json.loads((tmp_path / "settings.json").read_text()) == SHARED


def test_the_default_split_and_fold_range_are_the_evaluations():
    split = check_evaluation({"method": "split"})
    assert {p: split[p] for p in ("train", "validation", "test")} == SHARED["split"]
    folds = SHARED["cv_folds"]
    assert check_evaluation({"method": "kfold"})["k"] == folds["default"]
    assert check_evaluation({"method": "kfold", "k": folds["max"]})["k"] == folds["max"]
    for k in (folds["min"] - 1, folds["max"] + 1):
        with pytest.raises(DataError, match=f"from {folds['min']} to {folds['max']}"):
            check_evaluation({"method": "kfold", "k": k})


def test_the_upload_limits_are_load_csvs_defaults():
    defaults = inspect.signature(bridge.Session.load_csv).parameters
    assert defaults["max_bytes"].default == SHARED["limits"]["max_bytes"]
    assert defaults["max_rows"].default == SHARED["limits"]["max_rows"]


@pytest.mark.parametrize("marker", SHARED["missing_markers"])
def test_every_shared_missing_marker_reads_as_missing(marker):
    for spelling in {marker, marker.upper(), f" {marker.title()} "}:
        table = read_csv(f"x,y\n1,a\n{spelling},b\n3,c\n".encode())
        assert table.kinds["x"] == "numeric" and table.summary()["missing"]["x"] == 1, spelling
    assert sorted(cells.MISSING_MARKERS) == SHARED["missing_markers"]


def test_the_column_kinds_are_the_tables():
    table = Table({"a": ["1", "2"]})
    for kind in SHARED["column_kinds"]:
        assert table.with_kind("a", kind).kinds["a"] == kind
    with pytest.raises(DataError):
        table.with_kind("a", "date")


@pytest.mark.parametrize("script, pattern", [
    ("state.js", r"default:\s*(70|30)\b"),  # the split's defaults
    ("state.js", r"integer\(\s*2\s*,\s*20\s*\)"),  # k's range
    ("eval-panel.js", r"\bk\s*[<>]=?\s*(2|20)\b"),
])
def test_the_page_reads_the_shared_numbers_instead_of_repeating_them(script, pattern):
    text = (ROOT / "web" / "js" / script).read_text()
    assert not re.search(pattern, text), f"{script} repeats a shared setting; read it from settings.json"
