"""Timeline frames (pellucid.workbench.steps, tree_steps, explain): they follow the raw trace and the notes'
worked examples: the restaurant root (Gain(Pat) = 0.541, Gain(Type) = 0), notes 000's perceptron pass, and
k-means iterations whose inertia never rises."""

import json
import math

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.errors import DataError
from pellucid.core.jsonable import plain
from pellucid.workbench import explain, steps
from pellucid.learners.tree.criteria import B
from pellucid.tabular.csvio import read_csv

SEED_CSV = b"f1,f2,y\n1,1,-1\n3,2,1\n2,4,1\n3,4,1\n2,3,-1\n"
session = bridge.Session()


def trained(example, model, target, params=None, **load):
    table = session.handle("load_example", {"name": example, **load})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": target, "features": None,
                                    "model": model, "params": params or {}})
    assert reply["ok"], reply
    return session.runs[reply["result"]["model_id"]], table


def test_B_is_the_notes_boolean_entropy():
    assert B(0.5) == 1.0 and B(0) == 0 and B(1) == 0
    assert B(2 / 6) == pytest.approx(-(1 / 3) * math.log2(1 / 3) - (2 / 3) * math.log2(2 / 3))


def test_restaurant_root_frame_has_the_notes_gains_and_formulas():
    run, _ = trained("restaurant", "DecisionTreeClassifier", "WillWait")
    tl = steps.timeline(run)
    root = tl["frames"][0]
    assert root["node"] == "root" and root["chosen"] == "Pat"
    assert round(root["candidates"]["Pat"], 3) == 0.541 and root["candidates"]["Type"] == pytest.approx(0)
    # the gain recomputed from the branch counts the frame lists (No/Yes per value)
    branches = {b["value"]: b["counts"] for b in root["breakdown"]["Pat"]["branches"]}
    assert branches == {"Full": [4, 2], "None": [2, 0], "Some": [0, 4]}
    again = B(6 / 12) - sum(sum(c) / 12 * B(c[1] / sum(c)) for c in branches.values())
    assert again == pytest.approx(root["candidates"]["Pat"])
    assert root["breakdown"]["Pat"]["text"] == "Gain(Pat) = B(6/12) − [6/12 B(2/6) + 2/12 B(0/2) + 4/12 B(4/4)] = 0.541"
    assert root["breakdown"]["Type"]["text"].endswith("= 0.000")
    assert root["math"][0]["text"] == "B(6/12) = 1.000"
    # frames follow the raw trace one to one
    raw = steps.refit_traced(run)[0].trace_
    assert [f["node"] for f in tl["frames"]] == [s["node"] for s in raw]
    json.dumps(plain(tl), allow_nan=False)


def test_gain_ratio_frames_show_the_gain_its_split_information_and_the_quotient():
    """Patrons at the restaurant root by gain ratio. By hand: Gain = B(6/12) - 6/12 B(2/6) = 1 - 0.4591479
    = 0.5408521; SplitInfo = H(6/12, 2/12, 4/12) = 0.5 + 0.4308271 + 0.5283208 = 1.4591479; GainRatio =
    0.5408521 / 1.4591479 = 0.3706630."""
    run, _ = trained("restaurant", "DecisionTreeClassifier", "WillWait", {"criterion": "gain_ratio"})
    tl = steps.timeline(run)
    assert tl["criterion"] == "gain_ratio" and tl["importance_label"] == "gain ratio"
    root = tl["frames"][0]
    assert root["candidates"]["Pat"] == pytest.approx(0.3706630, abs=1e-6)
    lines = [line["text"] for line in root["breakdown"]["Pat"]["lines"]]
    assert lines == ["Gain(Pat) = B(6/12) − [6/12 B(2/6) + 2/12 B(0/2) + 4/12 B(4/4)] = 0.541",
                     "SplitInfo(Pat) = H(6/12, 2/12, 4/12) = 1.459",
                     "GainRatio(Pat) = Gain(Pat) / SplitInfo(Pat) = 0.541 / 1.459 = 0.371"]
    assert root["breakdown"]["Pat"]["text"] == lines[-1]
    assert root["breakdown"]["Pat"]["tex"].startswith(r"\mathrm{GainRatio}(\text{Pat}) = \frac{")
    if root["chosen"] == "Pat":
        assert [m["text"] for m in root["math"][1:]] == lines
    # every frame's ratio is the model's IMPORTANCE, recomputed from the branch counts it lists
    for f in tl["frames"]:
        for attribute, parts in (f.get("breakdown") or {}).items():
            counts = [b["counts"] for b in parts["branches"]]
            node = np.sum(counts, axis=0)
            sizes = np.array([sum(c) for c in counts], dtype=float)
            shares = sizes[sizes > 0] / sizes.sum()
            gain = B(node[1] / node.sum()) - sum(sum(c) / node.sum() * B(c[1] / sum(c)) for c in counts if sum(c))
            info = -(shares * np.log2(shares)).sum()
            assert f["candidates"][attribute] == pytest.approx(gain / info if info > 0 else 0.0, abs=1e-12)
    json.dumps(plain(tl), allow_nan=False)


