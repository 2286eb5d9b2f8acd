"""Model files are input from outside: every field of every learner's file, damaged one way at a time, is
refused with a DataError about the model file, or read into a model that predicts; never another error, and
never more memory than a bound (each learner's files are tried in a child process under an address-space
limit, so an allocation of gigabytes fails there as a MemoryError, which the test counts as a failure).

A mutation deletes a field or an item, changes its type, makes it NaN, negative or huge, empties a list or
changes its length. Structural damage and NaN must be refused or change nothing the model predicts; a
plausible new value (a negated weight, a huge one) may give another model that still predicts well-formed
output. The mutations are sampled deterministically, so each learner's file is tried the same way every run.
"""

import json
import math
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PER_FORM = 70  # mutations tried per file form (small, packed) of each learner, sampled from all of them
MIN_MUTATIONS = 130  # each learner must have had at least this many mutations tried
MEMORY_LIMIT = 3 * 1024 ** 3  # bytes of address space the child may use (numpy alone maps a few hundred MB)
HANG_TIMEOUT = 300  # seconds: only catches a hang, never a slow run

# The kinds of damage: those after which the file must be refused or predict exactly as before, and those
# that may leave another valid model.
STRICT_KINDS = ("delete", "to_text", "to_object", "to_list", "nan", "empty", "shorter", "longer")
LOOSE_KINDS = ("negative", "huge", "huger", "zero")
# Parts a file may leave out (a model saved by to_dict alone has no "workbench" part, a run without
# preprocessing has none): without them, or with them unreadable as an object, the file is another valid one.
OPTIONAL_PARTS = {("workbench",), ("workbench", "preprocessing"), ("workbench", "kinds"), ("workbench", "target"),
                  ("workbench", "features")}

CSV = "\n".join(["x1,x2,colour,label,amount"] + [
    f"{(i * 7) % 11 / 3:.3f},{(i * 5) % 13 / 4 if i % 9 else '':},{'red green blue'.split()[i % 3]},"
    f"{'abc'[(i * 3 + i // 4) % 3]},{(i * 13) % 17 / 2:.2f}" for i in range(36)]) + "\n"
NEW_ROWS = "x1,x2,colour,label\n0.5,1.25,red,a\n2.0,,blue,b\n3.1,2.5,purple,c\n1.0,0.0,green,a\n"


def _train_file(learner, packed):
    """The exported model file (its JSON text) of `learner` trained on CSV, small or with every array
    packed (and a tree's nodes packed)."""
    from bridgekit import session_with_csv
    from pellucid.core import serialize
    from pellucid.core.settings import preprocessing_defaults  # a tree keeps x2's gaps: its file says where they go
    from pellucid.learners.tree import _base as tree_base
    import tempfile
    folder = Path(tempfile.mkdtemp())
    s = session_with_csv(folder, CSV)
    task = learner.task.value
    target = {"classification": "label", "regression": "amount"}.get(task)
    features = ["x1", "x2", "colour"] + ([] if target else ["label"])
    if learner.name == "MultinomialNB":
        features = ["x1", "colour"]
    reply = s.handle("train", {"table_id": s.table_id, "target": target, "features": features,
                               "model": learner.name, "evaluation": {"method": "none"},
                               "preprocessing": {"standardize": learner.scale_sensitive,
                                                 "impute": preprocessing_defaults(learner)["impute"]}})
    assert reply["ok"], reply
    model_id = reply["result"]["model_id"]
    saved = serialize.PACK_ABOVE, tree_base.PACK_NODES_ABOVE
    if packed:
        serialize.PACK_ABOVE, tree_base.PACK_NODES_ABOVE = 0, 0
    try:
        exported = s.handle("export_model", {"model_id": model_id})
    finally:
        serialize.PACK_ABOVE, tree_base.PACK_NODES_ABOVE = saved
    assert exported["ok"], exported
    return exported["result"]["json"], folder


