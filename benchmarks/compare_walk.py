"""A walk through comparing five learners on a table shaped like the ones people bring, timed and photographed.

Usage: python3 -m benchmarks.compare_walk [--rows 20000] [--folds 5] [--shots docs/screenshots]

The site is built into a temporary folder and served from there; headless Chromium opens it at 1440x900
and a user's walk is driven through it: upload the CSV -> the column profile -> choose the target ->
"Compare learners" (a tree, logistic regression, Gaussian naive Bayes, k-NN and the perceptron) under
k-fold cross-validation -> the ranking by accuracy, then by macro recall (balanced accuracy) -> open its second row ->
Curves -> Importance -> tune one hyperparameter of the best learner -> "Use the best" -> restore a run
from the History -> export the predictions. Each step is timed from the click to the status line
settling on "Ready" (the page's own clock, as benchmarks/workflows.py reads it), a screenshot of each
step is saved as walk-NN-<step>.png, and the times are printed as a markdown table.

The table: an ID, a name, a signup date, a free-text comment, missing cells written "", NA and ?, numeric
columns on scales from 0.01 to 10,000, three categorical columns and an imbalanced 3-class target
(about 84 / 11 / 5 %).
"""

import argparse
import os
import pathlib
import platform
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from benchmarks.workflows import serve_site  # noqa: E402
from benchmarks.workflows_page import READY_CLOCK, SETTLE_MS  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

VIEWPORT = {"width": 1440, "height": 900}
TARGET = "plan_outcome"
LEARNERS = {"DecisionTreeClassifier": "Decision tree", "LogisticRegression": "Logistic regression",
            "GaussianNB": "Gaussian naive Bayes", "KNeighborsClassifier": "k-nearest neighbours",
            "Perceptron": "Perceptron"}
# The hyperparameter tuned for whichever learner ranks first, and the values tried.
TUNE = {"DecisionTreeClassifier": ("max_depth", "2..8"), "LogisticRegression": ("l2", "0, 0.0001, 0.001, 0.01, 0.1"),
        "GaussianNB": ("var_smoothing", "1e-9, 1e-6, 1e-3, 0.1"), "KNeighborsClassifier": ("k", "1, 5, 15, 31"),
        "Perceptron": ("max_iter", "5, 20, 100")}


