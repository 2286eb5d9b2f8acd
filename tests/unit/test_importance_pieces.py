"""A model's permutation importance cut into pieces (a fold, or the fitted model, with a block of the features
shuffled), computed in separate workers that have the table but not the model and merged where the model is
kept, gives exactly the reply `importance` gives in one worker: the same features in the same order, the same
means, spreads, baseline, rows and impurity importance, float for float. Every piece goes through the bridge as
the page sends it (JSON text both ways, in a fresh session of its own: a pool worker), so what crosses between
workers is tested too."""

import json
import random

import pytest

from passengers_csv import passengers_csv
from bridgekit import ok_in as call, reply_in as reply
from pellucid import bridge


def loaded(source):
    """A fresh session (a worker) with `source` loaded: (session, table id). `source` is an example's name and
    generator settings, or a CSV file's path."""
    session = bridge.Session()
    if isinstance(source, str):
        return session, call(session, "load_csv", path=source, name="passengers.csv")["table_id"]
    name, generator = source
    return session, call(session, "load_example", name=name, **generator)["table_id"]


def trained(source, request):
    """The page's worker: (session, model id) of the run `train` makes with `request`."""
    session, table_id = loaded(source)
    return session, call(session, "train", table_id=table_id, **request)["model_id"]


def pieces_in_workers(source, request, blocks, order):
    """Every importance_piece reply, each from a worker of its own, in `order`."""
    pieces = []
    for index in order:
        worker, table_id = loaded(source)
        pieces.append(call(worker, "importance_piece", table_id=table_id, index=index, blocks=blocks, **request))
    return pieces


def count(request, blocks):
    evaluation = request["evaluation"]
    return (evaluation["k"] if evaluation["method"] == "kfold" else 1) * blocks


@pytest.fixture(scope="module")
def passengers(tmp_path_factory):
    """A table with missing cells (NA, #N/A, ? or empty ages) and a date column, which becomes its parts."""
    path = tmp_path_factory.mktemp("importance") / "passengers.csv"
    path.write_text(passengers_csv(n=400, seed=2)[0])
    return str(path)


PASSENGER_FEATURES = ["Sex", "Age", "Fare", "Booked", "Siblings"]

CASES = {
    "classification, k-fold, a tree": (("iris", {}), {
        "target": "species", "features": None, "model": "DecisionTreeClassifier",
        "evaluation": {"method": "kfold", "k": 4, "seed": 3}}, 2),
    "classification, a held-out split, k-NN standardized": (("wine", {}), {
        "target": "class", "features": None, "model": "KNeighborsClassifier",
        "preprocessing": {"standardize": True},
        "evaluation": {"method": "split", "train": 60, "validation": 20, "test": 20, "seed": 7}}, 5),
    "classification, a held-out split, a seeded forest": (("breast_cancer", {}), {
        "target": "diagnosis", "features": None, "model": "RandomForestClassifier",
        "params": {"n_estimators": 5, "max_depth": 4, "random_state": 11},
        "evaluation": {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 2}}, 3),
    "regression, k-fold, k-NN": (("line", {"n": 200}), {
        "target": "y", "features": None, "model": "KNeighborsRegressor",
        "evaluation": {"method": "kfold", "k": 5, "seed": 1}}, 1),
    "regression, a held-out split, a tree, more blocks than features": (("line", {"n": 150}), {
        "target": "y", "features": None, "model": "DecisionTreeRegressor", "params": {"max_depth": 3},
        "evaluation": {"method": "split", "train": 70, "validation": 30, "test": 0, "seed": 5}}, 3),
    "regression, no rows held out, linear regression": (("line", {"n": 120}), {
        "target": "y", "features": None, "model": "LinearRegression", "evaluation": {"method": "none", "seed": 4}}, 1),
    "missing values and a date, k-fold, logistic regression imputing": ("passengers", {
        "target": "Survived", "features": PASSENGER_FEATURES, "model": "LogisticRegression",
        "evaluation": {"method": "kfold", "k": 3, "seed": 6}}, 4),
    "missing values and a date, a held-out split, a tree reading them": ("passengers", {
        "target": "Survived", "features": PASSENGER_FEATURES, "model": "DecisionTreeClassifier",
        "params": {"max_depth": 4}, "preprocessing": {"impute": "keep"},
        "evaluation": {"method": "split", "train": 60, "validation": 0, "test": 40, "seed": 9}}, 2),
}


def source_of(case, passengers):
    source = CASES[case][0]
    return passengers if source == "passengers" else source


@pytest.mark.parametrize("case", list(CASES))
def test_pieces_merged_in_any_order_give_the_very_importance_of_one_worker(case, passengers):
    _, request, blocks = CASES[case]
    source = source_of(case, passengers)
    session, model_id = trained(source, request)
    whole = call(session, "importance", model_id=model_id)
    order = list(range(count(request, blocks)))
    random.Random(case).shuffle(order)
    merged = call(session, "importance_merge", model_id=model_id,
                  pieces=pieces_in_workers(source, request, blocks, order))
    assert merged == whole
    assert len(whole["permutation"]["features"]) >= 1 and whole["permutation"]["mean"]
    if request["model"].startswith("DecisionTree"):
        assert whole["impurity"] is not None  # the page's fitted tree, merged where it is kept


