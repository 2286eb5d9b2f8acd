"""The grid (issue 31): every learner that has a scikit-learn twin, at the sizes and settings people use.

For each learner an Entry says which data it reads (grid_data's kinds), which row counts it is timed at
with 20 features, at how many rows the feature counts 5 and 200 are tried, the wide table (fewer rows
than features), the settings people change, and how the two libraries' answers are compared. `cells`
turns an entry into its cells. Both libraries get the same settings: pellucid's estimator is made with
them and scikit-learn's through the learner's own descriptor (`SklearnTwin.build`, what "Compare with
scikit-learn" uses), so the twin is the one the product stands behind.

Row counts are 10^3 to 10^6 where the learner's cost allows the whole grid to finish in 15 minutes on a
2-CPU machine; `skipped` says which are left out and why.
"""

import dataclasses

ROWS = (1_000, 10_000, 100_000, 1_000_000)
FEATURES = (5, 200)  # beside the 20 of the row cells
WIDE = (200, 1_000)  # rows < features
BASE_FEATURES = 20
QUICK = dict(rows=(300,), features=(5,), feature_rows=300, wide=(30, 60), settings_rows=300)

# The grid in Pyodide (browser_grid.py) times the cells the page accepts: it reads files of up to 50 MB
# (pellucid.core.settings.MAX_BYTES), and a number of this data written out takes about 20 bytes, so a
# table of 2,000,000 values (10^5 x 20, 10^4 x 200) is about 40 MB and fits, and 10^6 x 20 (about
# 400 MB) does not.
PAGE_VALUES = 2_000_000
# ... and, of those, not the 10^4 x 20 cell of the learners for which it took longest in Pyodide: seconds
# for the cell (fit and predict, both libraries) in a run of every cell on a shared 2-CPU machine (load
# 4), where the whole grid took 18 minutes; without these four it keeps within 15.
PAGE_HEAVY = {"GradientBoostingClassifier": 90, "MLPClassifier": 71, "RandomForestClassifier": 66, "MLPRegressor": 66}
PAGE_HEAVY_ROWS = 10_000

# The agreement checks (grid_cells.AGREE): "score" compares accuracy or R^2 on the predicted rows,
# "inertia" k-means' sum of squared distances, "labels" two clusterings (adjusted Rand index),
# "variance" PCA's explained variance ratios.


@dataclasses.dataclass(frozen=True)
class Entry:
    name: str  # pellucid's class name, as the registry knows it
    data: str  # grid_data kind
    agree: str = "score"
    tol: float = 0.02  # how far the two answers may differ (see grid_cells.AGREE)
    rows: tuple = ROWS
    feature_rows: int = 10_000  # the rows of the 5- and 200-feature cells
    wide: tuple = WIDE
    settings: tuple = ()  # each a dict of changed settings, timed at settings_rows x 20
    settings_rows: int = 10_000
    base: dict = dataclasses.field(default_factory=dict)  # settings of every cell (say why in `skipped`)
    call: str = "predict"  # what is timed after fit: "predict", "transform" or None
    queries: bool = False  # predict new rows (grid_data.queries) rather than the training rows
    memory: tuple = (1_000_000, 20)  # the cell whose peak memory is measured
    cost: int = 1  # passes over the data a fit makes (trees, epochs), roughly: big ones take fewer samples
    skipped: str = ""


@dataclasses.dataclass(frozen=True)
class Cell:
    entry: Entry
    rows: int
    features: int
    settings: dict
    label: str

    @property
    def params(self):
        return {**self.entry.base, **self.settings}


# Ensembles grow a tree per round on every row: ten to a hundred trees grown in full on 10^5 rows take
# one to several minutes a side (bagged trees on 100,000 x 20: 47 s against 44 s, one sample; a forest's
# 10^4 rows already take 12 s in pellucid), so they stop at 10^4 rows to keep the grid within 15 minutes,
# and try their feature counts, wide table and settings at 10^3.
_ENSEMBLE = dict(rows=ROWS[:2], feature_rows=1_000, settings_rows=1_000, memory=(10_000, 20))
_SKIPPED = "10^5 and 10^6: {} on every row take minutes a side; the grid's 15 minutes do not hold them"

