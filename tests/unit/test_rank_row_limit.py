"""Compare learners on a table above a learner's row limit: without the sample the learner is left out with
the reason (not listed as a failure); with it, the learner ranks on the seeded sample `train` would draw,
its row marked, while the reply's rows, split and baseline stay those of the whole table."""

import numpy as np
import pytest

from pellucid import bridge
from pellucid.learners import registry

LIMIT = registry.get("KernelPerceptron").max_rows


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    rng = np.random.default_rng(3)
    n = LIMIT + 400
    X = rng.normal(size=(n, 2))
    labels = np.where(X[:, 0] * X[:, 1] > 0, "same", "other")  # XOR-like: a kernel learns it, naive Bayes not
    path = tmp_path_factory.mktemp("rank") / "tall.csv"
    path.write_text("a,b,label\n" + "".join(f"{a:.4f},{b:.4f},{y}\n" for (a, b), y in zip(X, labels)))
    s = bridge.Session()
    s.table_id = s.handle("load_csv", {"path": str(path), "name": "tall.csv"})["result"]["table_id"]
    s.n = n
    return s


def rank(session, sample):
    reply = session.handle("rank_learners", {
        "table_id": session.table_id, "target": "label", "features": ["a", "b"],
        "learners": ["GaussianNB", "KernelPerceptron"], "evaluation": {"method": "split", "seed": 4},
        "sample": sample})
    assert reply["ok"], reply
    return reply["result"]


def test_without_the_sample_the_limited_learner_is_left_out_with_the_reason(session):
    reply = rank(session, False)
    ranked, left_out = reply["rows"]
    assert ranked["model"] == "GaussianNB" and ranked["rank"] == 1 and ranked["sample"] is None
    assert left_out == {"model": "KernelPerceptron", "label": "Kernel perceptron", "params": {}, "rank": None,
                        "left_out": f"works on up to {LIMIT:,} rows; this table has {session.n:,}. Use a sample for "
                                    f"learners with a row limit to rank it on {LIMIT:,} rows."}
    assert "error" not in left_out
    assert reply["n_rows"] == round(session.n * 0.3)  # the whole table's test rows


def test_with_the_sample_it_ranks_on_the_sample_train_would_draw(session):
    reply = rank(session, True)
    rows = {row["model"]: row for row in reply["rows"]}
    kernel, bayes = rows["KernelPerceptron"], rows["GaussianNB"]
    assert kernel["sample"] == {"rows": LIMIT, "of": session.n, "seed": 4}
    assert kernel["n_rows"] == round(LIMIT * 0.3) and bayes["n_rows"] == round(session.n * 0.3)
    assert bayes["sample"] is None
    # The kernel learns the XOR-like classes that naive Bayes cannot: it ranks first, on its sample.
    assert [row["model"] for row in reply["rows"]] == ["KernelPerceptron", "GaussianNB"]
    assert kernel["scores"]["accuracy"]["mean"] > bayes["scores"]["accuracy"]["mean"] + 0.2
    # The reply's scored rows and baseline are the whole table's, not the sample's.
    assert reply["n_rows"] == bayes["n_rows"]
    # Its score is that of `train` with the same settings and the sample: the model the page opens.
    trained = session.handle("train", {"table_id": session.table_id, "target": "label", "features": ["a", "b"],
                                       "model": "KernelPerceptron", "evaluation": {"method": "split", "seed": 4},
                                       "sample": True})["result"]
    assert trained["sample"] == kernel["sample"]
    assert trained["metrics"]["test"]["accuracy"] == pytest.approx(kernel["scores"]["accuracy"]["mean"])
