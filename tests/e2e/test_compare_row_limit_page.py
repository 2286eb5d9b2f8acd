"""End to end: "Every learner of this task" in Compare learners on a table of 20,000 rows, above the kernel
perceptron's row limit. The limit is said beside the learner; without the sample switch the learner is left
out with the reason (not a failure), and with it every learner ranks, the kernel perceptron marked as
trained on a sample of its limit. Its row opens the same sampled model."""

import pathlib

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ROWS = 20_000


def sides_csv(n=ROWS, seed=0):
    """Two measurements and the side of the diagonal each point lies on, with a margin between the sides
    (so every linear learner, the perceptron too, converges quickly), all values non-negative (so every
    naive Bayes takes them)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 10, size=(n, 2))
    east = X[:, 0] > X[:, 1]
    X[:, 0] += np.where(east, 1.5, 0.5)
    return "u,v,side\n" + "".join(f"{u:.3f},{v:.3f},{'east' if e else 'west'}\n" for (u, v), e in zip(X, east))


def test_every_learner_on_a_big_table_ranks_the_limited_one_on_a_sample(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "sides.csv", sides_csv())
    expect(page.locator("#data-summary")).to_contain_text("20000 rows", timeout=60_000)
    expect(page.get_by_label("Target")).to_have_value("side")
    box = page.locator("#leaderboard-box")
    kernel = box.get_by_label("Kernel perceptron (up to 2,000 rows)", exact=True)
    expect(kernel).to_be_visible()
    switch = box.get_by_label("Use a sample of 2,000 rows for learners with a row limit (Kernel perceptron; this "
                              "table has 20,000 rows)")
    expect(switch).not_to_be_checked()

    # Without the sample: the kernel perceptron is left out, with the reason, below the ranked learners.
    box.get_by_label("Gaussian naive Bayes", exact=True).check()
    kernel.check()
    box.get_by_role("button", name="Compare", exact=True).click()
    table = page.locator("#leaderboard-table")
    expect(table).to_be_visible(timeout=120_000)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=120_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    left_out = table.locator("tbody tr", has=page.locator("th", has_text="Kernel perceptron"))
    expect(left_out.locator("td.left-out")).to_have_text(
        "Left out: works on up to 2,000 rows; this table has 20,000. Use a sample for learners with a row limit "
        "to rank it on 2,000 rows.")
    expect(left_out.locator("td").first).to_have_text("—")
    expect(table.locator("td.failed")).to_have_count(0)

    # With it, every classifier ranks; the kernel perceptron's row says it trained on a sample.
    switch.check()
    box.get_by_role("button", name="Every learner of this task").click()
    learners = box.locator("#leaderboard-learners input:checked").count()
    assert learners >= 9
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=300_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    ranked = table.locator("tbody tr:not(.baseline)")
    expect(ranked).to_have_count(learners)
    expect(table.locator("td.failed, td.left-out")).to_have_count(0)
    assert all(rank.strip().isdigit() for rank in ranked.locator("td:first-child").all_inner_texts())
    sampled = table.locator("tbody tr", has=page.locator("th", has_text="Kernel perceptron"))
    expect(sampled.locator(".sample-mark")).to_have_text("(on a sample of 2,000 rows)")
    expect(table.locator(".sample-mark")).to_have_count(1)
    expect(table.locator("caption")).to_contain_text("on the 6000 test rows")  # the whole table's split
    expect(table.locator("caption")).to_contain_text("seeded random sample of its row limit")
    table.scroll_into_view_if_needed()
    box.screenshot(path=str(SHOTS / "compare-with-sample.png"))

    # Its row opens the model trained on the same sample: the Train panel's sample switch is on for it.
    sampled.get_by_role("button", name="Kernel perceptron").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=120_000)
    expect(page.get_by_label("Model", exact=True)).to_have_value("KernelPerceptron")
    expect(page.locator("#row-limit-sample")).to_be_checked()
    expect(page.locator("#accuracy")).to_have_text(sampled.locator("td").nth(1).inner_text())
