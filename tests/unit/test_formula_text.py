"""Formulas never write a negative zero, a constant column's standardisation says it is constant, and a
column named like a formula symbol ("z", "w", "B") is quoted where a formula writes its name
(pellucid.workbench.formula_text and the step builders that use it)."""

import numpy as np

from bridgekit import session_with_csv
from pellucid.preprocessing.scaler import StandardScaler
from pellucid.tabular.table import Table
from pellucid.workbench import frames, steps
from pellucid.workbench.formula_text import fixed, name_tex, name_text, symbol_like


def test_fixed_drops_the_sign_of_a_zero_only():
    assert fixed(-0.0, ".3f") == "0.000" and fixed(-0.0004, ".3f") == "0.000"
    assert fixed(-0.0, ".4g") == "0" and fixed(-1e-20, ".4g") == "-1e-20"  # not zero: the sign stays
    assert fixed(-0.5, ".3f") == "-0.500" and fixed(0.25, ".2f") == "0.25"
    assert frames.num(-0.0) == "0" and frames.num(-0.0001) == "0.000" and frames.num(-2.5) == "-2.500"


def test_symbol_like_names_are_quoted_others_are_not():
    for name in ("z", "x", "w", "b", "B", "H", "x1", "x_2", "β", "Gain"):
        assert symbol_like(name), name
        assert name_text(name) == f"“{name}”"
    for name in ("Pat", "age", "x y", "12", "WillWait"):
        assert not symbol_like(name), name
        assert name_text(name) == name
    assert name_tex("z") == r"\text{“z”}" and name_tex("a_b") == r"\text{a\_b}"


def _tree_timeline(tmp_path, text):
    session = session_with_csv(tmp_path, text)
    reply = session.handle("train", {"table_id": session.table_id, "target": "y", "features": None,
                                     "model": "DecisionTreeClassifier", "params": {}})
    assert reply["ok"], reply
    return steps.timeline(session.runs[reply["result"]["model_id"]])


def test_a_pure_node_and_a_symbol_named_column_read_right_in_the_tree(tmp_path):
    rows = ["z,k,y"] + [f"a,1,{c}" for c in "nnnyyyy"] + ["b,1,n"] * 7  # k (constant) lets the header show
    tl = _tree_timeline(tmp_path, "\n".join(rows) + "\n")
    texts = [m["text"] for f in tl["frames"] for m in f.get("math", [])]
    texts += [b["text"] for f in tl["frames"] for b in (f.get("breakdown") or {}).values()]
    assert texts and not any("-0.000" in t or "= -0" in t for t in texts), texts
    assert any(t.startswith("Gain(“z”) = ") for t in texts), texts
    assert any("B(0/7) = 0.000" in t for t in texts), texts
    root = tl["frames"][0]
    assert r"\text{“z”}" in root["breakdown"]["z"]["tex"]


def test_a_constant_column_is_marked_constant():
    table = Table({"c": np.array([5.0, 5.0, 5.0]), "v": np.array([1.0, 2.0, 3.0])})
    scaler = StandardScaler().fit(table)
    assert scaler.constant_ == ["c"] and scaler.scale_["c"] == 1.0


def test_the_standardize_step_names_constant_columns(tmp_path):
    session = session_with_csv(tmp_path, "c,v,y\n" + "".join(f"5,{i},{i % 2}\n" for i in range(20)))
    reply = session.handle("train", {"table_id": session.table_id, "target": "y", "features": None,
                                     "model": "KNeighborsClassifier", "params": {}})
    assert reply["ok"], reply
    step = next(s for s in reply["result"]["preprocessing"] if s["step"] == "standardize")
    assert dict(zip(step["columns"], step["constant"])) == {"c": True, "v": False}
    assert frames.standardized(session.runs[reply["result"]["model_id"]])["c"][2] is True