def test_every_frame_breakdown_matches_its_node_counts_and_the_tree_is_tagged_by_frame():
    run, _ = trained("restaurant", "DecisionTreeClassifier", "WillWait", {"prune": "chi2"})
    tl = steps.timeline(run)
    for f in tl["frames"]:
        if f["kind"] == "split":
            for parts in f["breakdown"].values():
                totals = np.sum([b["counts"] for b in parts["branches"]], axis=0).tolist()
                assert totals == [f["counts"][c] for c in tl["classes"]]
    assert tl["tree"]["frame"] == 0 and tl["tree"]["feature"] == "Pat"
    assert {c["frame"] for c in tl["tree"]["branches"].values()} <= set(range(len(tl["frames"])))
    prunes = [f for f in tl["frames"] if f["kind"] == "prune"]
    assert prunes and all("p-value" in f["math"][0]["text"] for f in prunes)
    pruned = [f["node"] for f in prunes if f["pruned"]]
    # bottom-up, the chi-squared tests remove the whole subtree under Pat = Full (and nothing else)
    assert pruned[-1] == "root/Pat=Full" and all(p.startswith("root/Pat=Full") for p in pruned)
    assert tl["tree"]["branches"]["Full"]["pruned_at"] == tl["frames"].index(
        next(f for f in prunes if f["node"] == "root/Pat=Full"))


def test_perceptron_frames_reproduce_seed_000_table():
    info = session.keep_table(read_csv(SEED_CSV), "seed.csv")
    reply = session.handle("train", {"table_id": info["table_id"], "target": "y", "features": None,
                                    "model": "Perceptron", "params": {"initial_weights": [-1, 0, 0], "max_iter": 1},
                                    "preprocessing": {"standardize": False}})  # the notes' raw units
    run = session.runs[reply["result"]["model_id"]]
    tl = steps.timeline(run)
    assert [f["score"] for f in tl["frames"]] == [-1, -1, 14, 17, 12]
    assert [f["correct"] for f in tl["frames"]] == [True, False, True, True, False]
    assert [f["weights"] for f in tl["frames"]] == [[-1, 0, 0], [-1, 0, 0], [0, 3, 2], [0, 3, 2], [0, 3, 2]]
    assert tl["frames"][-1]["weights_after"] == [-1, 1, -1]
    assert tl["frames"][1]["math"][1]["text"] == "w ← w + f(x) = [-1, 0, 0] + [1, 3, 2] = [0, 3, 2]"
    assert tl["points"] == {"x": [1.0, 3.0, 2.0, 3.0, 2.0], "y": [1.0, 2.0, 4.0, 4.0, 3.0], "label": [0, 1, 1, 1, 0]}


# Three classes, the notes' raw units: from zero weights the first row (class c) scores 0 everywhere, so
# every class's own perceptron says "mine" and all but c's are wrong.
THREE_CSV = b"f1,f2,y\n1,1,c\n3,2,a\n2,4,b\n3,4,a\n2,3,c\n"


