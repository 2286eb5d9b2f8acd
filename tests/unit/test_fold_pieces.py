"""A k-fold training cut into fold pieces, each made in a worker of its own and handed to `train`, gives the
very result one worker gives: the same reply (metrics, confusion matrix, per-fold scores, warnings), the
same out-of-fold predictions and probabilities bit for bit, with the same numpy type, and the same
predictions export. Every piece crosses the bridge as JSON text both ways, as the page's pool sends it.
Only the measured fit and predict times may differ. Pieces that do not fit the training are refused."""

import json

import numpy as np
import pytest

from bridgekit import ok_in as call
from bridgekit import without
from pellucid import bridge
from pellucid.workbench import fold_pieces

TIMES = ("fit_seconds", "predict_seconds", "fit_times", "predict_times", "timing")


def refused(session, cmd, **args):
    reply = json.loads(session.handle_json(cmd, json.dumps(args)))
    assert not reply["ok"] and reply["error"]["code"] == "data_error", reply
    return reply["error"]["message"]


def numeric_iris(folder):
    """iris with its classes as the numbers 0, 1, 2: a numeric target a classifier reads as classes."""
    session = bridge.Session()
    info = call(session, "load_example", name="iris")
    table = session.table(info["table_id"])
    species = table.column("species")
    codes = {name: i for i, name in enumerate(sorted(set(species)))}
    columns = [c for c in table.columns if c != "species"]
    lines = [",".join(columns + ["species"])]
    for i in range(table.n_rows):
        lines.append(",".join([repr(float(table.column(c)[i])) for c in columns] + [str(codes[species[i]])]))
    path = folder / "numeric_iris.csv"
    path.write_text("\n".join(lines) + "\n")
    return {"cmd": "load_csv", "path": str(path), "name": "numeric_iris.csv"}


