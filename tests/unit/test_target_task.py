"""Which task a target implies (tabular/target_task.py): text is classes, numbers with fractions or of many
whole values a quantity, a few whole values either; the table's description carries it for every column,
and the model menu names each task's default learner, the one the page switches to."""

import numpy as np

from pellucid import bridge
from pellucid.tabular.target_task import FEW_VALUES, kind_problem, likely_quantity, target_task
from pellucid.workbench import menus


def houses(n=120, seed=0):
    """area (fractions), price (fractions), dollars (many whole numbers), rating (1-5), sold (0/1),
    kind (text), built (dates), same (one value)."""
    rng = np.random.default_rng(seed)
    lines = ["area,price,dollars,rating,sold,kind,built,same"]
    for i in range(n):
        area = rng.uniform(40, 200)
        lines.append(f"{area:.1f},{area * 1.7 + rng.normal():.2f},{int(area * 1000) + i},{1 + i % 5},{i % 2},"
                     f"{'flat' if i % 3 else 'house'},2020-01-{1 + i % 28:02d},x")
    return "\n".join(lines) + "\n"


def test_the_table_says_which_task_each_column_implies(tmp_path):
    (tmp_path / "houses.csv").write_text(houses())
    reply = bridge.Session().handle("load_csv", {"path": str(tmp_path / "houses.csv"), "name": "houses.csv"})
    tasks = reply["result"]["target_tasks"]
    assert tasks["area"]["tasks"] == ["regression"] and tasks["price"]["tasks"] == ["regression"]
    assert tasks["price"]["reason"] == "price holds numbers with fractions, a quantity to predict (regression)"
    assert tasks["dollars"]["tasks"] == ["regression"]
    assert tasks["dollars"]["reason"].startswith("dollars holds 120 different whole numbers")
    assert tasks["rating"]["tasks"] == ["classification", "regression"]
    assert tasks["rating"]["reason"].startswith("rating holds 5 whole numbers (1 to 5): they can be classes")
    assert tasks["sold"]["tasks"] == ["classification", "regression"]
    assert tasks["kind"] == {"tasks": ["classification"], "reason": "kind holds text labels (2 classes), classes "
                                                                    "to tell apart (classification)"}
    assert "built" not in tasks and "same" not in tasks  # a date, and one value: no task


def entry(name, kind="number", unique=10, whole=True, missing=0):
    out = {"name": name, "kind": kind, "unique": unique, "missing": missing, "histogram": {"edges": [1.0, 9.0]}}
    if kind in ("number", "id") and whole is not None:
        out["whole"] = whole
    return out


def test_the_rule_at_its_edges():
    assert target_task(entry("n", unique=FEW_VALUES), 100)["tasks"] == ["classification", "regression"]
    assert target_task(entry("n", unique=FEW_VALUES + 1), 100)["tasks"] == ["regression"]
    assert target_task(entry("n", unique=3, whole=False), 100)["tasks"] == ["regression"]
    # An ID made the target by the user still has a task: its numbers are a quantity, its text classes.
    assert target_task(entry("n", kind="id", unique=100), 100)["tasks"] == ["regression"]
    assert target_task(entry("code", kind="id", unique=100, whole=None), 100)["tasks"] == ["classification"]
    assert target_task(entry("n", unique=1), 100) is None
    assert target_task(entry("n", unique=0, missing=100), 100) is None


def test_only_an_impossible_pair_is_a_problem_and_it_says_what_to_choose():
    fractions, text, many = entry("price", whole=False), entry("kind", kind="category", whole=None), \
        entry("dollars", unique=500)
    assert kind_problem(fractions, 100, "classification", "Decision tree") == (
        "Decision tree is a classifier, but price holds numbers with fractions, a quantity to predict "
        "(regression). Choose a regressor as the Model, or another Target.")
    assert kind_problem(text, 100, "regression", "Linear regression").startswith(
        "Linear regression is a regressor, but kind holds text labels")
    assert kind_problem(fractions, 100, "regression", "Linear regression") is None
    assert kind_problem(text, 100, "classification", "Decision tree") is None
    # Many whole numbers are likely a quantity, but a classifier may still learn them as classes.
    assert kind_problem(many, 100, "classification", "Decision tree") is None
    assert likely_quantity(many, 100) and not likely_quantity(entry("rating", unique=5), 100)
    assert kind_problem(fractions, 100, "clustering", "k-means") is None


def test_each_task_has_one_default_learner_the_first_of_its_task():
    models = menus.models()
    defaults = {m["task"]: m["name"] for m in models if m["task_default"]}
    assert defaults == {"classification": "DecisionTreeClassifier", "regression": "DecisionTreeRegressor",
                        "clustering": "KMeans", "projection": "PCA"}
    for task, name in defaults.items():
        assert next(m["name"] for m in models if m["task"] == task) == name
