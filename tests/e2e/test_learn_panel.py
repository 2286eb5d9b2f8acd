"""The "See it learn" panel in Chromium on a test page that mounts it with a real PyClient over the built
site (the page is served at <site>/learn.html, next to index.html, so its relative imports resolve): every
learner family steps forward and back showing the numbers of the Python trace, one row's decision, the
exercises (a wrong answer, then the right one) and the estimation lab. The tests share one page, so
Python starts once; each mounts a new panel. Screenshots go to docs/screenshots/learn-*.png."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import mount_learn_panel, open_learn_test_page

from pellucid.probability.estimation import mle
from pellucid.workbench.lab import draw_sample

pytestmark = pytest.mark.e2e
HERE = pathlib.Path(__file__).resolve().parent
SHOTS = HERE.parents[1] / "docs" / "screenshots"
SEED_CSV = "f1,f2,y\n1,1,-1\n3,2,1\n2,4,1\n3,4,1\n2,3,-1\n"  # notes 000's perceptron example


@pytest.fixture(scope="module")
def learn_page(module_page, site_url):
    """The test page, Python started once for the module's tests."""
    return open_learn_test_page(module_page, site_url)


@pytest.fixture
def learn(learn_page, shared_page):
    """The test page with a new panel mounted and no model chosen, Python ready."""
    return mount_learn_panel(learn_page)


def show_steps(page, n_frames):
    page.get_by_role("button", name="Show the steps").click()
    expect(page.locator(".learn-counter")).to_have_text(f"step 1 / {n_frames}")


def timeline(page, row=1):
    return page.evaluate("(row) => window.python.call('timeline', {model_id: window.learnContext.model_id, row})", row)


def step_math(page):
    return page.locator("[data-pane=steps] .learn-math-text").all_inner_texts()


def new_exercise(page, seed):
    page.get_by_role("tab", name="Check your work").click()
    page.get_by_label("Exercise seed").fill(str(seed))
    page.get_by_role("button", name="New exercise").click()


def wrong_then_right(page, wrong, first_worked):
    """A wrong answer is refused with the worked computation (its first line containing first_worked);
    the expected value it shows is then accepted."""
    page.get_by_label("Your answer").fill(wrong)
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".learn-verdict-head")).to_contain_text("Not quite: the answer is ")
    expect(page.locator(".learn-verdict li").first).to_contain_text(first_worked)
    expected = page.locator(".learn-verdict-head").inner_text().rsplit(" ", 1)[1]
    page.get_by_label("Your answer").fill(expected)
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".learn-verdict-head")).to_have_text(f"Right: {expected}")


def marked_nodes(page):
    """The lines of the tree's text twin marked "(this step)" (each line without its subtree)."""
    return page.evaluate("""() => [...document.querySelectorAll('.learn-twin li')]
        .map((li) => li.firstChild.textContent).filter((t) => t.endsWith('(this step)'))""")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".learn-panel").screenshot(path=str(SHOTS / f"learn-{name}.png"))


def test_tree_grows_node_by_node_with_the_gain_formula_forward_and_back(learn):
    page = learn
    page.evaluate("() => window.trainFor('restaurant', 'DecisionTreeClassifier', 'WillWait', {prune: 'chi2'})")
    tl = timeline(page)
    show_steps(page, len(tl["frames"]))
    root = tl["frames"][0]
    assert root["breakdown"]["Pat"]["text"] in step_math(page)
    assert "Gain(Pat) = B(6/12) − [6/12 B(2/6) + 2/12 B(0/2) + 4/12 B(4/4)] = 0.541" in step_math(page)
    expect(page.locator(".learn-winner th")).to_have_text("★ Pat")
    expect(page.locator(".learn-math-tex math").first).to_be_attached()  # Temml rendered MathML
    [current] = marked_nodes(page)  # the node this step is about, ringed on the drawing
    assert current.startswith("split on Pat")
    controls = page.locator(".learn-controls")
    controls.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(".learn-counter")).to_have_text(f"step 2 / {len(tl['frames'])}")
    expect(page.locator(".learn-node")).to_contain_text(tl["frames"][1]["node"])
    [current] = marked_nodes(page)
    assert not current.startswith("split on Pat")  # a child of the root now
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".learn-counter")).to_have_text(f"step 2 / {len(tl['frames'])}")
    page.get_by_role("button", name="Step back").click()
    assert "Gain(Pat)" in " ".join(step_math(page))
    shot(page, "tree-steps")
    last = len(tl["frames"]) - 1
    page.locator(".learn-controls input[type=range]").fill(str(last))
    expect(page.locator(".learn-counter")).to_have_text(f"step {last + 1} / {len(tl['frames'])}")
    prune = tl["frames"][last]
    assert prune["kind"] == "prune" and prune["math"][0]["text"] in step_math(page)
    assert len(marked_nodes(page)) == 1  # the node under the pruning test
    assert "p-value = 0.0357" in prune["math"][0]["text"]

    page.get_by_role("tab", name="One row").click()
    page.get_by_label("Row number").fill("3")
    page.get_by_role("button", name="Explain this row").click()
    expect(page.locator(".learn-path-text")).to_have_text("Pat = Some → predict Yes")


