"""The bridge never fails with anything but a DataError, whatever the page sends: random bytes as a
CSV, random hyperparameter values for every model, random evaluation settings, random model files.
Every reply is strict JSON (no NaN, no infinity), as the page's worker needs."""

import json
import math
import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pellucid import bridge
from pellucid.core.settings import MAX_ROWS
from pellucid.workbench import menus

SESSION = bridge.Session()

# The table fixture is loaded per test (the bridge keeps one data set at a time) and stays the same
# across a test's examples, which only train on it.
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

TABLE_CSV = (
    "x1,x2,color,label,value\n"
    "1.0,2.5,red,yes,3.1\n2.0,1.5,blue,no,4.2\n3.5,0.5,red,yes,5.0\n0.5,3.0,green,no,2.2\n"
    "4.0,2.0,blue,yes,6.3\n2.5,2.5,green,no,4.4\n1.5,0.0,red,yes,2.9\n3.0,3.5,blue,no,5.8\n"
    "0.0,1.0,green,yes,1.7\n4.5,1.0,red,no,6.9\n2.2,2.2,blue,yes,4.0\n3.8,0.8,green,no,5.5\n"
)


def call(cmd, **args):
    """The reply, checked: ok or a DataError, and strict JSON either way."""
    reply = SESSION.handle(cmd, args)
    json.dumps(reply, allow_nan=False)
    assert reply["ok"] or reply["error"]["type"] == "DataError", reply["error"].get("traceback", reply)
    return reply


def write_temp(data):
    handle, path = tempfile.mkstemp(suffix=".csv")
    with os.fdopen(handle, "wb") as f:
        f.write(data)
    return path


def load(data, **extra):
    path = write_temp(data)
    try:
        return call("load_csv", path=path, name="random.csv", **extra)
    finally:
        os.remove(path)


@pytest.fixture
def table_id():
    reply = load(TABLE_CSV.encode())
    assert reply["ok"], reply
    return reply["result"]["table_id"]


MENU = {m["name"]: m for m in menus.models()}

# ---- CSV input ---------------------------------------------------------------------------------------

CELLS = st.one_of(st.sampled_from(["", "NA", "?", "1", "-2.5", "1e400", "nan", "inf", "a", "b c", '"q,"',
                                   '"x""y"', '"open', "é", "\t", " "]),
                  st.text(max_size=6), st.floats(allow_nan=True).map(str))
MESSY_CSV = st.lists(st.lists(CELLS, min_size=0, max_size=5), min_size=0, max_size=8).flatmap(
    lambda rows: st.sampled_from([",", ";", "\t"]).flatmap(
        lambda sep: st.sampled_from(["\n", "\r\n", "\r"]).map(
            lambda end: end.join(sep.join(row) for row in rows))))


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_load_or_give_a_data_error(data):
    reply = load(data)
    if reply["ok"]:
        assert reply["result"]["n_rows"] >= 1