ENTRIES = (
    Entry("DecisionTreeClassifier", "classes", rows=ROWS[:3], settings=({"max_depth": 5}, {"criterion": "gini"}),
          memory=(100_000, 20), skipped="10^6: a full-depth tree on 10^6 noisy rows takes minutes a side"),
    Entry("DecisionTreeRegressor", "values", rows=ROWS[:3], settings=({"max_depth": 5},), memory=(100_000, 20),
          skipped="10^6: a full-depth tree on 10^6 noisy rows takes minutes a side"),
    Entry("RandomForestClassifier", "classes", settings=({"n_estimators": 10}, {"max_depth": 6}), cost=100,
          skipped=_SKIPPED.format("100 trees grown in full"), **_ENSEMBLE),
    Entry("RandomForestRegressor", "values", settings=({"n_estimators": 10}, {"max_depth": 6}), cost=300,
          **{**_ENSEMBLE, "rows": ROWS[:1], "feature_rows": 300, "memory": (3_000, 20)},
          skipped="10^4 and more: 100 trees grown in full, each split weighing every feature (max_features=1.0), "
                  "take minutes a side; the 5- and 200-feature cells have 300 rows"),
    Entry("BaggingClassifier", "classes", settings=({"n_estimators": 30},), tol=0.03, cost=10,
          skipped=_SKIPPED.format("ten trees grown in full"), **_ENSEMBLE),
    Entry("BaggingRegressor", "values", settings=({"n_estimators": 30},), tol=0.03, cost=10,
          skipped=_SKIPPED.format("ten trees grown in full"), **_ENSEMBLE),
    Entry("AdaBoostClassifier", "classes", settings=({"n_estimators": 200}, {"max_depth": 3}), tol=0.03, cost=50,
          skipped=_SKIPPED.format("50 rounds"), **_ENSEMBLE),
    Entry("GradientBoostingClassifier", "classes", settings=({"n_estimators": 20}, {"max_depth": 5}), tol=0.03,
          cost=300, **{**_ENSEMBLE, "feature_rows": 300},
          skipped=_SKIPPED.format("3 classes x 100 trees") + "; the 5- and 200-feature cells have 300 rows"),
    Entry("GradientBoostingRegressor", "values", settings=({"n_estimators": 20}, {"max_depth": 5}), cost=100,
          skipped=_SKIPPED.format("100 trees"), **_ENSEMBLE),
    Entry("LinearRegression", "values", agree="score", tol=1e-6, settings=({"l2": 1e-3},)),
    Entry("LogisticRegression", "classes", settings=({"l2": 1e-3},), tol=0.005),
    Entry("Perceptron", "classes", rows=ROWS[:2], feature_rows=1_000, settings=({"max_iter": 5}, {"tol": 1e-3}),
          tol=0.1, memory=(10_000, 20), cost=100,
          skipped="10^5 and 10^6: on these noisy rows pellucid visits the rows one at a time in Python (about "
                  "7 us a visit), so its 100 epochs over 10^5 rows take over a minute (10^4 x 200: 49 s against "
                  "0.6 s); the 5- and 200-feature cells have 1,000 rows"),
    Entry("GaussianNB", "classes", settings=({"var_smoothing": 1e-3},), tol=1e-6),
    Entry("BernoulliNB", "classes", settings=({"alpha": 0.1},), tol=1e-6),
    Entry("MultinomialNB", "counts", settings=({"alpha": 0.1},), tol=1e-6),
    Entry("CategoricalNB", "categories", settings=({"alpha": 0.1},), tol=1e-6),
    Entry("KNeighborsClassifier", "classes", queries=True, settings=({"n_neighbors": 1}, {"n_neighbors": 25})),
    Entry("KNeighborsRegressor", "values", queries=True, tol=1e-6,
          settings=({"n_neighbors": 25}, {"weights": "distance"})),
    Entry("KernelRegression", "values", rows=(1_000, 2_000), feature_rows=2_000, settings_rows=2_000,
          base={"gamma": 0.05, "l2": 1e-3}, settings=({"l2": 0.1}, {"kernel": "poly"}), queries=True, tol=0.2,
          memory=(2_000, 20), cost=1_000,
          skipped="fit keeps at most 2,000 rows (its n x n kernel matrix). Every cell sets gamma = 0.05 (both "
                  "then use the same) and l2 = 0.001: at l2 = 0 scikit-learn solves the interpolation exactly "
                  "and on new rows scores an R^2 of -164 (300 x 5), so nothing would be compared; pellucid "
                  "descends the gradient (1,000 steps) and scikit-learn solves, so R^2 differs a little"),
    Entry("MLPClassifier", "classes", rows=ROWS[:2], feature_rows=1_000, settings_rows=1_000, tol=0.1,
          settings=({"max_iter": 20}, {"hidden_layer_sizes": (32,)}), memory=(10_000, 20), cost=200,
          skipped="10^5 and more: 200 epochs of adam take minutes a side"),
    Entry("MLPRegressor", "values", rows=ROWS[:2], feature_rows=1_000, settings_rows=1_000, tol=0.1,
          settings=({"max_iter": 20}, {"hidden_layer_sizes": (32,)}), memory=(10_000, 20), cost=200,
          skipped="10^5 and more: 200 epochs of adam take minutes a side"),
    Entry("KMeans", "clusters", agree="inertia", tol=0.1, settings=({"n_clusters": 8}, {"n_clusters": 5})),
    Entry("AgglomerativeClustering", "clusters", agree="labels", tol=0.01, rows=(1_000, 5_000), feature_rows=1_000,
          settings_rows=1_000, call=None, settings=({"linkage": "complete"}, {"n_clusters": 5}), memory=(5_000, 20),
          cost=100,
          skipped="fit keeps at most 5,000 rows (memory and time grow with the square of the rows)"),
    Entry("PCA", "values", agree="variance", tol=1e-6, call="transform", settings=({"n_components": 5},)),
)