def _paths(value, at=()):
    """Every place in a JSON value: (path, value), the root excluded."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield at + (key,), item
            yield from _paths(item, at + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield at + (i,), item
            yield from _paths(item, at + (i,))


def _kinds(value):
    """The mutations that apply to a value."""
    kinds = ["delete", "to_text", "to_object"]
    if not isinstance(value, list):
        kinds.append("to_list")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        kinds += ["nan", "negative", "huge", "huger", "zero"]
    if isinstance(value, str):
        kinds += ["nan", "huge"]
    if isinstance(value, list):
        kinds += ["empty", "shorter", "longer"]
    return kinds


def _mutated(value, kind):
    """`value` damaged as `kind` says (None for a deletion, done by the caller)."""
    if kind == "to_text":
        return "x"
    if kind == "to_object":
        return {"x": 1}
    if kind == "to_list":
        return [value]
    if kind == "nan":
        return math.nan
    if kind == "negative":
        return -value if value else -1
    if kind == "huge":
        return 1e9 if not isinstance(value, int) else 10 ** 9
    if kind == "huger":
        return 1e308
    if kind == "zero":
        return 0
    if kind == "empty":
        return []
    if kind == "shorter":
        return value[:-1]
    return value + value[-1:] if value else [0]


def _apply(text, path, kind):
    """The file `text` with damage `kind` at `path`, as JSON text (NaN written as JSON's reader takes it)."""
    d = json.loads(text)  # a fresh copy, quicker than a deep copy
    parent = d
    for key in path[:-1]:
        parent = parent[key]
    if kind == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = _mutated(parent[path[-1]], kind)
    return json.dumps(d)


def _mutations(d, n, seed):
    """Up to `n` (path, kind) pairs, sampled with `seed`, every kind that applies somewhere included."""
    every = [(path, kind) for path, value in _paths(d) for kind in _kinds(value)]
    rng = random.Random(seed)
    rng.shuffle(every)
    first = {}
    for pair in every:
        first.setdefault(pair[1], pair)
    chosen = list(first.values())
    chosen += [pair for pair in every if pair not in chosen][:max(0, n - len(chosen))]
    return chosen


def _strict(d, path, kind):
    """Whether the file must be refused, or predict as before, after damage `kind` at `path`: structural
    damage and NaN, but not a new text in place of a text (a class renamed), nor leaving out an optional
    part."""
    if kind not in STRICT_KINDS or (path in OPTIONAL_PARTS and kind in ("delete", "to_object", "to_text")):
        return False
    value = d
    for key in path:
        value = value[key]
    return not (kind == "to_text" and isinstance(value, str))


def _outcome(session, text, csv_path):
    """"refused" (a DataError about the file; or one about the new rows, which the model it describes
    does not read), or the predictions' CSV of the model the file describes."""
    from pellucid.core.errors import DataError
    try:
        model_id = session.import_model(json=text)["model_id"]
    except DataError as exc:
        assert exc.field == "model_file", f"{exc} (field {exc.field!r})"
        assert "incomplete or damaged" not in str(exc), f"no check named the field: {exc}"  # from_dict's net
        return "refused"
    try:
        return session.apply_model(model_id, csv_path, "new.csv")["csv"]
    except DataError:
        return "refused"


def run_learner(name):
    """{form: {kind: [tried, refused, same, other]}} for the learner `name`; raises on a wrong outcome."""
    from pellucid import bridge
    from pellucid.learners import registry
    learner = registry.get(name)
    counts, failures = {}, []
    for form in ("small", "packed"):
        text, folder = _train_file(learner, form == "packed")
        csv_path = str(folder / "new.csv")
        Path(csv_path).write_text(NEW_ROWS)
        session = bridge.Session()
        original = _outcome(session, text, csv_path)
        assert original != "refused"
        d = json.loads(text)
        for path, kind in _mutations(d, PER_FORM, seed=len(name) + len(form)):
            try:
                got = _outcome(session, _apply(text, path, kind), csv_path)
            except Exception as exc:  # noqa: BLE001 - any other error is what the test looks for
                failures.append(f"{form} file, {kind} at {path}: {type(exc).__name__}: {exc}")
                continue
            result = "refused" if got == "refused" else "same" if got == original else "other"
            if result == "other" and _strict(d, path, kind):
                failures.append(f"{form} file, {kind} at {path}: read, and predicts otherwise")
            tally = counts.setdefault(form, {}).setdefault(kind, {"tried": 0, "refused": 0, "same": 0, "other": 0})
            tally["tried"] += 1
            tally[result] += 1
            session.runs.clear()
    if failures:
        raise AssertionError(f"{name}: {len(failures)} damaged files were not refused cleanly:\n"
                             + "\n".join(failures[:30]))
    return counts


def _child(name):
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    print(json.dumps(run_learner(name)))


def _learner_names():
    sys.path.insert(0, str(ROOT / "py"))
    from pellucid.learners import registry
    return registry.names()


@pytest.mark.parametrize("name", _learner_names())
def test_every_damaged_field_is_refused_or_harmless(name):
    child = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, timeout=HANG_TIMEOUT,
                           cwd=ROOT, env={"PYTHONPATH": f"{ROOT / 'py'}:{ROOT / 'tests'}", "PATH": ""})
    assert child.returncode == 0, child.stderr[-4000:]
    counts = json.loads(child.stdout.strip().splitlines()[-1])
    total, refused, same, other = (sum(t[key] for form in counts.values() for t in form.values())
                                   for key in ("tried", "refused", "same", "other"))
    print(f"{name}: {total} mutations: {refused} refused, {same} predict as before, {other} another valid model; "
          + "; ".join(f"{form}: " + ", ".join(f"{k} {t['tried']}/{t['refused']}/{t['same']}/{t['other']}"
                                               for k, t in kinds.items()) for form, kinds in counts.items()))
    assert total >= MIN_MUTATIONS and refused > 0