def make_table(path, rows=20_000, seed=0):
    """A customer table as people export it (see the module's docstring); the target depends on a few columns."""
    rng = np.random.default_rng(seed)
    region = rng.choice(["north", "south", "east", "west"], rows, p=[0.4, 0.3, 0.2, 0.1])
    channel = rng.choice(["web", "phone", "shop"], rows)
    tier = rng.choice(["bronze", "silver", "gold"], rows, p=[0.6, 0.3, 0.1])
    income = rng.lognormal(9.2, 0.4, rows).round(2)  # about 10,000
    ratio = rng.beta(2, 30, rows).round(4)  # about 0.06: the 0.01 scale
    visits = rng.poisson(8, rows)
    tenure = rng.integers(1, 120, rows)
    spend = (income * 0.02 * rng.lognormal(0, 0.3, rows)).round(2)
    risk = (-tenure / 40 + 12 * ratio + (tier == "bronze") * 0.8 - visits / 10 + (channel == "web") * 0.4
            + rng.normal(0, 0.6, rows))
    outcome = np.where(risk > 1.15, "left", np.where(risk > 0.35, "downgraded", "stayed"))
    signup = (np.datetime64("2019-01-01") + rng.integers(0, 5 * 365, rows)).astype(str)
    comment = [free_text(rng) for _ in range(rows)]
    columns = {"customer_id": [f"K{700000 + i}" for i in range(rows)], "name": [f"Customer {i}" for i in range(rows)],
               "signup": signup, "region": region, "channel": channel, "tier": tier, "income": income,
               "late_ratio": ratio, "visits": visits, "tenure_months": tenure, "monthly_spend": spend,
               "comment": comment, TARGET: outcome}
    cells = {name: np.asarray(values).astype(str).astype(object) for name, values in columns.items()}
    for name in ("region", "income", "late_ratio", "visits", "monthly_spend"):  # missing, written three ways
        holes = rng.random(rows) < 0.04
        cells[name][holes] = rng.choice(["", "NA", "?"], holes.sum())
    lines = [",".join(cells)] + [",".join(row) for row in zip(*cells.values())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def free_text(rng):
    """A comment as a call centre types it: mostly different sentences, some empty or NA, some quoted commas."""
    if rng.random() < 0.15:
        return rng.choice(["", "NA"])
    who = rng.choice(["Customer", "Caller", "Their daughter", "The account holder"])
    did = rng.choice(["called", "wrote", "complained", "asked"])
    about = rng.choice(["the bill", "a late fee", "the new plan", "slow delivery", "a refund", "the app"])
    times = rng.integers(1, 9)
    return f'"{who} {did} {times} times about {about}, ticket {rng.integers(10_000, 99_999)}"'


def settled(page, clicked_at):
    """Seconds from `clicked_at` (performance.now(), ms) to the last "Ready", once the page has read Ready for
    SETTLE_MS; 0 for a step that never left Ready (choosing the target the page had already suggested)."""
    page.wait_for_function(
        """([t, settle]) => document.getElementById("status").textContent === "Ready"
                            && window.__ready.at >= window.__ready.busyAt
                            && performance.now() - Math.max(t, window.__ready.at) > settle""",
        arg=[clicked_at, SETTLE_MS], timeout=900_000, polling=100)
    return max(0.0, page.evaluate("() => window.__ready.at") - clicked_at) / 1000


class Walk:
    """The page, a clock, and the table of step times; each step saves its screenshot."""

    def __init__(self, page, shots):
        self.page, self.shots, self.steps = page, shots, []

    def now(self):
        return self.page.evaluate("() => performance.now()")

    def step(self, name, act, show=None, what=""):
        """Do `act()`, wait for Ready to settle, scroll `show` into view and photograph the page. `what`
        (text, or a function read once the step is done) describes the step in the table."""
        clicked_at = self.now()
        act()
        seconds = settled(self.page, clicked_at)
        if self.alert():  # a step that ended on an error is not a time worth reporting
            raise SystemExit(f"step {name} ended on an error: {self.alert()}")
        self.record(name, seconds, show, what() if callable(what) else what)
        return seconds

    def record(self, name, seconds, show, what):
        if show:
            self.page.locator(show).first.scroll_into_view_if_needed()
            self.page.wait_for_timeout(300)  # let a smooth scroll and a redraw finish
        shot = self.shots / f"walk-{len(self.steps) + 1:02d}-{name}.png"
        self.page.screenshot(path=str(shot))
        self.steps.append((name, seconds, what, shot.name))
        print(f"{len(self.steps):2d} {name}: {seconds:.2f} s  {what}", flush=True)

    def alert(self):
        box = self.page.locator("#message")
        return box.text_content() if box.is_visible() else ""


def ranking(page):
    rows = page.locator("#leaderboard-table tbody tr")
    return [(row.locator("th").inner_text(), row.locator("td").nth(1).inner_text()) for row in rows.all()]


def walk(page, csv_path, folds, shots):
    """The whole walk; returns the steps as (name, seconds, what, screenshot file)."""
    w = Walk(page, shots)
    second, best = load_and_compare(w, csv_path, folds)
    judge_and_tune(w, second, best)
    return w.steps


def load_and_compare(w, csv_path, folds):
    """Upload, profile, target, and the five learners compared; returns the labels of the 2nd and the 1st."""
    page = w.page

    def upload_and_open_profile():
        page.set_input_files("#csv-file", str(csv_path))
        details = page.locator("#profile-details")
        details.wait_for(state="visible")
        if details.get_attribute("open") is None:  # folded: a user opens it to read the columns
            page.locator("#profile-details summary").click()

    w.step("upload-profile", upload_and_open_profile, "#profile-box",
           lambda: page.locator("#data-summary").inner_text()[:90])
    suggested = page.input_value("#target") == TARGET
    w.step("target", lambda: page.select_option("#target", TARGET), "#model-heading",
           f"{TARGET}{' (the page had suggested it)' if suggested else ''}")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.fill("#cv-k", str(folds))
    choose_model(page, "DecisionTreeClassifier")
    box = page.locator("#leaderboard-box")
    for label in LEARNERS.values():
        box.get_by_label(label, exact=True).check()
    w.step("compare-ranking", lambda: box.locator("#leaderboard-run").click(), "#leaderboard-box",
           lambda: f"{folds} folds: " + "; ".join(f"{name} {score}" for name, score in ranking(page)))
    ranked = ranking(page)
    if len(ranked) < 2:
        raise SystemExit(f"the ranking has {len(ranked)} rows")
    # On an imbalanced target accuracy flatters a learner that favours the big class: ranked again by
    # macro recall, the mean of the per-class recalls, which is balanced accuracy (no training), then
    # back, so the rest of the walk follows the accuracy ranking.
    metric = box.get_by_label("Rank by")
    w.step("ranked-by-macro-recall", lambda: metric.select_option("recall_macro"), "#leaderboard-box",
           lambda: "; ".join(f"{name} {score}" for name, score in ranking(page)))
    metric.select_option("accuracy")
    return ranked[1][0], ranked[0][0]


def judge_and_tune(w, second, best):
    """Open the 2nd of the ranking and judge it; tune the 1st and use the best; History; export."""
    page = w.page
    second_row = page.locator("#leaderboard-table tbody tr").nth(1)
    w.step("second-row-opened", lambda: second_row.get_by_role("button").click(), "#results-heading", f"opens {second}")
    w.step("curves", lambda: page.click("#tab-curves"), "#results-heading", f"{second}, out-of-fold")
    w.step("importance", lambda: page.click("#tab-importance"), "#results-heading", f"{second}, permutation")

    name = next(name for name, label in LEARNERS.items() if label == best)
    param, values = TUNE[name]
    choose_model(page, name)
    page.select_option("#tune-param-1", param)
    page.fill("#tune-values-1", values)
    page.select_option("#tune-param-2", "")
    w.step("tune-best", lambda: page.click("#tune"), "#tune-box", f"{best}: {param} over {values}")
    w.step("use-the-best", lambda: page.click("#tune-use-best"), "#results-heading",
           lambda: f"{param} = {page.input_value(f'#param-{param}')}")
    run = page.locator("#history-list > li").filter(has_text=second).first
    w.step("history-restore", lambda: run.get_by_role("button").click(), "#history-box", f"restores {second}")
    w.step("export-predictions", lambda: export(page), "#export-heading", "CSV download")


def choose_model(page, name):
    page.select_option("#model", name)
    page.wait_for_function("() => document.getElementById('status').textContent === 'Ready'")


def export(page):
    with page.expect_download(timeout=900_000) as info:
        page.click("#export-predictions")
    info.value.path()


def report(steps, machine, rows, folds):
    lines = [f"{rows:,} rows, 5 learners under {folds}-fold cross-validation; {machine}.", "",
             "| # | step | time (click to Ready) | what | screenshot |", "|---|---|---|---|---|"]
    for i, (name, seconds, what, shot) in enumerate(steps, 1):
        lines.append(f"| {i} | {name} | {seconds:.2f} s | {what} | [{shot}](../docs/screenshots/{shot}) |")
    lines.append(f"| | total | {sum(s for _, s, _, _ in steps):.1f} s | | |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--shots", type=pathlib.Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    args.shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        csv_path = make_table(tmp / "customers.csv", args.rows)
        url, server = serve_site(tmp)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            machine = (f"Chromium {browser.version}, {platform.machine()}, {os.cpu_count()} CPUs, "
                       f"load average {os.getloadavg()[0]:.2f} at the start")
            context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
            context.add_init_script(READY_CLOCK)
            page = context.new_page()
            page.set_default_timeout(900_000)
            page.goto(url)
            page.wait_for_function("() => document.getElementById('status').textContent === 'Ready'", timeout=300_000)
            steps = walk(page, csv_path, args.folds, args.shots)
            machine += f", {os.getloadavg()[0]:.2f} at the end"
            print(report(steps, machine, args.rows, args.folds))
            context.close()
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