def train_perceptron(page, csv, params):
    """Train a perceptron on `csv` (target y) with the features as they are, and open its steps' context."""
    page.evaluate("""async ([csv, params]) => {
        const path = new TextEncoder().encode(csv).buffer;
        const table = await window.python.call('load_csv', { path, name: 'perceptron.csv' });
        const run = await window.python.call('train', { table_id: table.table_id, target: 'y', features: null,
            model: 'Perceptron', params, evaluation: { method: 'none' }, preprocessing: { standardize: false } });
        window.learnContext = { table_id: table.table_id, model_id: run.model_id, model_name: run.label, target: 'y',
                                features: run.features };
    }""", [csv, params])


def test_perceptron_table_reproduces_the_notes_pass(learn):
    page = learn
    # the notes' pass reads the features as they are: standardising (the default for a perceptron) is off
    train_perceptron(page, SEED_CSV, {"initial_weights": [-1, 0, 0], "max_iter": 1})
    show_steps(page, 5)
    for _ in range(4):
        page.get_by_role("button", name="Step forward").click()
    rows = page.locator(".learn-perceptron tbody tr")
    expect(rows).to_have_count(5)
    table = [r.locator("td").all_inner_texts() for r in rows.all()]
    assert [r[3] for r in table] == ["[-1, 0, 0]", "[-1, 0, 0]", "[0, 3, 2]", "[0, 3, 2]", "[0, 3, 2]"]
    assert [r[4] for r in table] == ["-1", "-1", "14", "17", "12"]
    assert [r[5] for r in table] == ["yes", "no", "yes", "yes", "no"]
    assert "w ← w − f(x) = [0, 3, 2] − [1, 2, 3] = [-1, 1, -1]" in step_math(page)
    page.get_by_role("button", name="Step back").click()
    expect(rows).to_have_count(4)
    page.get_by_role("button", name="Step forward").click()
    shot(page, "perceptron")


def test_three_class_perceptron_steps_show_each_class_moving_one_vs_rest(learn):
    page = learn
    train_perceptron(page, "f1,f2,y\n1,1,c\n3,2,a\n2,4,b\n3,4,a\n2,3,c\n", {"max_iter": 1})
    show_steps(page, 5)
    rows = page.locator(".learn-perceptron tbody tr")
    first = rows.first.locator("td").all_inner_texts()
    # from zero weights every class's own perceptron says "mine" for the class-c row: a and b are wrong
    assert first[-2:] == ["no", "−f from a, b"]
    assert "one-vs-rest: w_a −= f(x), w_b −= f(x)" in step_math(page)
    for _ in range(4):
        page.get_by_role("button", name="Step forward").click()
    expect(rows).to_have_count(5)
    shot(page, "perceptron-one-vs-rest")


def test_kmeans_iterations_and_the_agglomerative_merges(learn):
    page = learn
    page.evaluate("() => window.trainFor('blobs', 'KMeans', null, {k: 3}, null, {n: 150, noise: 0.5, seed: 1})")
    tl = timeline(page)
    show_steps(page, len(tl["frames"]))
    first_iter = next(i for i, f in enumerate(tl["frames"]) if f["kind"] == "iteration")
    for _ in range(first_iter):
        page.get_by_role("button", name="Step forward").click()
    expect(page.locator("[data-pane=steps] .learn-node")).to_have_text(
        f"Iteration 1: inertia {tl['frames'][first_iter]['inertia']:.4f}")
    inertias = [f["inertia"] for f in tl["frames"] if f["kind"] == "iteration"]
    assert all(b <= a + 1e-9 for a, b in zip(inertias, inertias[1:]))
    shot(page, "kmeans")

    page.evaluate("() => window.trainFor('blobs', 'AgglomerativeClustering', null, {k: 3}, null, {n: 40, seed: 2})")
    tl = timeline(page)
    show_steps(page, 39)
    page.locator(".learn-controls input[type=range]").fill("20")
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text(
        f"Merge 21 of 39: clusters {tl['frames'][20]['a']} and {tl['frames'][20]['b']}")


