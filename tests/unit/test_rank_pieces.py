"""A comparison cut into pieces, one learner's folds each, run in separate workers and merged, ranks exactly as
rank_learners does in one worker: the same rows in the same order, the same fold scores, the same
significance marks and baseline. Every piece goes through the bridge as the page sends it (JSON text both
ways, in a fresh session of its own: a pool worker), so what crosses between workers is tested too. Only the
fit and predict times, which are measured, may differ."""

import json

import pytest

from bridgekit import ok_in as call
from bridgekit import without
from pellucid import bridge

TIMES = ("fit_seconds", "predict_seconds")

CLASSIFIERS = ["GaussianNB", "DecisionTreeClassifier", "KNeighborsClassifier", "LogisticRegression",
               "MultinomialNB", "KernelPerceptron"]
REGRESSORS = ["LinearRegression", "DecisionTreeRegressor", "KNeighborsRegressor", "KernelRegression"]


def loaded(name, **generator):
    """A fresh session (a worker) with the example `name` loaded: (session, table id, its columns)."""
    session = bridge.Session()
    info = call(session, "load_example", name=name, **generator)
    return session, info["table_id"], info["columns"]


def without_times(value):
    return without(value, TIMES)


CASES = {
    "classification, 5 folds": (("iris",), {"target": "species", "learners": CLASSIFIERS[:4], "metric": "f1_macro",
                                            "evaluation": {"method": "kfold", "k": 5, "seed": 3}}),
    "classification, 3 x 4 folds": (("wine",), {"target": "class", "learners": CLASSIFIERS[:3] + CLASSIFIERS[4:5],
                                                "metric": None,
                                                "evaluation": {"method": "kfold", "k": 4, "repeats": 3, "seed": 0}}),
    "classification, a split": (("breast_cancer",), {"target": "diagnosis", "learners": CLASSIFIERS[:3],
                                                     "metric": "accuracy", "evaluation": {"method": "split"}}),
    "regression, 5 folds": (("line", {"n": 300}), {"target": "y", "learners": REGRESSORS[:3], "metric": None,
                                                   "evaluation": {"method": "kfold", "k": 5, "seed": 1}}),
    "regression, 2 x 3 folds": (("line", {"n": 200}), {"target": "y", "learners": REGRESSORS[:3], "metric": None,
                                                       "evaluation": {"method": "kfold", "k": 3, "repeats": 2}}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_pieces_merged_rank_exactly_as_one_worker(case):
    (name, *generator), request = CASES[case]
    generator = generator[0] if generator else {}
    session, table_id, columns = loaded(name, **generator)
    request = {**request, "features": [column for column in columns if column != request["target"]]}
    one = call(session, "rank_learners", table_id=table_id, **request)
    many = pooled_with(name, generator, request)
    assert without_times(many) == without_times(one)
    assert [row["model"] for row in many["rows"]] == [row["model"] for row in one["rows"]]
    first = one["rows"][0]["scores"]
    assert any("versus_best" in score for score in first.values())  # the marks were compared, not absent


def pooled_with(name, generator, request):
    """The ranking made as the page's pool makes it: each piece in a worker of its own, merged in another."""
    pieces = []
    for index in range(len(request["learners"])):
        session, table_id, _ = loaded(name, **generator)
        pieces.append(call(session, "rank_piece", table_id=table_id, index=index, **request))
    pieces.reverse()  # they come back in any order
    return call(bridge.Session(), "rank_merge", learners=request["learners"], pieces=pieces,
                evaluation=request["evaluation"], metric=request["metric"])


KFOLD_CASES = [case for case in CASES if "folds" in case]


@pytest.mark.parametrize("case", KFOLD_CASES)
def test_pieces_of_one_fold_of_one_learner_rank_exactly_as_one_worker(case):
    """Cut finer, by (learner, fold): a learner's piece given its fold pieces (in any order) fits no fold
    again, and the merge is rank_learners' reply, repeats and all."""
    (name, *generator), request = CASES[case]
    generator = generator[0] if generator else {}
    session, table_id, columns = loaded(name, **generator)
    request = {**request, "features": [column for column in columns if column != request["target"]]}
    one = call(session, "rank_learners", table_id=table_id, **request)
    assert without_times(pooled_by_folds(name, generator, request)) == without_times(one)


def pooled_by_folds(name, generator, request):
    """The ranking as the page's pool makes it under k-fold: every fold of every learner in a worker of its
    own, then each learner's piece from its folds, then the merge."""
    evaluation = request["evaluation"]
    count = evaluation["k"] * evaluation.get("repeats", 1)
    pieces = []
    for index in range(len(request["learners"])):
        folds = []
        for fold in range(count):
            session, table_id, _ = loaded(name, **generator)
            folds.append(call(session, "rank_fold_piece", table_id=table_id, index=index, fold=fold, **request))
        folds = folds[1::2] + folds[::2]  # they come back in any order
        session, table_id, _ = loaded(name, **generator)
        pieces.append(call(session, "rank_piece", table_id=table_id, index=index, folds=folds, **request))
    return call(bridge.Session(), "rank_merge", learners=request["learners"], pieces=pieces,
                evaluation=request["evaluation"], metric=request["metric"])


def test_a_learner_on_its_sample_and_one_left_out_merge_as_in_one_worker():
    """A row-limited learner on its seeded sample is marked and not tested against the rest; left out
    without the sample, it is listed after the ranked ones, in both ways."""
    generator = {"n": 2500, "seed": 4}
    session, table_id, _ = loaded("moons", **generator)
    for sample in (True, False):
        request = {"target": "class", "features": ["x1", "x2"], "learners": ["KernelPerceptron", "GaussianNB"],
                   "metric": None, "sample": sample, "evaluation": {"method": "kfold", "k": 3}}
        one = call(session, "rank_learners", table_id=table_id, **request)
        assert without_times(pooled_with("moons", generator, request)) == without_times(one)
        assert without_times(pooled_by_folds("moons", generator, request)) == without_times(one)


def test_when_no_learner_trains_the_merge_raises_the_first_failure():
    session, table_id, _ = loaded("moons", n=2500)
    request = {"target": "class", "features": ["x1", "x2"], "learners": ["KernelPerceptron"], "metric": None,
               "evaluation": {"method": "kfold", "k": 3}}
    one = json.loads(session.handle_json("rank_learners", json.dumps({"table_id": table_id, **request})))
    piece = call(session, "rank_piece", table_id=table_id, index=0, **request)
    merged = json.loads(bridge.Session().handle_json("rank_merge", json.dumps(
        {"learners": request["learners"], "pieces": [piece], "evaluation": request["evaluation"]})))
    assert not one["ok"] and not merged["ok"]
    assert merged["error"] == one["error"]


def test_a_missing_piece_is_refused():
    session, table_id, _ = loaded("iris")
    request = {"target": "species", "features": ["petal length (cm)", "petal width (cm)"],
               "learners": ["GaussianNB", "DecisionTreeClassifier"], "evaluation": {"method": "kfold", "k": 3}}
    piece = call(session, "rank_piece", table_id=table_id, index=0, **request)
    reply = json.loads(bridge.Session().handle_json("rank_merge", json.dumps(
        {"learners": request["learners"], "pieces": [piece], "evaluation": request["evaluation"]})))
    assert reply["error"]["code"] == "data_error" and "one for every learner" in reply["error"]["message"]


def test_a_learners_fold_pieces_must_be_its_own_and_all_of_them():
    session, table_id, _ = loaded("iris")
    request = {"target": "species", "features": ["petal length (cm)", "petal width (cm)"],
               "learners": ["GaussianNB", "DecisionTreeClassifier"], "evaluation": {"method": "kfold", "k": 3}}
    folds = [call(session, "rank_fold_piece", table_id=table_id, index=0, fold=fold, **request) for fold in range(3)]
    for wrong, index in ((folds[:2], 0), (folds + folds[:1], 0), (folds, 1)):
        reply = json.loads(session.handle_json("rank_piece", json.dumps(
            {"table_id": table_id, "index": index, "folds": wrong, **request})))
        assert reply["error"]["code"] == "data_error" and "one for each of its 3 folds" in reply["error"]["message"]
    split = {**request, "evaluation": {"method": "split"}}
    for cmd, extra in (("rank_fold_piece", {"fold": 0}), ("rank_piece", {"folds": folds})):
        reply = json.loads(session.handle_json(cmd, json.dumps({"table_id": table_id, "index": 0, **extra, **split})))
        assert "under k-fold cross-validation only" in reply["error"]["message"]
