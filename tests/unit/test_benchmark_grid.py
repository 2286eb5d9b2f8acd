"""The grid of issue 31 (benchmarks/grid.py): it covers every learner that has a scikit-learn twin, both
libraries accept every cell's settings, and a run of tiny cells gives timings and answers that agree."""

import warnings

import numpy as np
import pytest

from benchmarks import grid, grid_cells, grid_data, grid_report
from pellucid.learners import registry


def test_every_learner_with_a_twin_has_an_entry_and_no_other():
    with_twin = {learner.name for learner in registry.learners() if learner.sklearn is not None}
    assert sorted(e.name for e in grid.ENTRIES) == sorted(with_twin)


@pytest.mark.parametrize("entry", grid.ENTRIES, ids=lambda e: e.name)
def test_the_cells_span_rows_features_a_wide_table_and_changed_settings(entry):
    cells = grid.cells(entry)
    assert {c.rows for c in cells if c.features == grid.BASE_FEATURES and not c.settings} >= {1_000}
    assert {c.features for c in cells} >= {5, 20, 200}
    assert any(c.rows < c.features for c in cells)
    assert [c.settings for c in cells if c.settings] == list(entry.settings) and entry.settings
    assert entry.skipped or entry.rows == grid.ROWS  # sizes left out are said, with why


def _settings(entry):
    return [{}] + list(entry.settings)


@pytest.mark.parametrize("entry", grid.ENTRIES, ids=lambda e: e.name)
def test_both_libraries_accept_every_cells_settings(entry):
    X, y = grid_data.table(entry.data, 60, 5)
    for settings in _settings(entry):
        cell = grid.Cell(entry, 60, 5, settings, "tiny")
        ours, theirs = grid_cells.models(cell)
        for name, value in cell.params.items():
            assert ours.get_params()[name] == value
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a few epochs on 60 rows do not converge
            for model in (ours, theirs):
                model.fit(*grid_cells.fit_args(cell, X, y))


def test_the_twin_is_given_the_changed_setting():
    entry = next(e for e in grid.ENTRIES if e.name == "DecisionTreeClassifier")
    _, theirs = grid_cells.models(grid.Cell(entry, 60, 5, {"max_depth": 5}, "tiny"))
    assert theirs.max_depth == 5


@pytest.mark.parametrize("name", ["GaussianNB", "PCA", "KMeans", "AgglomerativeClustering"])
def test_a_tiny_cell_gives_positive_times_and_answers_that_agree(name):
    entry = next(e for e in grid.ENTRIES if e.name == name)
    cell = grid.cells(entry, quick=True)[0]
    rows = grid_cells.run(cell, min_time=0.0)
    assert [r["call"] for r in rows] == ["fit"] + ([entry.call] if entry.call else [])
    for row in rows:
        assert row["pellucid_s"] > 0 and row["sklearn_s"] > 0
        assert row["ratio"] == pytest.approx(row["pellucid_s"] / row["sklearn_s"])
    assert rows[-1]["ok"] and rows[-1]["agree"]


def test_answers_that_differ_are_caught():
    entry = next(e for e in grid.ENTRIES if e.name == "GaussianNB")
    cell = grid.Cell(entry, 4, 1, {}, "tiny")
    y = np.array([0, 1, 1, 2])
    ok, text = grid_cells.AGREE["score"](cell, y, np.array([0, 1, 1, 2]), np.array([0, 1, 1, 1]))
    assert not ok and text == "accuracy 1.0000 vs 0.7500"


def test_the_table_marks_ratios_above_the_target_and_lists_them():
    entry = grid.ENTRIES[0]
    rows = [{"learner": entry.name, "cell": "1,000 x 20", "call": call, "pellucid_s": p, "sklearn_s": 1.0,
             "ratio": p, "samples": 3, "agree": "", "ok": True} for call, p in (("fit", 1.5), ("predict", 0.5))]
    text = grid_report.table(entry, rows)
    assert "| **1.50** (> 1) |" in text and "| 0.50 |" in text
    assert grid_report.misses(rows) == f"- {entry.name}, 1,000 x 20, fit: ratio 1.50"
