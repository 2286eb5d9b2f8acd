"""A table like the ones people bring, through the page at its default settings: 20,000 rows with an
ID, names, dates, free text, gaps written four ways and columns on scales from 0.01 to 10,000. The
profile leaves the ID and the text out, the tree stays readable and is drawn, and the learners that
need scaled numbers score near the tree because the page standardizes for them."""

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, show, train, wait_until_ready

pytestmark = pytest.mark.e2e
N_ROWS = 20_000


def real_shaped_csv(path, n=N_ROWS, seed=0):
    """The class depends on a column of hundredths and a column of thousands alike, so a learner that
    reads raw distances would see only the large one."""
    rng = np.random.default_rng(seed)
    small, large = rng.normal(0, 0.01, n), rng.normal(5_000, 10_000, n)
    label = np.where(small / 0.01 + (large - 5_000) / 10_000 + rng.normal(0, 0.3, n) > 0, "good", "bad")
    gaps, comments = ["", "NA", "#N/A", "?"], ["fine", "called twice, no answer", "late again", ""]
    lines = ["customer_id,name,joined,small,large,shop,comment,label"]
    for i in range(n):
        large_cell = gaps[i % 4] if i % 41 == 0 else f"{large[i]:.2f}"
        lines.append(f"{700000 + i},Person {i},2021-{1 + i % 12:02d}-{1 + i % 28:02d},{small[i]:.6f},{large_cell},"
                     f"{'north' if i % 3 else 'south'},\"{comments[i % 4]}\",{label[i]}")
    path.write_text("\n".join(lines) + "\n")
    return path


def score(page):
    return float(page.locator("#accuracy").text_content().rstrip("%")) / 100


def test_a_real_shaped_table_gives_sound_models_on_the_defaults(page, site_url, tmp_path):
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(real_shaped_csv(tmp_path / "customers.csv")))
    expect(page.locator("#data-summary")).to_contain_text(f"{N_ROWS} rows", timeout=60_000)
    expect(page.get_by_label("Target")).to_have_value("label")
    # The profile leaves the ID and the free-text columns out, with its reason, and keeps the rest.
    for column in ("customer_id", "name"):
        expect(page.get_by_label(f"Role of {column}", exact=True)).to_have_value("ignore")

    train(page, "DecisionTreeClassifier", timeout=120_000)
    tree = score(page)
    show(page, "Tree")
    assert painted_pixels(page, "#tree-canvas") > 20_000
    leaves = page.evaluate("""() => [...document.querySelectorAll("#tree-text li")]
        .filter((li) => !li.querySelector("ul, button")).length""")
    assert 0 < leaves <= 200  # folded beyond the view's budget: never thousands of boxes

    for model in ("KNeighborsClassifier", "LogisticRegression"):
        train(page, model, timeout=120_000)
        assert score(page) > tree - 0.05, f"{model} scored {score(page):.3f}, the tree {tree:.3f}"
    assert tree > 0.8