def yes_no(folder):
    """Two classes written true and false (the reader keeps them as the words they are)."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(120, 2))
    label = np.where(x[:, 0] + 0.5 * x[:, 1] + rng.normal(0, 0.5, 120) > 0, "true", "false")
    path = folder / "yes_no.csv"
    path.write_text("a,b,flag\n" + "".join(f"{a!r},{b!r},{c}\n" for (a, b), c in zip(x.tolist(), label)))
    return {"cmd": "load_csv", "path": str(path), "name": "yes_no.csv"}


def loaded(source):
    """A fresh session (a worker, the page's own or one of the pool) with `source` loaded: (session, table id)."""
    session = bridge.Session()
    args = {key: value for key, value in source.items() if key != "cmd"}
    info = call(session, source["cmd"], **args)
    return session, info["table_id"], info["columns"]


KFOLD = {"method": "kfold", "k": 5, "seed": 3}

CASES = {
    "text classes, probabilities, stratified": (lambda folder: {"cmd": "load_example", "name": "iris"},
                                                {"target": "species", "model": "LogisticRegression",
                                                 "evaluation": KFOLD}),
    "numeric classes, plain folds": (numeric_iris, {"target": "species", "model": "DecisionTreeClassifier",
                                                    "evaluation": {**KFOLD, "stratify": False}}),
    "true and false, naive Bayes": (yes_no, {"target": "flag", "model": "GaussianNB",
                                             "evaluation": {**KFOLD, "k": 4}}),
    "no probabilities": (lambda folder: {"cmd": "load_example", "name": "moons", "n": 200},
                         {"target": "class", "model": "Perceptron", "evaluation": KFOLD}),
    "regression": (lambda folder: {"cmd": "load_example", "name": "line", "n": 150},
                   {"target": "y", "model": "KNeighborsRegressor", "evaluation": {**KFOLD, "k": 3}}),
    "regression, a network": (lambda folder: {"cmd": "load_example", "name": "line", "n": 120},
                              {"target": "y", "model": "MLPRegressor",
                               "params": {"max_iter": 30, "random_state": 1}, "evaluation": KFOLD}),
}


def without_times(value):
    return without(value, TIMES + ("model_id",))


def request_for(source, request):
    session, table_id, columns = loaded(source)
    features = [column for column in columns if column != request["target"]]
    return {**request, "features": features}


def made_in_pieces(source, request, order):
    """The training as the page's pool makes it: each fold in a worker of its own, `order` the order the
    pieces come back in, then `train` with them in the page's worker. (session, reply)."""
    pieces = []
    for index in order:
        session, table_id, _ = loaded(source)
        pieces.append(call(session, "train_fold", table_id=table_id, index=index, **request))
    session, table_id, _ = loaded(source)
    return session, call(session, "train", table_id=table_id, folds=pieces, **request)


def same_array(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype == object:
        assert [type(x) for x in a.tolist()] == [type(x) for x in b.tolist()] and a.tolist() == b.tolist()
    else:
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("case", list(CASES))
def test_fold_pieces_train_exactly_as_one_worker(case, tmp_path):
    source, request = CASES[case][0](tmp_path), CASES[case][1]
    request = request_for(source, request)
    one_session, table_id, _ = loaded(source)
    one = call(one_session, "train", table_id=table_id, **request)
    k = request["evaluation"]["k"]
    order = list(np.random.default_rng(len(case)).permutation(k))
    many_session, many = made_in_pieces(source, request, [int(i) for i in order])
    assert without_times(many) == without_times(one)
    assert len(many["timing"]) == len(one["timing"]) and many["cv"]["k"] == k
    kept_one = one_session.run(one["model_id"]).out_of_fold
    kept_many = many_session.run(many["model_id"]).out_of_fold
    for key in ("predicted", "fold"):
        same_array(kept_many[key], kept_one[key])
    for key in ("proba", "classes"):
        assert (kept_many[key] is None) == (kept_one[key] is None)
        if kept_one[key] is not None:
            same_array(kept_many[key], kept_one[key])
    exports = [call(s, "export_predictions", model_id=r["model_id"]) for s, r in ((one_session, one),
                                                                                  (many_session, many))]
    assert exports[0] == exports[1]


def test_the_folds_warnings_are_listed_as_one_worker_lists_them():
    source = {"cmd": "load_example", "name": "iris"}
    request = request_for(source, CASES["text classes, probabilities, stratified"][1])
    session, table_id, _ = loaded(source)
    one = call(session, "train", table_id=table_id, **request)
    _, many = made_in_pieces(source, request, [4, 2, 0, 1, 3])
    final_only = call(session, "train", table_id=table_id, **{**request, "evaluation": {"method": "none"}})
    assert set(one["warnings"]) > set(final_only["warnings"])  # the folds' warnings are there, not the last fit's alone
    assert many["warnings"] == one["warnings"]


def test_a_pieces_predictions_and_probabilities_cross_json_bit_for_bit():
    values = np.array([0.1 + 0.2, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1.7976931348623157e308])
    texts = np.array(["nan", "inf", "A", "b"], dtype=object)
    singles = np.array([0.1, np.nan, -np.inf, 3.4e38], dtype=np.float32)
    for predicted in (values, singles, texts, texts.astype(str), np.array([True, False]),
                      np.array([3, -1, 2**40], dtype=np.int64)):
        proba = np.array([[1 / 3, 2 / 3], [np.nan, np.inf]])
        piece = {"index": 0, "held_out": {"rows": 2, "sum": 1}, "predicted": predicted, "proba": proba,
                 "fit_seconds": 0.25, "predict_seconds": 0.5, "warnings": []}
        back = fold_pieces.received(json.loads(json.dumps([fold_pieces.sent(piece)], allow_nan=False)))[0]
        same_array(back["predicted"], predicted)
        same_array(back["proba"], proba)


def pieces_of(source, request, indices=None):
    session, table_id, _ = loaded(source)
    k = request["evaluation"]["k"]
    return [call(session, "train_fold", table_id=table_id, index=i, **request)
            for i in (range(k) if indices is None else indices)]


IRIS = {"cmd": "load_example", "name": "iris"}


@pytest.fixture(scope="module")
def iris_request():
    return request_for(IRIS, {"target": "species", "model": "GaussianNB", "evaluation": KFOLD})


@pytest.mark.parametrize("wrong, says", [
    (lambda p: p[:-1], "one piece for each of the 5 folds"),
    (lambda p: p[:-1] + p[:1], "one piece for each of the 5 folds"),
    (lambda p: [dict(piece, index=str(piece["index"])) for piece in p], "one piece for each"),
    (lambda p: p + p[:1], "one piece for each"),
    (lambda p: [dict(p[0], proba=None)] + p[1:], "probabilities"),
    (lambda p: [dict(p[0], predicted=dict(p[0]["predicted"], values=p[0]["predicted"]["values"][:-1]))] + p[1:],
     "predicts"),
    (lambda p: "not a list", "train_fold replies"),
])
def test_wrong_pieces_are_refused(iris_request, wrong, says):
    session, table_id, _ = loaded(IRIS)
    message = refused(session, "train", table_id=table_id, folds=wrong(pieces_of(IRIS, iris_request)),
                      **iris_request)
    assert says in message


def test_pieces_of_other_folds_are_refused(iris_request):
    other_seed = {**iris_request, "evaluation": {**KFOLD, "seed": 4}}
    session, table_id, _ = loaded(IRIS)
    message = refused(session, "train", table_id=table_id, folds=pieces_of(IRIS, other_seed), **iris_request)
    assert "held out other rows" in message
    three = {**iris_request, "evaluation": {**KFOLD, "k": 3}}
    assert "one piece for each of the 5 folds" in refused(session, "train", table_id=table_id,
                                                         folds=pieces_of(IRIS, three), **iris_request)


def test_fold_pieces_are_for_k_fold_only(iris_request):
    session, table_id, _ = loaded(IRIS)
    split = {**iris_request, "evaluation": {"method": "split"}}
    assert "k-fold" in refused(session, "train", table_id=table_id, folds=pieces_of(IRIS, iris_request), **split)
    assert "k-fold" in refused(session, "train_fold", table_id=table_id, index=0, **split)
    for index in (5, -1, True, 1.0):
        assert "index must be a fold's number" in refused(session, "train_fold", table_id=table_id, index=index,
                                                          **iris_request)
