"""The "See it learn" panel on a 20-column table shaped like real data (numbers on scales from 0.01 to
10,000, missing cells written three ways, a few categories, 2,000 rows): for every learner family the
panel fits in about one and a half screens, no formula is on screen twice, the per-feature numbers show
the largest few with "Show all" revealing every feature, and a standardised feature's transform is
written once, in its row."""

import numpy as np
import pytest
from playwright.sync_api import expect

from test_learn_panel import SHOTS, learn, learn_page, show_steps, timeline  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.e2e
SCALES = [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20, 0.2]
CATEGORIES = {"region": ["north", "south", "east", "west"], "plan": ["basic", "plus", "pro"]}
NUMERIC = [f"m{i + 1}_x{s:g}" for i, s in enumerate(SCALES)]
FEATURES = NUMERIC + list(CATEGORIES)  # 20 features; the id and name columns are not among them


def wide_csv(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, len(SCALES)))
    logit = X[:, 0] - 0.8 * X[:, 5] + 0.5 * X[:, 12]
    lines = [",".join(["id", "name", *NUMERIC, *CATEGORIES, "label"])]
    for i in range(n):
        cells = [f"{s * (13 + X[i, j]):.4g}" if rng.random() > 0.01 else rng.choice(["NA", "?", ""])
                 for j, s in enumerate(SCALES)]
        cats = [str(rng.choice(v)) for v in CATEGORIES.values()]
        label = "yes" if logit[i] + rng.normal(0, 0.5) > 0 else "no"
        lines.append(",".join([f"R{i:05d}", f"Person {i}", *cells, *cats, label]))
    return "\n".join(lines) + "\n"


FAMILIES = [  # (model, target, params, frame to look at)
    ("DecisionTreeClassifier", "label", {"max_depth": 3}, 0),
    ("Perceptron", "label", {"max_iter": 1}, 3),
    ("LogisticRegression", "label", {}, 5),
    ("GaussianNB", "label", {}, 1),
    ("KNeighborsClassifier", "label", {"n_neighbors": 5}, 3),
    ("KMeans", None, {"n_clusters": 3}, 4),
    ("PCA", None, {}, 0),
]


def train(page, model, target, params):
    page.evaluate("""async ([csv, model, target, params, features]) => {
        const python = window.python;
        const path = new TextEncoder().encode(csv).buffer;
        window.wideTable ??= (await python.call("load_csv", { path, name: "wide.csv" })).table_id;
        const run = await python.call("train", { table_id: window.wideTable, target, features, model, params,
                                                 evaluation: { method: "none" } });
        window.learnContext = { table_id: window.wideTable, model_id: run.model_id, model_name: run.label, target,
                                features: run.features };
    }""", [wide_csv(), model, target, params, FEATURES])


def formula_texts(page):
    """Every formula block on screen: its MathML's text (or its plain text when not rendered)."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-pane=steps] .learn-math-line')]
        .map((line) => (line.querySelector('math')?.textContent || line.textContent).trim())""")


@pytest.fixture
def wide(learn):  # noqa: F811 (the fixture imported above, as pytest finds it)
    learn.set_viewport_size({"width": 1440, "height": 900})
    return learn


@pytest.mark.parametrize("model, target, params, frame", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_each_family_fits_on_a_screen_and_shows_every_formula_once(wide, model, target, params, frame):
    page = wide
    train(page, model, target, params)
    tl = timeline(page)
    show_steps(page, len(tl["frames"]))
    frame = min(frame, len(tl["frames"]) - 1)
    page.locator(".learn-controls input[type=range]").fill(str(frame))
    expect(page.locator(".learn-counter")).to_have_text(f"step {frame + 1} / {len(tl['frames'])}")
    expect(page.locator("[data-pane=steps] .learn-math-line").first).to_be_attached()
    texts = formula_texts(page)
    assert texts and len(set(texts)) == len(texts), texts
    height = page.locator(".learn-panel").bounding_box()["height"]
    assert height <= 1.5 * 900, f"{model}: the panel is {height:.0f} px tall"
    for text in page.locator("[data-pane=steps] .learn-math-tex").all_inner_texts():
        assert len(text) < 400, f"{model}: a formula writes out a long vector: {text[:80]}…"
    toggle = page.locator("[data-pane=steps] .learn-show-all")
    if toggle.count():
        rows = page.locator("[data-pane=steps] .learn-summary tbody tr")
        assert rows.count() == 8
        expect(toggle).to_have_attribute("aria-expanded", "false")
        n = int(toggle.inner_text().rsplit(" ", 1)[1])
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(rows).to_have_count(n)
        assert n >= len(NUMERIC)  # every feature (or its one-hot columns) has a row
        toggle.click()
        expect(rows).to_have_count(8)


def test_the_standardised_transform_is_written_once_per_feature(wide):
    page = wide
    train(page, "Perceptron", "label", {"max_iter": 1})
    tl = timeline(page)
    assert set(tl["standardized"]) == set(NUMERIC)  # a scale-sensitive learner: every number standardised
    show_steps(page, len(tl["frames"]))
    page.locator(".learn-controls input[type=range]").fill("1")
    page.locator("[data-pane=steps] .learn-show-all").click()
    table = page.locator("[data-pane=steps] .learn-summary table")
    expect(table.locator("thead th").nth(1)).to_have_text("as the model reads it")
    row = table.locator("tbody tr", has=page.locator("th", has_text="m16_x10000"))
    mean, scale, _ = tl["standardized"]["m16_x10000"]
    assert 120_000 < mean < 140_000  # the column's own scale (about 13 × 10,000), read from the run
    expect(row.locator("td").first).to_have_text(f"z = (x − {mean:.1f}) / {scale:.1f}")
    z_cells = table.locator("tbody td:first-of-type").all_inner_texts()
    assert len([z for z in z_cells if z.startswith("z = ")]) == len(NUMERIC)
    assert "z = " not in " ".join(formula_texts(page))  # not in the formulas
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("[data-pane=steps] .learn-show-all").click()
    page.locator(".learn-panel").screenshot(path=str(SHOTS / "learn-at-scale.png"))