# --- the cases that first showed the need, one by one -------------------------------------------------

def _knn_file():
    from pellucid import KNeighborsClassifier
    X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]]
    return KNeighborsClassifier(n_neighbors=3).fit(X, ["a", "b", "a", "b"]).to_dict(), X


def _refusal(d):
    from pellucid.core.errors import DataError
    from pellucid.workbench import exports
    with pytest.raises(DataError) as caught:
        exports.import_model(json.dumps(d))
    assert caught.value.field == "model_file"
    return str(caught.value)


def test_a_newer_format_version_is_refused_naming_both():
    d, _ = _knn_file()
    message = _refusal({**d, "version": 2})
    assert "format version 2" in message and "up to version 1" in message


def test_a_knn_file_without_its_rows_or_with_rows_of_another_type_is_refused():
    d, _ = _knn_file()
    state = d["state"]
    assert "state.X_fit_ is missing" in _refusal({**d, "state": {k: v for k, v in state.items() if k != "X_fit_"}})
    assert "state.X_fit_" in _refusal({**d, "state": {**state, "X_fit_": "rows"}})
    assert "state.y_fit_" in _refusal({**d, "state": {**state, "y_fit_": {**state["y_fit_"], "shape": [3]}}})
    assert "state" in _refusal({k: v for k, v in d.items() if k != "state"})


def test_more_neighbours_than_stored_rows_is_refused_before_predict():
    d, X = _knn_file()
    message = _refusal({**d, "params": {**d["params"], "n_neighbors": 10 ** 9}})
    assert "params.n_neighbors" in message and "4 training rows" in message
    from pellucid import KNeighborsClassifier
    from pellucid.core.base import from_dict
    expected = KNeighborsClassifier(n_neighbors=3).fit(X, ["a", "b", "a", "b"]).predict(X)
    assert from_dict(d).predict(X).tolist() == expected.tolist()  # the file as written still reads


def test_an_array_that_claims_a_huge_shape_is_refused_without_allocating():
    d, _ = _knn_file()
    rows = {"__packed__": "AAAAAAAAAAA=", "dtype": "float64", "shape": [10 ** 9, 10 ** 9]}
    assert "state.X_fit_" in _refusal({**d, "state": {**d["state"], "X_fit_": rows}})
    assert "unknown dtype" in _refusal({**d, "state": {**d["state"], "X_fit_": {**rows, "dtype": "U1000000000"}}})


def test_a_tree_whose_nodes_do_not_make_a_tree_is_refused():
    from pellucid.learners.tree import DecisionTreeClassifier
    tree = DecisionTreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]).to_dict()
    no_test = {k: v for k, v in tree["tree"].items() if k != "feature"}  # branches, but nothing to test
    assert "tree has branches but no feature" in _refusal({**tree, "tree": no_test})
    counted = {**tree["tree"], "counts": {"a": 2, "b": 3}}
    assert "tree.counts must add up" in _refusal({**tree, "tree": counted})


def test_packed_tree_nodes_with_impossible_numbers_are_refused(monkeypatch):
    import numpy as np
    from pellucid.core import serialize
    from pellucid.learners.tree import DecisionTreeRegressor
    from pellucid.learners.tree import _base as tree_base
    monkeypatch.setattr(tree_base, "PACK_NODES_ABOVE", 0)
    X = np.arange(12.0).reshape(6, 2)
    d = DecisionTreeRegressor().fit(X, [0.0, 1.0, 1.0, 2.0, 5.0, 8.0]).to_dict()

    def damaged(name, at, value):
        array = np.array(serialize.decode(d["nodes"][name]), dtype=float)  # stats: a list of rows
        array[at] = value
        return {**d, "nodes": {**d["nodes"], name: serialize.encode(array)}}
    assert "counts that are whole" in _refusal(damaged("stats", (0, 1), -5.0))  # a node of -5 rows
    assert "counts that are whole" in _refusal(damaged("stats", (0, 1), np.nan))
    assert "finite threshold" in _refusal(damaged("split_threshold", 0, np.nan))  # the root's test
    assert "values must hold finite" in _refusal(damaged("values", 1, np.inf))


if __name__ == "__main__":
    _child(sys.argv[1])
