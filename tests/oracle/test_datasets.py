"""The packaged data sets (against scikit-learn's copies) and the 2-D generators."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import datasets as skd

from pellucid.tabular import datasets, generators
from pellucid.tabular.csvio import read_csv
from pellucid.core.errors import DataError


@pytest.mark.parametrize("loader, sk_loader, target", [
    (datasets.load_iris, skd.load_iris, "species"),
    (datasets.load_wine, skd.load_wine, "class"),
    (datasets.load_breast_cancer, skd.load_breast_cancer, "diagnosis"),
])
def test_uci_files_equal_scikit_learns_copies(loader, sk_loader, target):
    ours, theirs = loader(), sk_loader()
    assert ours.feature_names == list(theirs.feature_names)
    assert ours.target_name == target
    np.testing.assert_array_equal(ours.X.astype(float), theirs.data)  # the text reads back exactly
    assert ours.y.tolist() == theirs.target_names[theirs.target].tolist()
    table = read_csv(ours.csv_text.encode())
    assert all(table.kinds[name] == "numeric" for name in ours.feature_names)
    assert table.kinds[target] == "categorical" and table.n_rows == len(theirs.data)


def test_registry_names_the_target_of_every_example():
    # iris opens the page: 150 rows give a held-out score on 45; the notes' small tables follow it.
    assert list(datasets.EXAMPLES) == ["iris", "restaurant", "play_tennis", "wine", "breast_cancer"]
    for example in datasets.EXAMPLES.values():
        data = example.loader()
        assert data.target_name == example.target
        assert example.description.endswith((".", "?")) and example.label


def test_data_readme_gives_every_file_a_source_and_licence():
    from importlib import resources
    text = resources.files("pellucid").joinpath("data", "README.md").read_text()
    for name in ("restaurant.csv", "play_tennis.csv", "iris.csv", "wine.csv", "breast_cancer.csv"):
        assert name in text
    assert "BSD-3" in text and "Quinlan" in text and "penguins" in text.lower()


# --- generators -------------------------------------------------------------------------------------

CLASSIFICATION = ["blobs", "moons", "circles", "xor", "spiral"]


@pytest.mark.parametrize("name", CLASSIFICATION + ["line"])
def test_generators_are_deterministic_for_a_seed(name):
    a = generators.generate(name, n=200, noise=0.3, seed=7)
    b = generators.generate(name, n=200, noise=0.3, seed=7)
    c = generators.generate(name, n=200, noise=0.3, seed=8)
    assert a.to_csv() == b.to_csv()
    assert a.to_csv() != c.to_csv()
    assert a.n_rows == 200


@pytest.mark.parametrize("name, k", [("blobs", 3), ("moons", 2), ("circles", 2), ("xor", 2), ("spiral", 2)])
def test_classification_generators_give_x1_x2_and_balanced_classes(name, k):
    table = generators.generate(name, n=301, noise=0.1, seed=0)
    assert table.columns == ["x1", "x2", "class"]
    assert table.kinds == {"x1": "numeric", "x2": "numeric", "class": "categorical"}
    _, counts = np.unique(table.column("class"), return_counts=True)
    assert len(counts) == k and counts.max() - counts.min() <= 1


def test_noiseless_shapes_are_exact():
    circles = generators.circles(n=100, noise=0, seed=1)
    radius = np.hypot(circles.column("x1"), circles.column("x2"))
    labels = circles.column("class")
    np.testing.assert_allclose(radius[labels == "A"], 1.0)
    np.testing.assert_allclose(radius[labels == "B"], 0.5)
    moons = generators.moons(n=100, noise=0, seed=1)
    lower = moons.column("class") == "B"
    np.testing.assert_allclose(np.hypot(moons.column("x1")[lower] - 1, moons.column("x2")[lower] - 0.5), 1.0)
    xor = generators.xor(n=200, noise=0, seed=1)
    same_sign = xor.column("x1") * xor.column("x2") > 0
    assert np.array_equal(xor.column("class") == "A", same_sign)
    line = generators.line(n=50, noise=0, seed=1)
    assert line.columns == ["x", "y"]
    np.testing.assert_allclose(line.column("y"), 1.5 * line.column("x") + 0.5)
    spiral = generators.spiral(n=90, noise=0, seed=1, arms=3)
    assert sorted(set(spiral.column("class"))) == ["A", "B", "C"]


def test_noise_spreads_the_blobs():
    tight = generators.blobs(n=600, noise=0.0, seed=0)
    loose = generators.blobs(n=600, noise=1.0, seed=0)
    a = tight.column("class") == "A"
    assert np.std(tight.column("x1")[a]) == pytest.approx(0.2, rel=0.2)
    assert np.std(loose.column("x1")[a]) == pytest.approx(2.2, rel=0.2)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"n": 0}, "n must be"), ({"n": 5001}, "n must be"), ({"n": 2.5}, "n must be"), ({"n": True}, "n must be"),
    ({"noise": -0.1}, "noise must be"), ({"noise": 1.5}, "noise must be"), ({"seed": -1}, "seed must be"),
])
def test_generator_arguments_are_bounded(kwargs, fragment):
    with pytest.raises(DataError, match=fragment):
        generators.moons(**kwargs)


def test_generator_errors_name_the_problem():
    with pytest.raises(DataError, match="arms must be 2 or 3"):
        generators.spiral(arms=4)
    with pytest.raises(DataError, match="Unknown generator 'swirl'"):
        generators.generate("swirl")
    with pytest.raises(DataError, match="no parameter 'arms'"):
        generators.generate("moons", arms=3)
    assert generators.generate("moons", n=10, noise=None).n_rows == 10  # null: the default
