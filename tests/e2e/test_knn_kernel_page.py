"""k-NN trained in the page, where its search runs through the WebAssembly kernel (web/wasm/knn.wat),
predicts exactly what the same training predicts natively with numpy: 20 numeric features (the KD-tree
gives up and every training row is scored) and 2,100 training rows, enough for the kernel."""

import numpy as np
import pytest

from pagekit import wait_until_ready
from pellucid import bridge

pytestmark = pytest.mark.e2e
SETUP = {"target": "label", "model": "KNeighborsClassifier", "params": {"n_neighbors": 5},
         "evaluation": {"method": "split", "train": 70, "validation": 0, "test": 30}}


def table_csv(rows=3000, features=20, seed=3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(3, features))
    labels = rng.integers(0, 3, size=rows)
    X = centres[labels] + 1.5 * rng.normal(size=(rows, features))
    X[:40] = X[40:80]  # duplicated rows: ties broken by training row
    header = ",".join([f"f{j}" for j in range(features)] + ["label"])
    lines = [",".join([*(f"{v:.6g}" for v in row), f"class{c}"]) for row, c in zip(X, labels)]
    return "\n".join([header, *lines]) + "\n"


def test_page_knn_predicts_what_native_knn_predicts(page, site_url, tmp_path):
    requested = []
    page.context.on("request", lambda request: requested.append(request.url))
    csv = table_csv()
    features = [f"f{j}" for j in range(20)]
    page.goto(site_url)
    wait_until_ready(page)
    in_page = page.evaluate("""async ([csv, setup, features]) => {
        const { python } = await import(new URL("js/python.js", location.href));  // the page's own client
        const table = await python.call("load_csv", { path: new TextEncoder().encode(csv).buffer, name: "knn.csv" });
        const run = await python.call("train", { table_id: table.table_id, features, ...setup });
        const exported = await python.call("export_predictions", { model_id: run.model_id });
        // a long text arrives as its UTF-8 bytes, which the page saves as they are
        return { bytes: exported.csv instanceof Uint8Array, csv: new TextDecoder().decode(exported.csv) };
    }""", [csv, SETUP, features])

    session = bridge.Session()
    path = tmp_path / "knn.csv"
    path.write_text(csv)
    table = session.load_csv(str(path), name="knn.csv")
    run = session.train(table["table_id"], features=features, **SETUP)
    native = session.export_predictions(run["model_id"])

    assert in_page["bytes"]
    assert in_page["csv"].splitlines()[0].endswith("P(class2)")
    assert in_page["csv"] == native["csv"]  # predictions and vote shares of every row, both splits
    assert any(url.endswith("/wasm/knn.wasm") for url in requested), "the page did not load the kernel"