def test_naive_bayes_tables_and_the_row_decision(learn):
    page = learn
    page.evaluate("() => window.trainFor('restaurant', 'CategoricalNB', 'WillWait', {k: 1})")
    tl = timeline(page)
    show_steps(page, len(tl["frames"]))
    expect(page.locator("[data-pane=steps] caption")).to_have_text("Class prior")
    page.get_by_role("button", name="Step forward").click()
    f = tl["frames"][1]
    expect(page.locator("[data-pane=steps] caption")).to_contain_text(f"{f['feature']}: count(x, y)")
    cell = page.locator("[data-pane=steps] tbody tr").first.locator("td").nth(1)
    expect(cell).to_have_text(f"{int(f['counts'][0][0])} → {f['estimates'][0][0]:.3f}")
    page.get_by_role("tab", name="One row").click()
    page.get_by_label("Row number").fill("5")
    page.get_by_role("button", name="Explain this row").click()
    ex = page.evaluate("() => window.python.call('explain_row', {model_id: window.learnContext.model_id, row: 5})")
    expect(page.locator(".learn-explain caption")).to_contain_text(f"→ {ex['prediction']}")
    page.get_by_role("tab", name="Steps").click()
    page.get_by_role("button", name="Step forward").click()
    page.get_by_role("button", name="Step forward").click()
    page.get_by_role("button", name="Step forward").click()
    shot(page, "naive-bayes")


def test_knn_neighbours_and_gradient_descent_loss(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'KNeighborsClassifier', 'species', {k: 3})")
    page.get_by_label("Row to explain (k-NN, naive Bayes, ensembles, networks)").fill("60")
    tl = timeline(page, 60)
    show_steps(page, 4)
    page.locator(".learn-controls input[type=range]").fill("3")
    rows = page.locator("[data-pane=steps] tbody tr")
    expect(rows).to_have_count(3)
    assert [r.locator("td").nth(1).inner_text() for r in rows.all()] == [str(f["row"]) for f in tl["frames"][1:]]

    page.evaluate("() => window.trainFor('line', 'LinearRegression', 'y', {solver: 'gd', learning_rate: 0.1}, null, "
                  "{n: 80, seed: 0})")
    tl = timeline(page)
    show_steps(page, len(tl["frames"]))
    page.locator(".learn-controls input[type=range]").fill(str(len(tl["frames"]) - 1))
    last = tl["frames"][-1]
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text(f"iteration {last['iter']}")
    assert last["math"][0]["text"] in step_math(page)
    assert tl["normal_equation"] is not None


def test_exercise_wrong_then_right_and_the_same_seed_gives_the_same_exercise(learn):
    page = learn
    page.evaluate("() => window.trainFor('restaurant', 'DecisionTreeClassifier', 'WillWait')")
    new_exercise(page, 7)
    question = page.locator(".learn-q").inner_text()
    assert question.startswith("Compute the information gain of ")
    wrong_then_right(page, "123", first_worked="B(6/12)")
    shot(page, "exercise")
    page.get_by_role("button", name="New exercise").click()
    expect(page.locator(".learn-q")).to_have_text(question)


def test_lab_shows_the_mle_of_a_seeded_sample(learn):
    page = learn
    page.get_by_role("tab", name="Estimation lab").click()
    page.get_by_label("n", exact=True).fill("30")
    page.get_by_label("n", exact=True).dispatch_event("change")
    sample = draw_sample("bernoulli", 30, 0, {"theta": 0.3})
    theta = mle("bernoulli", sample)["params"]["theta"]
    # Wait on the exact formula line: "0.3" alone would also match the previous sample's 0.35.
    expect(page.locator("[data-pane=lab] .learn-math-text").first).to_have_text(
        f"θ_MLE = {sum(sample)}/30 = {theta:.4f}")
    expect(page.locator("[data-pane=lab] tbody tr").first).to_contain_text(str(round(theta, 4)))
    page.get_by_label("Distribution").select_option("poisson")
    lam = mle("poisson", draw_sample("poisson", 30, 0, {"lambda": 3.0}))["params"]["lambda"]
    expect(page.locator("[data-pane=lab] tbody tr").first).to_contain_text(f"MLE lambda{round(lam, 4)}")
    page.get_by_label("Distribution").select_option("bernoulli")
    expect(page.locator("[data-pane=lab] tbody tr").first).to_contain_text(str(round(theta, 4)))
    shot(page, "lab")


def test_logistic_exercise_gives_the_weights_per_class_and_works_the_softmax(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'LogisticRegression', 'species')")
    new_exercise(page, 2)
    expect(page.locator(".learn-q")).to_contain_text("what is P(species = ")
    given = page.locator(".learn-given")
    expect(given.locator(":scope > li").first).to_contain_text("f(x): 1 (bias) = 1, sepal length (cm) = ")
    expect(given.locator(":scope > li", has_text="weights:").locator("ul > li")).to_have_count(3)  # one per class
    wrong_then_right(page, "2", first_worked="z_setosa = w_setosa · f(x) = ")
    shot(page, "exercise-logistic")