@pytest.mark.parametrize("multiclass", ["ovr", "joint"])
def test_multiclass_perceptron_frames_write_the_update_they_made(multiclass):
    info = session.keep_table(read_csv(THREE_CSV), "three.csv")
    reply = session.handle("train", {"table_id": info["table_id"], "target": "y", "features": None,
                                    "model": "Perceptron", "params": {"max_iter": 1, "multiclass": multiclass},
                                    "preprocessing": {"standardize": False}})
    tl = steps.timeline(session.runs[reply["result"]["model_id"]])
    first = tl["frames"][0]
    assert first["score"] == [0, 0, 0] and first["predicted"] == "a" and first["y"] == "c"
    if multiclass == "ovr":
        assert first["targets"] == [-1, -1, 1]
        assert first["update"] == [[-1, -1, -1], [-1, -1, -1], [0, 0, 0]]
        assert first["change"] == "−f from a, b"
        assert first["math"][1]["text"] == "one-vs-rest: w_a −= f(x), w_b −= f(x)"
    else:
        assert first["update"] == [[-1, -1, -1], [0, 0, 0], [1, 1, 1]]
        assert first["change"] == "+f to c, −f from a"
    for frame in tl["frames"]:  # the update column says what the weights did
        moved = [any(u) for u in frame["update"]]
        assert (frame["change"] == "none") == (not any(moved)) == frame["correct"]


def test_kmeans_frames_inertia_never_rises_and_ends_at_the_model():
    run, _ = trained("blobs", "KMeans", None, {"n_clusters": 3}, n=200, seed=3)
    tl = steps.timeline(run)
    seeds = [f for f in tl["frames"] if f["kind"] == "seed"]
    iters = [f for f in tl["frames"] if f["kind"] == "iteration"]
    assert len(seeds) == 3 and seeds[0]["p_chosen"] is None
    assert all(0 < f["p_chosen"] <= 1 for f in seeds[1:])
    inertia = [f["inertia"] for f in iters]
    assert all(b <= a + 1e-9 for a, b in zip(inertia, inertia[1:]))
    assert inertia[-1] == pytest.approx(run.estimator.inertia_)
    assert sum(iters[-1]["sizes"]) == 200


def test_descent_frames_and_the_normal_equation():
    run, _ = trained("line", "LinearRegression", "y", {"solver": "gd", "learning_rate": 0.1, "max_iter": 5000},
                     n=60, seed=1)
    tl = steps.timeline(run)
    X = np.column_stack([np.ones(60), run.table.column("x")])
    exact = np.linalg.lstsq(X, run.table.column("y"), rcond=None)[0]
    np.testing.assert_allclose(tl["normal_equation"], exact, rtol=1e-8)
    losses = [f["loss"] for f in tl["frames"]]
    assert losses[0] > losses[-1] and tl["frames"][0]["weights"] == [0.0, 0.0]
    np.testing.assert_allclose(tl["frames"][-1]["weights"], exact, atol=1e-3)


def test_other_families_give_frames():
    fams = {("iris", "AgglomerativeClustering", None): "agglomerative", ("iris", "PCA", None): "pca",
            ("restaurant", "CategoricalNB", "WillWait"): "naive_bayes",
            ("iris", "LogisticRegression", "species"): "descent"}
    for (example, model, target), family in fams.items():
        run, _ = trained(example, model, target)
        tl = steps.timeline(run, row=2)
        assert tl["family"] == family and tl["frames"] and all("math" in f for f in tl["frames"])
    run, _ = trained("iris", "AgglomerativeClustering", None)
    assert len(steps.timeline(run)["frames"]) == 149


def test_knn_timeline_and_explain_list_the_nearest_rows():
    run, _ = trained("iris", "KNeighborsClassifier", "species", {"n_neighbors": 3})
    tl = steps.timeline(run, row=60)
    X = np.column_stack([run.table.column(c) for c in run.features])
    X = (X - X.mean(axis=0)) / X.std(axis=0)  # standardised on the training rows (all of them here)
    d = np.sqrt(((X - X[59]) ** 2).sum(axis=1))
    assert [f["row"] for f in tl["frames"][1:]] == (np.argsort(d, kind="stable")[:3] + 1).tolist()
    assert tl["frames"][1]["distance"] == 0.0


def test_explain_row_gives_the_tree_path_and_checks_the_row():
    run, _ = trained("restaurant", "DecisionTreeClassifier", "WillWait")
    ex = explain.explain_row(run, 1)  # x1: Pat = Some -> Yes
    assert ex["text"] == "Pat = Some → predict Yes" and ex["nodes"] == ["root", "root/Pat=Some"]
    ex = explain.explain_row(run, 2)  # x2: Full, Hun = Yes, Type = Thai, Fri = No -> No
    assert ex["text"] == "Pat = Full → Hun = Yes → Type = Thai → Fri = No → predict No"
    with pytest.raises(DataError, match="from 1 to 12"):
        explain.explain_row(run, 13)
    reply = session.handle("timeline", {"model_id": "m-none"})
    assert not reply["ok"] and "No model" in reply["error"]["message"]