def _size(rows, features):
    return f"{rows:,} x {features:,}"


def _setting(settings):
    return ", ".join(f"{k}={v!r}" for k, v in settings.items())


def cells(entry, quick=False, values=None):
    """The entry's cells, in order: row counts at 20 features, the other feature counts, the wide table,
    the changed settings. `quick`: one tiny cell of each sort, for a smoke run. `values`: only the cells
    of at most this many values (rows x features), as `page_cells`."""
    shape = QUICK if quick else dict(rows=entry.rows, features=FEATURES, feature_rows=entry.feature_rows,
                                     wide=entry.wide, settings_rows=entry.settings_rows)
    out = [Cell(entry, n, BASE_FEATURES, {}, _size(n, BASE_FEATURES)) for n in shape["rows"]]
    out += [Cell(entry, shape["feature_rows"], d, {}, _size(shape["feature_rows"], d)) for d in shape["features"]]
    if shape["wide"]:
        out.append(Cell(entry, *shape["wide"], {}, _size(*shape["wide"]) + " (wide)"))
    for settings in entry.settings:
        rows = shape["settings_rows"]
        out.append(Cell(entry, rows, BASE_FEATURES, settings, f"{_size(rows, BASE_FEATURES)}, {_setting(settings)}"))
    return [c for c in out if values is None or c.rows * c.features <= values]


def _heavy(cell):
    return (cell.entry.name in PAGE_HEAVY and cell.rows == PAGE_HEAVY_ROWS and cell.features == BASE_FEATURES
            and not cell.settings)


def page_cells(entry, quick=False):
    """The cells the grid in Pyodide times: the entry's cells the page accepts (PAGE_VALUES), but for the
    heaviest there (PAGE_HEAVY)."""
    return [c for c in cells(entry, quick, PAGE_VALUES) if not _heavy(c)]


def page_left_out(entry):
    """What the grid in Pyodide leaves out of the entry's cells, and why ("" if nothing)."""
    every, kept = cells(entry), page_cells(entry)
    large = [c.label for c in every if c.rows * c.features > PAGE_VALUES]
    heavy = [c.label for c in every if c not in kept and c.label not in large]
    out = []
    if large:
        out.append(f"{'; '.join(large)}: above the {PAGE_VALUES:,} values (about 40 MB written out) of a file "
                   f"the page reads (50 MB)")
    if heavy:
        out.append(f"{'; '.join(heavy)}: {PAGE_HEAVY[entry.name]} s for the cell in Pyodide, which the grid's "
                   f"15 minutes there do not hold")
    return ". ".join(out)


def entries(only=None):
    """The entries whose name contains one of `only` (all if None)."""
    return [e for e in ENTRIES if not only or any(part in e.name for part in only)]