def test_network_exercise_asks_for_a_units_activation_or_delta_and_works_it(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'MLPClassifier', 'species', {hidden_layer_sizes: [4]})")
    given = page.locator(".learn-given")
    new_exercise(page, 2)  # the seed chooses the question: a unit's activation
    expect(page.locator(".learn-q")).to_contain_text("what is the output a of unit ")
    expect(given).to_contain_text("inputs a_i: sepal length (cm) = ")
    wrong_then_right(page, "7", first_worked="z = b + Σ w_i a_i = ")
    shot(page, "exercise-network")
    new_exercise(page, 1)  # and here a delta by the chain rule
    expect(page.locator(".learn-q")).to_contain_text("what is the delta of unit ")
    expect(given).to_contain_text("output deltas δ_k = a_k − y_k: P(setosa) = ")
    wrong_then_right(page, "7", first_worked="Σ_k W_jk δ_k = ")


def test_forest_steps_draw_the_sample_the_offer_and_the_votes(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'RandomForestClassifier', 'species', {n_estimators: 9})")
    page.get_by_label("Row to explain (k-NN, naive Bayes, ensembles, networks)").fill("120")
    tl = timeline(page, 120)
    show_steps(page, 4)
    sample = tl["frames"][0]
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text(f"{sample['out_of_bag']} were never drawn")
    assert sample["math"][0]["text"] in step_math(page)
    page.get_by_role("button", name="Step forward").click()
    root = tl["frames"][1]
    expect(page.locator("[data-pane=steps] tbody tr")).to_have_count(root["n_offered"])
    expect(page.locator("[data-pane=steps] tr.learn-winner")).to_contain_text(root["chosen"])
    page.get_by_role("button", name="Step forward").click()
    expect(page.locator("[data-pane=steps] tbody tr")).to_have_count(9)
    page.get_by_role("button", name="Step forward").click()
    together = tl["frames"][3]
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text(f"predicts {together['prediction']}")
    votes = page.locator("[data-pane=steps] tbody tr td:nth-child(2)").all_inner_texts()
    assert sum(int(v) for v in votes) == 9
    shot(page, "forest")


def test_boosting_steps_follow_one_rows_residuals_and_adaboosts_votes(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'GradientBoostingClassifier', 'species', {n_estimators: 4})")
    tl = timeline(page, 1)
    show_steps(page, 5)
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text("4 rounds follow")
    page.get_by_role("button", name="Step forward").click()
    first = tl["frames"][1]
    rows = page.locator("[data-pane=steps] tbody tr")
    expect(rows).to_have_count(3)  # one tree, residual and F per class
    assert first["math"][0]["text"] in step_math(page)  # F_1 = F_0 + eta h_1(x) with this row's numbers
    shot(page, "boosting")
    page.evaluate("() => window.trainFor('iris', 'AdaBoostClassifier', 'species', {n_estimators: 3})")
    tl = timeline(page, 1)
    show_steps(page, len(tl["frames"]))
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text("α = ")
    expect(page.locator("[data-pane=steps] tbody tr")).to_have_count(5)  # the five rows weighing most
    assert tl["frames"][0]["math"][0]["text"] in step_math(page)


def test_network_steps_show_the_forward_pass_the_deltas_and_the_update(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'MLPClassifier', 'species', "
                  "{hidden_layer_sizes: [3], max_iter: 5, solver: 'sgd', learning_rate_init: 0.1})")
    page.get_by_label("Row to explain (k-NN, naive Bayes, ensembles, networks)").fill("60")
    tl = timeline(page, 60)
    assert tl["family"] == "network" and tl["row"] == 60
    show_steps(page, len(tl["frames"]))  # 2 layers x (forward, backward, update) x 4 epochs shown
    first = tl["frames"][0]
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text("Row 60, epoch 1")
    assert first["math"][1]["text"] in step_math(page)  # the first unit's weighted sum written out
    expect(page.locator("[data-pane=steps] tbody tr").first).to_contain_text("h1.1")
    for _ in range(2):
        page.get_by_role("button", name="Step forward").click()
    output = tl["frames"][2]
    assert output["kind"] == "backward" and output["layer"] == 2
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text("δ = a − y")
    expect(page.locator("[data-pane=steps] tbody tr")).to_have_count(3)  # one delta per species
    for _ in range(2):
        page.get_by_role("button", name="Step forward").click()
    update = tl["frames"][4]
    assert update["kind"] == "update" and update["layer"] == 1
    expect(page.locator("[data-pane=steps] .learn-node")).to_contain_text("the sgd step added")
    assert update["math"][1]["text"] in step_math(page)
    shot(page, "network")
