"""What Python and the page share is defined once (pellucid.core.settings): Python's own defaults come
from it, the build writes exactly it to settings.json, and the page's scripts do not repeat its numbers."""

import inspect
import json
import pathlib
import re
import sys

import pytest

from pellucid import bridge
from pellucid.workbench import menus
from pellucid.core import settings
from pellucid.core.descriptor import Task
from pellucid.core.errors import DataError
from pellucid.tabular import cells
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.table import Table
from pellucid.workbench.training import check_evaluation

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

SHARED = settings.shared_settings()


def test_the_shared_settings_have_the_agreed_keys_and_are_plain_json():
    assert set(SHARED) == {"split", "split_limits", "cv_folds", "cv_repeats", "seed", "impute", "inline_max", "metrics",
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
    repeats = SHARED["cv_repeats"]
    assert repeats["min"] == repeats["default"] == 1 and "repeats" not in check_evaluation({"method": "kfold"})
    assert check_evaluation({"method": "kfold", "repeats": repeats["max"]})["repeats"] == repeats["max"]
    for r in (repeats["min"] - 1, repeats["max"] + 1, 2.5, True):
        expected = f"repeats must be a whole number from {repeats['min']} to {repeats['max']}"
        with pytest.raises(DataError, match=expected):
            check_evaluation({"method": "kfold", "repeats": r})


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
    ("link-settings.js", r"default:\s*(70|30)\b"),  # the split's defaults
    ("link-settings.js", r"integer\(\s*2\s*,\s*20\s*\)"),  # k's range
    ("eval-panel.js", r"\bk\s*[<>]=?\s*(2|20)\b"),
])
def test_the_page_reads_the_shared_numbers_instead_of_repeating_them(script, pattern):
    text = (ROOT / "web" / "js" / script).read_text()
    assert not re.search(pattern, text), f"{script} repeats a shared setting; read it from settings.json"


def test_every_seed_check_takes_the_one_seed_range():
    from pellucid.evaluation.importance import _check_repeats
    from pellucid.tabular import generators
    from pellucid.workbench.exercises import _seed
    top = SHARED["seed"]["max"]
    assert SHARED["seed"] == {"min": 0, "max": settings.SEED_MAX}
    assert check_evaluation({"method": "split", "seed": top})["seed"] == top
    assert _seed(top) == top
    _check_repeats(1, top)
    generators.blobs(n=5, seed=top)
    assert all(p["high"] == top for _, _, _, _, params in generators.GENERATORS.values() for p in params
               if p["name"] == "seed")
    for check in (lambda s: check_evaluation({"method": "split", "seed": s}), _seed, lambda s: _check_repeats(1, s),
                  lambda s: generators.blobs(n=5, seed=s)):
        for seed in (-1, top + 1):
            with pytest.raises(DataError):
                check(seed)


def test_the_metrics_are_the_rankings_and_the_readouts():
    from pellucid.evaluation.model_selection import SCORERS
    from pellucid.workbench import leaderboard
    rank = SHARED["metrics"]["rank"]
    for task in ("classification", "regression"):
        assert [m["name"] for m in rank[task]] == [m["name"] for m in leaderboard.metrics_for(task)]
        assert all(name in SCORERS for name in (m["name"] for m in rank[task]))
    assert set(SHARED["metrics"]["result"]) == set(SHARED["tasks"])
    assert [m["name"] for m in SHARED["metrics"]["result"]["classification"]][0] == "accuracy"
    assert {m["name"] for task in rank.values() for m in task if m["percent"]} == {"accuracy", "balanced_accuracy"}


def test_the_result_metrics_are_keys_of_a_trained_runs_metrics():
    session = bridge.Session()
    table = session.handle("load_example", {"name": "iris"})["result"]["table_id"]
    result = session.handle("train", {"table_id": table, "target": "species", "features": None,
                                      "model": "GaussianNB", "evaluation": {"method": "split"}})["result"]
    test = result["metrics"]["test"]
    for metric in SHARED["metrics"]["result"]["classification"]:
        name = metric["name"]
        found = test.get(name, test.get("macro", {}).get(name.removeprefix("macro_")))
        assert isinstance(found, float), name


def test_inline_max_and_the_impute_choices_are_pythons():
    from pellucid.preprocessing.imputer import STRATEGIES
    from pellucid.workbench import frames
    assert SHARED["inline_max"] == frames.INLINE_MAX
    assert SHARED["impute"]["choices"] == [*STRATEGIES, "drop", "keep"]
    assert SHARED["impute"]["default"] in STRATEGIES


def test_the_models_menu_gives_each_learners_preprocessing_defaults():
    from pellucid.workbench.prepare import check_choices
    from pellucid.learners import registry
    for entry in menus.models():
        assert entry["preprocessing"] == check_choices(None, registry.get(entry["name"]))


def test_the_error_fields_are_the_vocabulary():
    assert SHARED["error_fields"] == list(settings.ERROR_FIELDS)


@pytest.mark.parametrize("script, pattern", [
    ("link-settings.js", r"2\s*\*\*\s*3[12]"),  # the seed's range
    ("link-settings.js", r"integer\(\s*[01]\s*,\s*(98|99|100)\s*\)"),  # the split's limits
    ("link-settings.js", r"\"most_frequent\""),  # the impute choices
    ("readout.js", r"\"balanced_accuracy\""),  # the result metrics
    ("leaderboard.js", r"\"f1_macro\""),  # the ranking metrics
    ("learn/views.js", r"INLINE_MAX|weight_names\.length\s*>"),
    ("preprocess-panel.js", r"scale_sensitive"),
    ("history.js", r"scale_sensitive"),
    ("views.js", r"can\.has\("),  # which views a result has is the reply's
    ("results.js", r"kinds\[f\]\s*===\s*\"numeric\""),  # which features an axis may be is the reply's
])
def test_the_page_reads_pythons_decisions_instead_of_making_them(script, pattern):
    text = (ROOT / "web" / "js" / script).read_text()
    assert not re.search(pattern, text), (f"{script} repeats what Python decides; read it from settings.json "
                                          "or the reply")


def test_the_page_never_reads_an_error_message_to_find_its_control():
    for path in (ROOT / "web" / "js").rglob("*.js"):
        text = path.read_text()
        assert not re.search(r"RegExp|\.test\(message|message\.match|message\.text\.includes", text), path.name