@SETTINGS
@given(MESSY_CSV, st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_messy_csv_text_loads_or_gives_a_data_error(text, encoding):
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    reply = load(data)
    if reply["ok"]:
        info = reply["result"]
        assert len(info["columns"]) == len(info["kinds"]) and info["n_rows"] >= 1


@SETTINGS
@given(st.one_of(st.none(), st.integers(-5, 10**9), st.floats(allow_nan=True), st.text(max_size=5),
                 st.lists(st.integers(), max_size=2)))
def test_any_max_bytes_gives_ok_or_a_data_error(max_bytes):
    load(b"a,b\n1,2\n", max_bytes=max_bytes)


# ---- hyperparameters ---------------------------------------------------------------------------------

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 300), st.sampled_from([2**31, -(2**40), 10**30]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0]),
    st.text(max_size=8), st.lists(st.one_of(st.integers(-3, 3), st.floats(-3, 3), st.text(max_size=3)), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def target_for(model):
    task = MENU[model]["task"]
    return {"classification": "label", "regression": "value"}.get(task)


# A step count in the billions is valid and just takes that long (the page's Cancel stops it).
STEP_COUNTS = {"max_iter", "n_init"}


def _quick(params):
    return {k: v for k, v in params.items() if not (k in STEP_COUNTS and isinstance(v, (int, float))
                                                     and not isinstance(v, bool) and abs(v) > 5000)}


def param_dicts(model):
    names = [p["name"] for p in MENU[model]["params"]]
    keys = st.one_of(st.sampled_from(names), st.sampled_from(["trace", "seed", "bogus"]))
    return st.dictionaries(keys, VALUES, max_size=4).map(_quick)


@pytest.mark.parametrize("model", list(MENU))
def test_random_hyperparameters_give_ok_or_a_data_error(table_id, model):
    @SETTINGS
    @given(param_dicts(model))
    def check(params):
        reply = call("train", table_id=table_id, target=target_for(model), features=["x1", "x2", "color"],
                     model=model, params=params, evaluation={"method": "none"})
        if not reply["ok"]:
            assert reply["error"]["message"].strip()

    check()


# ---- evaluation settings -----------------------------------------------------------------------------

EVALUATIONS = st.one_of(
    VALUES,
    st.fixed_dictionaries({}, optional={
        "method": st.one_of(st.sampled_from(["split", "kfold", "none", "loo"]), VALUES),
        "train": VALUES, "validation": VALUES, "test": VALUES, "k": VALUES, "stratify": VALUES,
        "seed": VALUES}),
    st.builds(lambda t, v, s, k, seed, strat: {"method": "split", "train": t, "validation": v, "test": s,
                                              "k": k, "seed": seed, "stratify": strat},
              st.integers(0, 100), st.integers(0, 100), st.integers(0, 100), st.integers(-2, 30),
              st.integers(-2, 5), st.booleans()),
    st.builds(lambda k, strat: {"method": "kfold", "k": k, "stratify": strat}, st.integers(-2, 30), st.booleans()),
)


@SETTINGS
@given(EVALUATIONS, st.sampled_from(["DecisionTreeClassifier", "LinearRegression", "KMeans", "PCA"]))
def test_random_evaluation_settings_give_ok_or_a_data_error(table_id, evaluation, model):
    call("train", table_id=table_id, target=target_for(model), features=None, model=model, params={},
         evaluation=evaluation)


# ---- model files -------------------------------------------------------------------------------------

HASHLIKE = st.one_of(
    st.text(max_size=60),
    st.from_regex(r"\A[0-9a-f]{0,64}\Z"),
    st.from_regex(r"\A#?([a-z_]{1,8}=[^&]{0,8}&?){0,5}\Z"),
    st.builds(json.dumps, st.dictionaries(st.sampled_from(["class", "params", "state", "version", "workbench",
                                                           "model", "features", "x"]), VALUES, max_size=5)),
    st.builds(lambda name, params: json.dumps({"class": name, "params": params}),
              st.sampled_from(list(MENU) + ["Estimator", "object", ""]),
              st.dictionaries(st.text(max_size=6), VALUES, max_size=3)),
)


@SETTINGS
@given(HASHLIKE)
def test_random_model_files_give_a_data_error(text):
    reply = call("import_model", json=text)
    assert not reply["ok"]


@SETTINGS
@given(st.one_of(VALUES, st.binary(max_size=20)))
def test_import_model_of_any_value_gives_a_data_error(value):
    reply = call("import_model", json=value if not isinstance(value, bytes) else value.decode("latin-1"))
    assert not reply["ok"]


# ---- examples hypothesis found (each was a TypeError before it was fixed) ----------------------------

@pytest.mark.parametrize("max_bytes", ["", None, 1.5, True, 0])
def test_load_csv_refuses_a_bad_size_limit_with_a_data_error(max_bytes):
    reply = load(b"a,b\n1,2\n", max_bytes=max_bytes)
    assert not reply["ok"] and "max_bytes must be a whole number" in reply["error"]["message"]


@pytest.mark.parametrize("evaluation", [True, 3, "split", ["split"]])
def test_train_refuses_evaluation_settings_that_are_not_a_dict(table_id, evaluation):
    reply = call("train", table_id=table_id, target="label", features=None, model="DecisionTreeClassifier",
                 params={}, evaluation=evaluation)
    assert not reply["ok"] and "evaluation must be settings" in reply["error"]["message"]


# ---- the row limit -----------------------------------------------------------------------------------

def test_load_csv_refuses_more_rows_than_the_limit_saying_how_many():
    text = "a,b\n" + "1,2\n" * 2500
    reply = load(text.encode(), max_rows=1000)
    message = reply["error"]["message"]
    assert not reply["ok"]
    assert "about 2,500 rows" in message and "the limit here is 1,000 rows" in message and "sample" in message
    assert load(text.encode(), max_rows=2500)["result"]["n_rows"] == 2500
    assert MAX_ROWS >= 100_000  # a 100,000-row file is what the page is built for


@pytest.mark.parametrize("model,params", [("LinearRegression", {"l2": math.inf}),
                                          ("LogisticRegression", {"l2": math.inf}),
                                          ("KernelRegression", {"l2": -math.inf})])
def test_an_infinite_hyperparameter_is_a_data_error(table_id, model, params):
    # l2 = inf passed the rule (no upper end) and made numpy's least squares raise LinAlgError
    reply = call("train", table_id=table_id, target=target_for(model), features=None, model=model,
                 params=params, evaluation={"method": "none"})
    assert not reply["ok"] and reply["error"]["type"] == "DataError"
    assert "'l2' must be a number" in reply["error"]["message"]


@pytest.mark.parametrize("weights", ["", {}])
def test_initial_weights_that_are_not_a_list_are_a_data_error(table_id, weights):
    # an empty string or dict passed the Vector rule and made numpy raise ValueError / TypeError
    reply = call("train", table_id=table_id, target="label", features=None, model="Perceptron",
                 params={"initial_weights": weights}, evaluation={"method": "none"})
    assert not reply["ok"] and "must be a list of numbers" in reply["error"]["message"]


@pytest.mark.parametrize("seed", [math.inf, -math.inf, math.nan])
def test_a_non_finite_evaluation_number_is_a_data_error(table_id, seed):
    # int(inf) raised OverflowError (and int(nan) ValueError) inside the check
    for evaluation in ({"method": "split", "seed": seed}, {"method": "kfold", "k": seed}):
        reply = call("train", table_id=table_id, target="label", features=None, model="DecisionTreeClassifier",
                     params={}, evaluation=evaluation)
        assert not reply["ok"] and "must be a whole number" in reply["error"]["message"]