def trained_on_gaps(tmp_path, model, target, seed, n, max_depth):
    """A tree trained on every row of a table whose a is missing at random and b where it is high (the gaps
    tell something about the label and the amount)."""
    rng = np.random.default_rng(seed)
    lines = ["a,b,label,amount"]
    for _ in range(n):
        a, b = rng.normal(), rng.normal()
        lines.append(f"{'NA' if rng.random() < 0.3 else f'{a:.3f}'},{'' if b > 0.5 else f'{b:.3f}'},"
                     f"{'p' if (a > 0) != (b > 0.5) else 'q'},{2 * a + (3 if b > 0.5 else b):.3f}")
    path = tmp_path / "gaps.csv"
    path.write_text("\n".join(lines) + "\n")
    table = session.handle("load_csv", {"path": str(path), "name": "gaps.csv"})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": target, "features": ["a", "b"],
                                     "model": model, "params": {"max_depth": max_depth},
                                     "evaluation": {"method": "none"}})
    assert reply["ok"], reply
    return session.runs[reply["result"]["model_id"]]


@pytest.mark.parametrize("model, target", [("DecisionTreeClassifier", "label"), ("DecisionTreeRegressor", "amount")])
def test_a_rows_path_follows_where_its_missing_numbers_go(tmp_path, model, target):
    """A row with a missing number takes the side its node sends missing values (learned where the node's
    rows had gaps, else the side of more rows): the explained path ends in the leaf the model predicts
    from, for every row, and says so in words."""
    run = trained_on_gaps(tmp_path, model, target, seed=2, n=300, max_depth=4)
    predicted = run.estimator.predict(run.model_input())
    said = set()
    for row in range(1, 301):
        ex = explain.explain_row(run, row)
        assert ex["prediction"] == pytest.approx(predicted[row - 1]), row
        said.update(step["test"] for step in ex["steps"] if step["value"] is None)
    assert any("or missing" in test or test.endswith("is missing") for test in said)


def test_the_steps_of_a_tree_with_gaps_count_every_row_on_the_side_it_went(tmp_path):
    """A split whose rows had gaps says the side they took ("<= t or missing"), its branches' counts add up
    to the node's, and each child's frame holds the rows its parent sent there."""
    tl = steps.timeline(trained_on_gaps(tmp_path, "DecisionTreeClassifier", "label", seed=4, n=200, max_depth=3))
    splits = [f for f in tl["frames"] if f["kind"] == "split"]
    assert any(f.get("missing") for f in splits)
    for f in splits:
        assert len(f["rows"]) == min(f["samples"], 200)  # every row of the node, gaps included
        branches = f["breakdown"][f["chosen"]]["branches"]
        totals = np.sum([b["counts"] for b in branches], axis=0).tolist()
        assert totals == [f["counts"][c] for c in tl["classes"]]
        if f.get("missing"):
            side = 0 if f["missing"] == "left" else 1
            assert branches[side]["value"].endswith("or missing")


def test_a_wide_table_writes_each_formula_once_and_leaves_the_numbers_to_the_per_feature_table(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 12)) * np.logspace(-2, 4, 12)
    header = ",".join(f"x{j}" for j in range(12)) + ",y"
    lines = [header] + [",".join(f"{v:.5g}" for v in row) + ("," + ("a" if row[0] > 0 else "b")) for row in X]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join(lines) + "\n")
    table = session.handle("load_csv", {"path": str(path), "name": "wide.csv"})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": "y", "features": None,
                                    "model": "Perceptron", "params": {"max_iter": 1}})
    run = session.runs[reply["result"]["model_id"]]
    tl = steps.timeline(run)
    mean, scale, constant = tl["standardized"]["x11"]
    assert mean == pytest.approx(X[:, 11].mean(), rel=1e-3) and scale > 1000  # the column's own scale
    assert constant is False
    for frame in tl["frames"]:
        texts = [m["text"] for m in frame["math"]]
        assert len(set(texts)) == len(texts) and all(len(t) < 80 for t in texts)  # no vector written out
        assert texts[0] == f"w · f(x) = Σ_j w_j f_j(x) = {steps.num(frame['score'])}"