def test_the_missing_cells_and_the_date_parts_are_in_what_was_shuffled(passengers):
    _, request, blocks = CASES["missing values and a date, a held-out split, a tree reading them"]
    session, model_id = trained(passengers, request)
    features = call(session, "importance", model_id=model_id)["permutation"]["features"]
    assert "Age" in features and any(name.startswith("Booked") and name != "Booked" for name in features)
    source = open(passengers).read()
    assert ",NA," in source and ",?," in source  # the ages are missing in every way a CSV writes it


def test_a_tree_is_judged_by_its_own_fitted_model_made_again_in_the_piece():
    """Under a split the piece's worker trains the model again: a deeper tree than the page's gives other
    numbers, so the pieces are of the model the arguments make, not of some other."""
    source, request, _ = CASES["classification, a held-out split, a seeded forest"]
    session, model_id = trained(source, request)
    other = dict(request, params={**request["params"], "random_state": 12})
    answer = reply(session, "importance_merge", model_id=model_id, pieces=pieces_in_workers(source, other, 1, [0]))
    assert answer["ok"]
    assert answer["result"] != call(session, "importance", model_id=model_id)


def test_a_model_with_no_seed_is_not_made_again_under_a_split_but_its_folds_are():
    source = ("iris", {})
    request = {"target": "species", "features": None, "model": "RandomForestClassifier",
               "params": {"n_estimators": 3, "random_state": None},
               "evaluation": {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 0}}
    worker, table_id = loaded(source)
    refused = reply(worker, "importance_piece", table_id=table_id, index=0, **request)
    assert not refused["ok"] and refused["error"]["field"] == "params.random_state"
    assert "page's own worker" in refused["error"]["message"]
    folds = dict(request, evaluation={"method": "kfold", "k": 3, "seed": 0})
    assert call(worker, "importance_piece", table_id=table_id, index=2, **folds)["fold"] == 2


def test_pieces_missing_twice_mixed_or_of_another_model_are_refused():
    source, request, blocks = CASES["classification, k-fold, a tree"]
    session, model_id = trained(source, request)
    pieces = pieces_in_workers(source, request, blocks, range(count(request, blocks)))
    halves = pieces_in_workers(source, request, 1, [0])
    other_seed = dict(request, evaluation={**request["evaluation"], "seed": 4})
    foreign = pieces_in_workers(source, other_seed, blocks, range(count(request, blocks)))
    for wrong in (pieces[:-1], pieces + pieces[:1], pieces[:-1] + pieces[:1], halves + pieces[1:], foreign, []):
        answer = reply(session, "importance_merge", model_id=model_id, pieces=wrong)
        assert not answer["ok"] and answer["error"]["code"] == "data_error"
        assert "every importance_piece of this model once" in answer["error"]["message"]
    for wrong in ("pieces", [{"index": 0}], [dict(pieces[0], drops=3)]):
        answer = reply(session, "importance_merge", model_id=model_id, pieces=wrong)
        assert not answer["ok"] and answer["error"]["code"] == "data_error", answer


def test_a_piece_outside_the_pieces_or_blocks_out_of_range_is_refused():
    worker, table_id = loaded(("iris", {}))
    _, request, _ = CASES["classification, k-fold, a tree"]
    for index, blocks, said in ((8, 2, "0 to 7"), (-1, 1, "0 to 3"), (0, 0, "blocks"), (0, True, "blocks")):
        answer = reply(worker, "importance_piece", table_id=table_id, index=index, blocks=blocks, **request)
        assert not answer["ok"] and answer["error"]["code"] == "data_error"
        assert said in answer["error"]["message"]


def test_a_number_that_is_not_finite_crosses_as_the_very_float():
    from pellucid.workbench import importance_pieces

    nan, inf = float("nan"), float("inf")
    piece = {"index": 0, "blocks": 1, "fold": 0, "features": ["a", "b"], "drops": [[0.5, nan], [-inf, 0.25]],
             "baseline": nan, "scoring": "r2", "n_rows": 3, "n_held_out": 9, "rows": "out_of_fold",
             "n_repeats": 2, "seed": 0}
    crossed = json.loads(json.dumps(importance_pieces.sent(piece), allow_nan=False))
    assert crossed["drops"][0][1] == "nan" and crossed["baseline"] == "nan"  # not null, as a reply would make it
    back = importance_pieces.received([crossed])[0]
    assert back["drops"][0][0] == 0.5 and back["drops"][0][1] != back["drops"][0][1]
    assert back["drops"][1] == [-inf, 0.25] and back["baseline"] != back["baseline"]
