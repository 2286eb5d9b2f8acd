"""The canvas renderers and the confusion table, on synthetic data whose pictures are known in advance.

A fixture page (tests/e2e/fixtures/renderers.html) imports the modules from web/js/render/; the test serves
a copy of web/ next to the fixtures so the page can import them as the site would, without building it.
"""

import pathlib
import shutil
import threading

import numpy as np
import pytest
from playwright.sync_api import expect

import build  # on the path through tests/e2e/conftest.py, which also gives the `browser` fixture

pytestmark = pytest.mark.e2e
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def fixtures_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("renderers")
    shutil.copytree(ROOT / "web", root / "web")
    shutil.copytree(ROOT / "tests" / "e2e" / "fixtures", root / "fixtures")
    server = build.make_server(root, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/fixtures/renderers.html"
    server.shutdown()


@pytest.fixture
def rpage(browser, fixtures_url):
    """The fixture page at a device pixel ratio of 2 (so HiDPI sizing is exercised), watched for errors."""
    origin = fixtures_url.split("/fixtures/")[0]
    context = browser.new_context(viewport={"width": 1400, "height": 900}, device_scale_factor=2,
                                  accept_downloads=True)
    errors, foreign = [], []

    def on_route(route):
        url = route.request.url
        if url.startswith(origin) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            foreign.append(url)
            route.abort()

    context.route("**/*", on_route)
    page = context.new_page()
    page.on("console", lambda m: print(f"[console.{m.type}] {m.text}"))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    page.goto(fixtures_url)
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    yield page
    context.close()
    assert errors == [], f"page errors: {errors}"
    assert foreign == [], f"requests left the machine: {foreign}"


@pytest.fixture
def shots():
    path = ROOT / "test-results"
    path.mkdir(exist_ok=True)
    return path


def hex_rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return np.array([int(h[i:i + 2], 16) for i in (0, 2, 4)], dtype=float)


def blend(hex_colour, strength):
    """A class colour laid over white at `strength`, as the boundary shades its cells."""
    return 255 + (hex_rgb(hex_colour) - 255) * strength


def close_to(pixel, rgb, tol=6):
    return pixel[3] == 255 and np.max(np.abs(np.array(pixel[:3], dtype=float) - rgb)) <= tol


def class_colours(page):
    return page.evaluate("R.palette.CLASS_COLOURS")


# --- Decision boundary -----------------------------------------------------------------------------------

def test_boundary_shades_cells_by_class_and_certainty(rpage, shots):
    info = rpage.evaluate("""() => {
        const b = F.boundaryData(120, 80, {points: 0});
        const canvas = document.getElementById("boundary");
        const view = R.boundary.drawBoundary(canvas, b);
        const at = (x, y) => pixelAt("boundary", view.x(x), view.y(y));
        return {
            ratio: canvas.width / parseFloat(canvas.style.width),
            cssWidth: parseFloat(canvas.style.width),
            setosa: at(-2.6, 1.5), versicolor: at(1.5, 1.5), virginica: at(1.5, -1.5),
            border: at(-1.0, 1.5),
            hit: view.valueAt(view.x(1.5), view.y(-1.5)),
            outside: view.valueAt(2, 2),
        };
    }""")
    colours = class_colours(rpage)
    assert info["ratio"] == 2, "the canvas is sized for the device pixel ratio"
    # Far from every border the model is certain: full strength 0.7 of the class colour.
    assert close_to(info["setosa"], blend(colours[0], 0.7)), info["setosa"]
    assert close_to(info["versicolor"], blend(colours[1], 0.7)), info["versicolor"]
    assert close_to(info["virginica"], blend(colours[2], 0.7)), info["virginica"]
    # On the x = -1 border the probability is 1/3 (chance for 3 classes): the palest shade.
    border = np.array(info["border"][:3], dtype=float)
    assert border.mean() > blend(colours[0], 0.7).mean() + 40, "unsure cells are lighter"
    assert info["hit"]["label"] == "virginica" and info["hit"]["probability"] == pytest.approx(1.0)
    assert info["outside"] is None


def test_boundary_draws_points_by_split_on_top(rpage):
    # One point of each split, each labelled with a class other than its region's, so its colour shows.
    info = rpage.evaluate("""() => {
        const b = F.boundaryData(60, 40, {points: 0});
        b.points = {x: [1.5, 1.5, -2.5], y: [1.0, -1.0, 0.0], label: [0, 0, 1],
                    split: ["train", "validation", "test"]};
        const view = R.boundary.drawBoundary(document.getElementById("boundary"), b);
        const px = (x, y, dx = 0, dy = 0) => pixelAt("boundary", view.x(x) + dx, view.y(y) + dy);
        return {train: px(1.5, 1.0), validationCentre: px(1.5, -1.0), validationRing: px(1.5, -1.0, 4, 0),
                testEdge: px(-2.5, 0, 3.6, 0), testCentre: px(-2.5, 0)};
    }""")
    colours = class_colours(rpage)
    assert close_to(info["train"], hex_rgb(colours[0]), 2), "a train point is a filled circle in its class colour"
    assert close_to(info["validationRing"], hex_rgb(colours[0]), 30), "a validation point is a ring"
    assert close_to(info["validationCentre"], blend(colours[2], 0.7)), "the ring is hollow: the region shows inside"
    assert close_to(info["testEdge"], hex_rgb(colours[1]), 30), "a test point is an outlined square"
    assert close_to(info["testCentre"], blend(colours[0], 0.7)), "the square is hollow"


def test_boundary_checks_sizes(rpage):
    messages = rpage.evaluate("""() => {
        const errors = [];
        const tryDraw = (mutate) => {
            const b = F.boundaryData(20, 10, {points: 5});
            mutate(b);
            try { R.boundary.drawBoundary(document.getElementById("boundary"), b); errors.push(null); }
            catch (e) { errors.push(e.message); }
        };
        tryDraw((b) => { b.predicted = b.predicted.slice(0, 150); });
        tryDraw((b) => { b.probability = b.probability.slice(1); });
        tryDraw((b) => { b.x_values = b.x_values.slice(1); });
        tryDraw((b) => { b.points.label.pop(); });
        tryDraw(() => {});
        return errors;
    }""")
    assert "predicted has 150 values but width × height = 20 × 10 = 200" in messages[0]
    assert "probability has 199 values" in messages[1]
    assert "x_values has 19 values but width = 20" in messages[2]
    assert "points have 5 x, 5 y, 4 labels" in messages[3]
    assert messages[4] is None


def test_boundary_200_by_200_paints_the_plot_and_draws_again_the_same(rpage):
    # How fast it draws is measured in benchmarks/, not here: this checks that a fine grid is drawn whole.
    info = rpage.evaluate("""() => {
        const b = F.boundaryData(200, 200, {points: 300});
        const canvas = document.getElementById("boundary");
        const ctx = canvas.getContext("2d");
        R.boundary.drawBoundary(canvas, b);
        const first = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        R.boundary.drawBoundary(canvas, b);
        const second = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let painted = 0, differing = 0;
        for (let i = 0; i < first.length; i += 4) {
            if (first[i + 3] > 0) painted++;
            if (first[i] !== second[i] || first[i + 1] !== second[i + 1] || first[i + 2] !== second[i + 2]) differing++;
        }
        return {painted: painted / (first.length / 4), differing};
    }""")
    assert info["painted"] > 0.5, info
    assert info["differing"] == 0, info


def test_boundary_text_twin(rpage, shots):
    result = rpage.evaluate("""() => {
        const b = F.boundaryData(120, 80, {points: 60});
        R.boundary.drawBoundary(document.getElementById("boundary"), b);
        const el = R.boundary.describeBoundary(b);
        twin("boundary-twin", el);
        const rows = [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
        return {rows, text: el.textContent, predicted: b.predicted, probability: b.probability,
                label: b.points.label, split: b.points.split};
    }""")
    predicted = np.array(result["predicted"])
    probability = np.array(result["probability"])
    label = np.array(result["label"])
    split = np.array(result["split"])
    for c, row in enumerate(result["rows"]):
        share = 100 * np.mean(predicted == c)
        assert row[1] == f"{float(f'{share:.3g}'):g}%"
        assert float(row[2]) == pytest.approx(probability[predicted == c].mean(), abs=1e-3)
        assert [int(v) for v in row[3:]] == [int(np.sum((label == c) & (split == s)))
                                             for s in ("train", "validation", "test")]
    assert [r[0] for r in result["rows"]] == ["setosa", "versicolor", "virginica"]
    assert "on a 120 × 80 grid; 60 points drawn" in result["text"]
    assert "sepal length (cm) held at 5.84" in result["text"] and "colour held at red" in result["text"]
    rpage.locator("#fig-boundary").screenshot(path=str(shots / "renderer-boundary.png"))


def test_regressor_surface_uses_a_ramp_and_a_colour_bar(rpage, shots):
    info = rpage.evaluate("""() => {
        const b = F.regressionBoundary();
        b.points = {x: [], y: [], label: [], split: []};
        const view = R.boundary.drawBoundary(document.getElementById("boundary-reg"), b, {valueLabel: "price"});
        const low = pixelAt("boundary-reg", view.x(0.2), view.y(0.2));
        const high = pixelAt("boundary-reg", view.x(9.8), view.y(4.9));
        const ramp = [R.palette.sequentialColour(0.01), R.palette.sequentialColour(0.99)];
        const full = F.regressionBoundary();
        R.boundary.drawBoundary(document.getElementById("boundary-reg"), full, {valueLabel: "price"});
        const el = R.boundary.describeBoundary(full);
        twin("boundary-reg-twin", el);
        const rows = [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
        return {low, high, ramp, rows, barTop: pixelAt("boundary-reg", view.plot.right + 27, view.plot.top + 24)};
    }""")
    assert close_to(info["low"], np.array(info["ramp"][0]), 12)
    assert close_to(info["high"], np.array(info["ramp"][1]), 12)
    assert close_to(info["barTop"], np.array(info["ramp"][1]), 12), "the colour bar's top is the highest value"
    grid_row = info["rows"][0]
    assert grid_row[:2] == ["grid predictions", "2400"]
    assert float(grid_row[2]) == pytest.approx(0.0) and float(grid_row[4]) == pytest.approx(20.0)
    assert float(grid_row[3]) == pytest.approx(10.0)
    assert [r[0] for r in info["rows"][1:]] == ["train points (actual)", "test points (actual)"]
    rpage.locator("#fig-boundary-reg").screenshot(path=str(shots / "renderer-boundary-regression.png"))


def test_regressor_surface_is_coloured_over_the_value_range_it_is_given(rpage):
    """With value_range (a regressor's target range, from Python) the ramp spans it: values beyond take
    the end colours, and the text twin carries the reply's note."""
    info = rpage.evaluate("""() => {
        const b = F.regressionBoundary();  // predicted x + 2y: 0 to 20
        b.points = {x: [], y: [], label: [], split: []};
        b.value_range = {low: 0, high: 10, min: 0, max: 20, below: 0, above: 1100,
                         note: "The colours follow the target's range, 0 to 10."};
        const view = R.boundary.drawBoundary(document.getElementById("boundary-reg"), b, {valueLabel: "price"});
        const at = (x, y) => pixelAt("boundary-reg", view.x(x), view.y(y));
        const bad = {...b, value_range: {low: 3, high: NaN}};
        return {middle: at(5, 0.1), beyond: at(8, 2), far: at(9.8, 4.9),
                ramp: [0.52, 1].map((t) => R.palette.sequentialColour(t)),
                text: R.boundary.describeBoundary(b).textContent,
                bad: (() => { try { R.boundary.checkBoundary(bad); } catch (e) { return e.message; } })()};
    }""")
    assert close_to(info["middle"], np.array(info["ramp"][0]), 12), "5.2 sits at 52% of the 0-10 range"
    assert close_to(info["beyond"], np.array(info["ramp"][1]), 12), "12 is beyond the range: the end colour"
    assert close_to(info["far"], np.array(info["ramp"][1]), 12)
    assert "The colours follow the target's range, 0 to 10." in info["text"]
    assert "value_range must have finite low <= high" in info["bad"]


# --- Scatter ---------------------------------------------------------------------------------------------

def test_scatter_colours_clusters_and_marks_centres(rpage, shots):
    info = rpage.evaluate("""() => {
        const d = F.clusterData(40);
        const view = R.scatter.drawScatter(document.getElementById("scatter"), d);
        const el = R.scatter.describeScatter(d);
        twin("scatter-twin", el);
        const rows = [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
        const i = 5;
        return {
            point: pixelAt("scatter", view.x(d.x[i]), view.y(d.y[i])), pointLabel: d.label[i],
            centreArm: pixelAt("scatter", view.x(5) + 6, view.y(2) - 6),
            nearest: view.nearest(view.x(d.x[i]), view.y(d.y[i])),
            rows, data: d,
        };
    }""")
    colours = class_colours(rpage)
    # The point drawn last at that spot may be another of the same blob, so check the colour only.
    assert close_to(info["point"], hex_rgb(colours[info["pointLabel"]]), 2)
    assert close_to(info["centreArm"], hex_rgb(colours[1]), 40), "the centre of cluster 1 is a cross in its colour"
    assert info["data"]["label"][info["nearest"]] == info["pointLabel"]
    x, y, label = (np.array(info["data"][k]) for k in ("x", "y", "label"))
    for c, row in enumerate(info["rows"]):
        assert row[0] == f"cluster {c}" and int(row[1]) == 40
        assert float(row[2]) == pytest.approx(x[label == c].mean(), rel=1e-2)
        assert float(row[3]) == pytest.approx(y[label == c].mean(), rel=1e-2)
    assert info["rows"][2][4] == "(3, 6)"
    rpage.locator("#fig-scatter").screenshot(path=str(shots / "renderer-scatter.png"))


def test_scatter_checks_sizes_and_names_string_labels(rpage):
    result = rpage.evaluate("""() => {
        let message = null;
        try { R.scatter.drawScatter(document.getElementById("scatter"), {x: [1, 2, 3], y: [1, 2], label: [0, 0, 0]}); }
        catch (e) { message = e.message; }
        const el = R.scatter.describeScatter({x: [1, 2, 3], y: [4, 5, 6], label: ["b", "a", "b"], classes: null});
        return {message,
                rows: [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent))};
    }""")
    assert "x has 3 values but y has 2" in result["message"]
    assert result["rows"] == [["a", "1", "2", "5"], ["b", "2", "2", "5"]]


def test_scatter_colours_a_continuous_value_on_a_ramp(rpage, shots):
    info = rpage.evaluate("""() => {
        const d = {x: [], y: [], label: [], x_name: "PC1", y_name: "PC2"};
        for (let i = 0; i < 50; i++) { d.x.push(i / 5); d.y.push(Math.sin(i / 5)); d.label.push(100 + i * 1.5); }
        const view = R.scatter.drawScatter(document.getElementById("scatter"), d, {legendTitle: "price"});
        const el = R.scatter.describeScatter(d, {legendTitle: "price"});
        twin("scatter-twin", el);
        return {low: pixelAt("scatter", view.x(d.x[0]), view.y(d.y[0])),
                high: pixelAt("scatter", view.x(d.x[49]), view.y(d.y[49])),
                ramp: [R.palette.sequentialColour(0), R.palette.sequentialColour(1)], text: el.textContent,
                rows: [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent))};
    }""")
    assert close_to(info["low"], np.array(info["ramp"][0]), 2) and close_to(info["high"], np.array(info["ramp"][1]), 2)
    assert "coloured by price from 100 to 173.5" in info["text"]
    assert [int(r[1]) for r in info["rows"]] == [13, 12, 12, 13]
    rpage.locator("#fig-scatter").screenshot(path=str(shots / "renderer-scatter-continuous.png"))


# --- Dendrogram ------------------------------------------------------------------------------------------

def test_dendrogram_cut_for_k_and_cut_line(rpage, shots):
    info = rpage.evaluate("""() => {
        const m = F.SMALL_MERGES;
        const view = R.dendrogram.drawDendrogram(document.getElementById("dendrogram"), {merges: m}, {k: 3});
        const el = R.dendrogram.describeDendrogram({merges: m}, {k: 3});
        twin("dendrogram-twin", el);
        const cutY = view.y(view.cut);
        const cols = [];
        for (let x = view.plot.left + 2; x < view.plot.right - 150; x += 9) cols.push(pixelAt("dendrogram", x, cutY));
        return {
            cuts: [1, 2, 3, 4, 5, 6].map((k) => R.dendrogram.cutForK(m, k)),
            order: view.order, labels: view.clusters.labels, k: view.clusters.k, cut: view.cut,
            inverted: view.y.invert(cutY), cutPixels: cols,
            leafBranch: pixelAt("dendrogram", view.x(0), view.y(0.5)),
            rootBranch: pixelAt("dendrogram", (view.x(0.5) + view.x(3.5)) / 2, view.y(6)),
            text: el.textContent,
            badK: (() => { try { R.dendrogram.cutForK(m, 7); } catch (e) { return e.message; } })(),
            badMerge: (() => { try { R.dendrogram.drawDendrogram(document.getElementById("dendrogram"),
                [{a: 0, b: 1, distance: 1, size: 2}, {a: 1, b: 2, distance: 2, size: 3}]); }
                        catch (e) { return e.message; } })(),
        };
    }""")
    assert info["cuts"] == pytest.approx([6.3, 5.0, 3.0, 1.75, 1.25, 0.5])
    assert info["order"] == [4, 5, 0, 1, 2, 3]
    assert info["k"] == 3 and info["labels"] == [0, 0, 1, 1, 2, 2]  # numbered by first row, as labels_
    assert info["inverted"] == pytest.approx(3.0)
    red = hex_rgb("#b3261e")
    on_line = sum(close_to(p, red, 40) for p in info["cutPixels"])
    assert on_line >= len(info["cutPixels"]) // 3, "the dashed cut line runs across the plot"
    colours = class_colours(rpage)
    assert close_to(info["leafBranch"], hex_rgb(colours[2]), 40), "branches under the cut take their cluster's colour"
    assert close_to(info["rootBranch"], hex_rgb(rpage.evaluate("R.palette.INK.neutral")), 40), "above the cut: grey"
    assert "Cut at distance 3: 3 clusters of sizes 2, 2, 2." in info["text"]
    assert "row 5 + row 6" in info["text"] and "merge 1 + merge 2" in info["text"]
    assert "k must be an integer from 1 to 6, got 7" in info["badK"]
    assert "id 1 is merged twice" in info["badMerge"]
    rpage.locator("#fig-dendrogram").screenshot(path=str(shots / "renderer-dendrogram.png"))


def test_dendrogram_matches_scipy_on_iris(rpage):
    """Leaf order, clusters at a cut and cuts for k agree with scipy's dendrogram and fcluster."""
    hierarchy = pytest.importorskip("scipy.cluster.hierarchy")
    from sklearn.datasets import load_iris
    X = load_iris().data[::3]  # 50 rows
    Z = hierarchy.linkage(X, method="ward")
    n = len(X)
    merges = [{"a": int(a), "b": int(b), "distance": float(d), "size": int(s)} for a, b, d, s in Z]
    cut = float(Z[-3, 2] + Z[-4, 2]) / 2
    result = rpage.evaluate("""([m, cut]) => {
        const view = R.dendrogram.drawDendrogram(document.getElementById("dendrogram"), m, {cut});
        return {order: view.order, labels: view.clusters.labels,
                byK: [2, 4, 7].map((k) => R.dendrogram.clustersAtCut(m, R.dendrogram.cutForK(m, k)).labels)};
    }""", [merges, cut])
    assert result["order"] == hierarchy.dendrogram(Z, no_plot=True)["leaves"]

    def same_partition(ours, theirs):
        pairs = set(zip(ours, theirs))
        return len(pairs) == len(set(ours)) == len(set(theirs))

    assert len(result["labels"]) == n
    assert same_partition(result["labels"], hierarchy.fcluster(Z, cut, criterion="distance"))
    for k, labels in zip([2, 4, 7], result["byK"]):
        assert len(set(labels)) == k
        assert same_partition(labels, hierarchy.fcluster(Z, k, criterion="maxclust"))


def test_truncated_dendrogram_matches_scipy_lastp(rpage, shots):
    """Only the last merges sent (as the bridge does for big data): earlier clusters are drawn as leaves,
    in scipy's order and with scipy's "(size)" labels where the sizes can be told."""
    hierarchy = pytest.importorskip("scipy.cluster.hierarchy")
    from sklearn.datasets import load_iris
    X = load_iris().data
    Z = hierarchy.linkage(X, method="average")
    n, shown = len(X), 20
    first = n - 1 - shown
    merges = [{"a": int(a), "b": int(b), "distance": float(d), "size": int(s)} for a, b, d, s in Z[first:]]
    result = rpage.evaluate("""([data]) => {
        const view = R.dendrogram.drawDendrogram(document.getElementById("dendrogram"), data, {k: 3});
        const tree = R.dendrogram.treeOf(data);
        const el = R.dendrogram.describeDendrogram(data, {k: 3});
        return {ids: view.order.map((leaf) => view.leafIds[leaf]), names: view.order.map(tree.leafName),
                k: view.clusters.k, text: el.textContent, rows: el.querySelectorAll("tbody tr").length};
    }""", [{"merges": merges, "n_leaves": n, "first_merge": first, "truncated": True}])
    scipy_tree = hierarchy.dendrogram(Z, truncate_mode="lastp", p=shown + 1, no_plot=True)
    assert result["ids"] == scipy_tree["leaves"]
    for ours, theirs, node in zip(result["names"], scipy_tree["ivl"], scipy_tree["leaves"]):
        if node < n:
            assert ours == str(node + 1)  # rows are numbered from 1 on the page
        else:
            assert ours in (theirs, "…")
    assert result["k"] == 3 and result["rows"] == shown
    assert "150 rows joined by 149 merges; the last 20 merges are listed." in result["text"]
    name = lambda i: f"row {i + 1}" if i < n else f"merge {i - n + 1}"  # noqa: E731
    a, b, d = int(Z[-1, 0]), int(Z[-1, 1]), Z[-1, 2]
    assert f"149{name(a)} + {name(b)}{float(f'{d:.4g}'):g}150" in result["text"]
    rpage.locator("#fig-dendrogram").screenshot(path=str(shots / "renderer-dendrogram-truncated.png"))


def test_dendrogram_with_many_leaves_has_no_leaf_labels(rpage, shots):
    info = rpage.evaluate("""() => {
        const m = F.balancedMerges(9);  // 512 leaves
        const view = R.dendrogram.drawDendrogram(document.getElementById("dendrogram-big"), m, {k: 4});
        // Below the plot, where leaf labels would go, nothing is painted.
        let painted = 0;
        for (let x = view.plot.left; x < view.plot.right; x += 2) {
            for (let dy = 3; dy < 14; dy += 2) {
                const p = pixelAt("dendrogram-big", x, view.plot.bottom + dy);
                if (p[0] < 200 || p[1] < 200 || p[2] < 200) painted++;
            }
        }
        return {painted, k: view.clusters.k, labelled: view.labelled, n: view.order.length};
    }""")
    assert info["n"] == 512 and info["k"] == 4
    assert info["labelled"] is False and info["painted"] == 0
    rpage.locator("#fig-dendrogram-big").screenshot(path=str(shots / "renderer-dendrogram-512.png"))


# --- Scree -----------------------------------------------------------------------------------------------

def test_scree_bars_cumulative_line_and_twin(rpage, shots):
    from sklearn.datasets import load_wine
    from sklearn.decomposition import PCA
    from sklearn.preprocessing import StandardScaler
    ratios = PCA().fit(StandardScaler().fit_transform(load_wine().data)).explained_variance_ratio_
    cumulative = np.cumsum(ratios)
    info = rpage.evaluate("""(ratios) => {
        const view = R.scree.drawScree(document.getElementById("scree"), {ratios});
        const el = R.scree.describeScree({ratios});
        twin("scree-twin", el);
        return {
            bar: pixelAt("scree", view.x(0), (view.y(0) + view.y(ratios[0])) / 2),
            aboveBar: pixelAt("scree", view.x(0), view.y(ratios[0]) - 6),
            cumulativePoint: pixelAt("scree", view.x(4), view.y(ratios.slice(0, 5).reduce((a, b) => a + b))),
            guide: [...Array(40).keys()].map((i) => pixelAt("scree", view.x(10) + i, view.y(0.9))),
            text: el.textContent,
            rows: [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
        };
    }""", ratios.tolist())
    colours = class_colours(rpage)
    assert close_to(info["bar"], hex_rgb(colours[0]), 2)
    assert not close_to(info["aboveBar"], hex_rgb(colours[0]), 30)
    assert close_to(info["cumulativePoint"], hex_rgb(colours[1]), 2)
    assert sum(not close_to(p, np.array([255, 255, 255]), 20) for p in info["guide"]) >= 15, "a dashed 90% guide"
    reach = int(np.argmax(cumulative >= 0.9)) + 1  # 8 components for standardised wine
    assert f"{reach} of 13 components explain at least 90% of the variance." in info["text"]
    assert len(info["rows"]) == 13 and info["rows"][0][0] == "PC1"
    assert float(info["rows"][0][1].rstrip("%")) == pytest.approx(100 * ratios[0], abs=0.05)
    assert float(info["rows"][12][2].rstrip("%")) == pytest.approx(100.0, abs=0.05)
    rpage.locator("#fig-scree").screenshot(path=str(shots / "renderer-scree.png"))


# --- Regression ------------------------------------------------------------------------------------------

def test_regression_views_and_error_summary(rpage, shots):
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score
    info = rpage.evaluate("""() => {
        const d = F.regressionData(80);
        const pa = R.regression.drawPredictedActual(document.getElementById("pred-actual"), d);
        const res = R.regression.drawResiduals(document.getElementById("residuals"), d);
        const fit = R.regression.drawFittedLine(document.getElementById("fitted"), d);
        const el = R.regression.describeRegression(d);
        twin("regression-twin", el);
        const [lo, hi] = pa.x.domain;
        const t = lo + 0.13 * (hi - lo);
        // A point on the fitted line away from the data points: x = 0.2 is left of every sample.
        const xs = d.x.slice().sort((a, b) => a - b);
        const gapX = (xs[0] + xs[1]) / 2;
        return {
            d,
            diagonal: [-2, -1, 0, 1, 2].map((k) => pixelAt("pred-actual", pa.x(t) + k, pa.y(t) - k)),
            zeroLine: [...Array(30).keys()].map((i) => pixelAt("residuals", res.plot.left + 40 + i, res.y(0))),
            line: pixelAt("fitted", fit.x(gapX), fit.y(3 + 2 * gapX)),
            rows: [...el.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
            bad: (() => { try { R.regression.drawResiduals(document.getElementById("residuals"),
                {actual: [1, 2], predicted: [1]}); } catch (e) { return e.message; } })(),
        };
    }""")
    grey = hex_rgb(rpage.evaluate("R.palette.INK.muted"))
    assert any(close_to(p, grey, 50) for p in info["diagonal"]), "the y = x diagonal"
    assert sum(close_to(p, grey, 50) for p in info["zeroLine"]) >= 10, "the dashed zero line"
    assert close_to(info["line"], hex_rgb("#1d232a"), 60), "the fitted line"
    d = info["d"]
    actual, predicted, split = np.array(d["actual"]), np.array(d["predicted"]), np.array(d["split"])
    assert [r[0] for r in info["rows"]] == ["train", "validation", "test"]
    for row in info["rows"]:
        m = split == row[0]
        assert int(row[1]) == m.sum()
        assert float(row[3]) == pytest.approx(mean_absolute_error(actual[m], predicted[m]), rel=1e-3)
        assert float(row[4]) == pytest.approx(np.sqrt(mean_squared_error(actual[m], predicted[m])), rel=1e-3)
        assert float(row[5]) == pytest.approx(r2_score(actual[m], predicted[m]), rel=1e-3)
    assert "actual has 2 values but predicted has 1" in info["bad"]
    curve = rpage.evaluate("""() => {
        const d = F.regressionData(30);
        const grid = F.linspace(0, 10, 50);
        d.line = {x: grid, predicted: grid.map((v) => 3 + 2 * v + Math.sin(v))};  // a curve, not the rows
        const fit = R.regression.drawFittedLine(document.getElementById("fitted"), d);
        let bad = null;
        try {
            R.regression.drawFittedLine(document.getElementById("residuals"), {...d, line: {x: grid, predicted: [1]}});
        }
        catch (e) { bad = e.message; }
        return {onCurve: pixelAt("fitted", fit.x(7.5), fit.y(3 + 15 + Math.sin(7.5))), bad};
    }""")
    assert close_to(curve["onCurve"], hex_rgb("#1d232a"), 60), "the curve from `line` is drawn"
    assert "line has 50 x values but 1 predictions" in curve["bad"]
    for name in ("pred-actual", "residuals", "fitted"):
        rpage.locator(f"#fig-{name}").screenshot(path=str(shots / f"renderer-{name}.png"))


# --- Confusion matrix ------------------------------------------------------------------------------------

def test_confusion_table_is_labelled_and_keyboard_reachable(rpage, shots):
    rpage.evaluate("""() => {
        window.selected = [];
        R.confusion.renderConfusion(document.getElementById("confusion"), F.CONFUSION, {
            onSelectRows: (rows, cell) => { window.selected.push({rows, cell});
                document.getElementById("selected").textContent = rows.length ? `selected ${rows.join(" ")}` : ""; },
        });
    }""")
    table = rpage.locator("#confusion table")
    expect(table.locator("caption")).to_contain_text("rows are the actual classes")
    expect(table.locator("th[scope=col]")).to_have_text(["setosa", "versicolor", "virginica"])
    expect(table.locator("th[scope=row]")).to_have_text(["setosa", "versicolor", "virginica"])
    expect(table.locator("td.cm-diagonal")).to_have_text(["10", "8", "9"])
    buttons = table.get_by_role("button")
    expect(buttons).to_have_count(2)  # only the non-empty off-diagonal cells
    region = rpage.get_by_role("region", name="Misclassified rows")
    expect(region).to_be_hidden()

    rpage.locator("body").click(position={"x": 5, "y": 5})
    button = rpage.get_by_role("button", name="2 rows of actual versicolor predicted as virginica: show row numbers")
    for _ in range(10):
        rpage.keyboard.press("Tab")
        if button.evaluate("b => b === document.activeElement"):
            break
    expect(button).to_be_focused()
    rpage.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(region).to_be_visible()
    expect(region).to_contain_text("Actual versicolor, predicted virginica: 2 rows")
    expect(region).to_contain_text("Rows 19, 20")
    assert rpage.evaluate("window.selected.at(-1)") == {
        "rows": [19, 20], "cell": {"actual": "versicolor", "predicted": "virginica"}}
    rpage.screenshot(path=str(shots / "renderer-confusion.png"), clip=rpage.locator("#fig-confusion").bounding_box())

    rpage.keyboard.press("Escape")
    expect(region).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_be_focused()
    rpage.get_by_role("button", name="1 row of actual virginica predicted as versicolor: show row numbers").click()
    expect(region).to_contain_text("Rows 21")

    message = rpage.evaluate("""() => { try { R.confusion.renderConfusion(document.createElement("div"),
        {labels: ["a", "b"], matrix: [[1, 2]]}); } catch (e) { return e.message; } }""")
    assert "2 labels need a 2 × 2 matrix, got 1 rows" in message


# --- Export ----------------------------------------------------------------------------------------------

def test_exports_png_and_text_downloads(rpage):
    png = rpage.evaluate("""async () => {
        const canvas = document.getElementById("scree");
        R.scree.drawScree(canvas, {ratios: [0.6, 0.3, 0.1]});
        const blob = await R.exporting.canvasToPngBlob(canvas);
        const bytes = new Uint8Array(await blob.arrayBuffer());
        const image = await createImageBitmap(blob);
        return {type: blob.type, head: Array.from(bytes.slice(0, 8)), w: image.width, cw: canvas.width};
    }""")
    assert png["type"] == "image/png"
    assert bytes(png["head"]) == b"\x89PNG\r\n\x1a\n"
    assert png["w"] == png["cw"], "the PNG keeps the canvas's device pixels"

    with rpage.expect_download() as info:
        rpage.evaluate("R.exporting.downloadText('a,b\\n1,2\\n', 'predictions.csv', 'text/csv')")
    download = info.value
    assert download.suggested_filename == "predictions.csv"
    assert open(download.path()).read() == "a,b\n1,2\n"
    assert rpage.locator("a[download]").count() == 0, "the temporary link is removed"


def test_dendrogram_grows_merge_by_merge(rpage):
    """upTo draws only the first merges on the full tree's scale: the root link is absent until the last step."""
    result = rpage.evaluate("""() => {
        const m = F.SMALL_MERGES;
        const canvas = document.getElementById("dendrogram");
        const at = (upTo) => {
            const view = R.dendrogram.drawDendrogram(canvas, {merges: m}, {upTo});
            return pixelAt("dendrogram", (view.x(0.5) + view.x(3.5)) / 2, view.y(6));
        };
        return {first: at(1), all: at(m.length)};
    }""")
    white = (255, 255, 255)
    assert close_to(result["first"], white, 10), "after one merge the root link is not drawn yet"
    assert not close_to(result["all"], white, 10), "after the last merge it is"
