"""The worker's binary replies (host/wire.py): bulk numbers leave the JSON text as arrays, and what the
page revives from them is exactly the reply the JSON path gives."""

import json

import numpy as np

from pellucid import bridge
from pellucid.host import wire
from pellucid.host.wire import BULK_MIN, pack, unpack

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "stratify": True, "seed": 0}


def both_paths(session, cmd, **args):
    """(the JSON reply, the binary reply revived as the page revives it, the binary reply's arrays)."""
    plain_reply = json.loads(session.handle_json(cmd, json.dumps(args)))
    text, bulk = session.handle_binary(cmd, json.dumps(args))
    return plain_reply, unpack(json.loads(text), bulk), bulk


def test_a_train_and_boundary_reply_revive_to_the_json_reply():
    session = bridge.Session()
    table_id = session.handle("load_example", {"name": "iris"})["result"]["table_id"]
    train = dict(table_id=table_id, target="species", features=None, model="KNeighborsClassifier",
                 params={}, evaluation=SPLIT)
    plain_reply, revived, bulk = both_paths(session, "train", **train)
    assert revived["ok"] and revived["result"]["predictions"] == plain_reply["result"]["predictions"]
    differs = {"model_id", "timing"}  # a new model each time, fitted in its own time
    assert {k: v for k, v in revived["result"].items() if k not in differs} == \
        {k: v for k, v in plain_reply["result"].items() if k not in differs}
    assert bulk == []  # 150 rows: below BULK_MIN, everything stays JSON
    model_id = plain_reply["result"]["model_id"]
    plain_grid, revived_grid, bulk = both_paths(session, "boundary", model_id=model_id,
                                                x="petal length (cm)", y="petal width (cm)", resolution=40)
    assert revived_grid == plain_grid
    kinds = {a.dtype for a in bulk}
    assert len(bulk) >= 2 and kinds <= {np.dtype(np.int32), np.dtype(np.float64)}  # predicted, probability
    text, _ = session.handle_binary("boundary", json.dumps(dict(model_id=model_id, x="petal length (cm)",
                                                                y="petal width (cm)", resolution=40)))
    packed = json.loads(text)["result"]
    assert set(packed["predicted"]) == set(packed["probability"]) == {"__bulk__"}  # the 1,600 cells are not text


def test_large_arrays_become_typed_buffers_and_labels_become_codes():
    n = BULK_MIN + 5
    rng = np.random.default_rng(0)
    reply = {"rows": np.arange(1, n + 1), "score": rng.normal(size=n),
             "split": np.array(["train", "test"], dtype=object)[rng.integers(0, 2, n)],
             "small": np.arange(3), "nested": [{"big": np.ones(n, dtype=np.float32)}]}
    bulk = []
    packed = pack(reply, bulk)
    assert packed["rows"] == {"__bulk__": 0} and bulk[0].dtype == np.int32
    assert packed["split"]["__labels__"] == ["test", "train"]
    assert packed["small"] == [0, 1, 2]
    assert bulk[-1].dtype == np.float32 and bulk[-1].flags.c_contiguous
    assert unpack(json.loads(json.dumps(packed)), bulk) == json.loads(json.dumps(wire.plain(reply)))


def test_arrays_the_page_must_see_as_json_stay_lists():
    n = BULK_MIN
    with_gap = np.ones(n)
    with_gap[3] = np.nan  # JSON's null, which a Float64Array would read as NaN
    mixed = np.array(["a"] * (n - 1) + [None], dtype=object)
    numbers_as_labels = np.array([1.5] * n, dtype=object)
    huge = np.array([2 ** 40] * n)
    bulk = []
    packed = pack({"gap": with_gap, "mixed": mixed, "numbers": numbers_as_labels, "huge": huge}, bulk)
    assert packed["gap"][3] is None and packed["mixed"][-1] is None and packed["numbers"][0] == 1.5
    assert bulk[0].dtype == np.float64 and unpack(packed["huge"], bulk) == [2 ** 40] * n  # beyond int32


def test_a_long_text_goes_as_its_utf8_bytes_and_a_short_one_as_text():
    long_text = "naïve,Ωmega\n" * (wire.TEXT_MIN // 12 + 1)
    bulk = []
    packed = pack({"csv": long_text, "filename": "data.csv"}, bulk)
    assert packed == {"csv": {"__utf8__": 0}, "filename": "data.csv"}
    assert bulk[0].dtype == np.uint8 and bulk[0].tobytes() == long_text.encode("utf-8")
    assert unpack(json.loads(json.dumps(packed)), bulk) == {"csv": long_text, "filename": "data.csv"}


def test_an_exported_file_of_a_large_table_revives_to_the_json_reply():
    session = bridge.Session()
    table_id = session.handle("load_example", {"name": "breast_cancer"})["result"]["table_id"]
    train = session.handle("train", {"table_id": table_id, "target": "diagnosis", "features": None,
                                     "model": "GaussianNB", "evaluation": SPLIT})["result"]
    plain_reply, revived, bulk = both_paths(session, "export_predictions", model_id=train["model_id"])
    assert revived == plain_reply
    assert any(a.dtype == np.uint8 for a in bulk)  # the CSV's bytes


def test_lists_of_plain_numbers_skip_the_walk_and_every_other_list_is_walked(monkeypatch):
    """A long list of Python ints and finite floats (or of such rows), as tolist() writes a fold's
    predictions and probabilities, goes out as it is; a NaN, a numpy scalar or text anywhere in it, even
    far down, sends it through the walk, which writes what `plain` writes."""
    n = BULK_MIN + 50
    rng = np.random.default_rng(1)
    rows = rng.random((n, 3)).tolist()
    numbers = [1, 2.5] * (n // 2)
    walked = []
    original = wire.plain
    monkeypatch.setattr(wire, "plain", lambda value: walked.append(value) or original(value))
    for value in (rows, numbers):
        walked.clear()
        assert pack(value, []) is value and walked == []
    late_nan, late_numpy, late_text = list(numbers), list(numbers), rng.random((n, 2)).tolist()
    late_nan[-1], late_numpy[-1], late_text[-1][1] = float("nan"), np.int64(7), "seven"
    for value in (late_nan, late_numpy, late_text):
        packed = pack(value, [])
        assert packed is not value
        assert json.dumps(packed, allow_nan=False) == json.dumps(original(value), allow_nan=False)
    assert pack(late_nan, [])[-1] is None and pack(late_numpy, [])[-1] == 7


def test_numeric_arrays_convert_in_one_step_as_the_walk_would():
    """plain and tagged read a finite numeric array with one tolist(); with a NaN or infinity they walk
    it, writing null (plain) or the tag (tagged)."""
    from pellucid.core.jsonable import plain, tagged
    rng = np.random.default_rng(2)
    for array in (rng.normal(size=(40, 3)), np.arange(9, dtype=np.int8), np.array([True, False]),
                  rng.normal(size=7).astype(np.float32)):
        assert plain(array) == tagged(array) == array.tolist()
        assert all(type(v) in (int, float, bool) for v in np.ravel(np.array(plain(array), dtype=object)))
    gaps = np.array([[1.0, np.nan], [np.inf, -np.inf]])
    assert plain(gaps) == [[1.0, None], [None, None]]
    assert tagged(gaps) == [[1.0, "nan"], ["inf", "-inf"]]
