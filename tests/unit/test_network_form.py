"""The networks' layer sizes in the page: the rule describes itself for the form's text box, the form starts
on the descriptor's size, and Tune tries lists of sizes (refusing a bad one with the rule's words)."""

import numpy as np
import pytest

from pellucid import DataError
from pellucid.learners import registry
from pellucid.tabular.table import Table
from pellucid.workbench import menus, tuning


def network_menus():
    return [m for m in menus.models() if m["name"] in ("MLPClassifier", "MLPRegressor")]


def test_the_sizes_rule_describes_itself_for_the_page():
    for model in network_menus():
        sizes = next(p for p in model["params"] if p["name"] == "hidden_layer_sizes")
        assert sizes["kind"] == "sizes" and sizes["low"] == 1 and sizes["max_layers"] == 3
        assert list(sizes["default"]) == [32]  # the descriptor's form default, not the class's (100,)
        assert [t["name"] for t in model["tune"]] == ["hidden_layer_sizes", "alpha"]


def test_the_class_keeps_scikit_learns_default():
    assert registry.get("MLPClassifier").estimator().hidden_layer_sizes == (100,)


def small_table(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, "same", "other").astype(object)
    return Table({"a": X[:, 0], "b": X[:, 1], "label": y})


def test_tune_tries_lists_of_sizes():
    grid = [{"name": "hidden_layer_sizes", "values": [[2], [4, 3]]}]
    reply = tuning.tune(small_table(), "label", ["a", "b"], "MLPClassifier", {"max_iter": 20},
                        {"method": "kfold", "k": 3, "seed": 0, "stratify": True}, grid=grid)
    assert [cell["params"]["hidden_layer_sizes"] for cell in reply["cells"]] == [[2], [4, 3]]
    assert all(np.isfinite(cell["validation_mean"]) for cell in reply["cells"])


@pytest.mark.parametrize("bad", [[0], [2, 2, 2, 2], [2.5], []])
def test_tune_refuses_a_bad_size_naming_the_grid(bad):
    grid = [{"name": "hidden_layer_sizes", "values": [[3], bad]}]
    with pytest.raises(DataError) as caught:
        tuning.tune(small_table(), "label", ["a", "b"], "MLPClassifier", {"max_iter": 5},
                    {"method": "kfold", "k": 3, "seed": 0, "stratify": True}, grid=grid)
    assert caught.value.field == "grid.hidden_layer_sizes"
    assert "1 to 3 whole numbers" in str(caught.value)
