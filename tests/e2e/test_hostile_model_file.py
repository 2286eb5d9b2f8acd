"""A model file is input from outside: importing a hostile one (a k-NN file asking for 10^9 neighbours of its
few stored rows, one written in a newer format version) shows a message naming what is wrong, points at the
import button, and keeps the model the page had; the same file repaired imports."""

import json

import pytest
from playwright.sync_api import expect

from pagekit import open_example, train

pytestmark = pytest.mark.e2e


def test_a_hostile_model_file_is_refused_and_the_model_stays(page, site_url, tmp_path):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "KNeighborsClassifier")
    score = page.locator("#accuracy").text_content()
    with page.expect_download() as info:
        page.get_by_role("button", name="Export model").click()
    model = json.loads(open(info.value.path()).read())
    message = page.locator("#message")

    greedy = tmp_path / "greedy.json"
    greedy.write_text(json.dumps({**model, "params": {**model["params"], "n_neighbors": 10 ** 9}}))
    page.locator("#import-model").set_input_files(str(greedy))
    expect(message).to_contain_text("params.n_neighbors", timeout=60_000)
    expect(message).to_contain_text("training rows the file keeps")
    expect(page.locator("#accuracy")).to_have_text(score)
    expect(page.locator("#model-summary")).not_to_contain_text("greedy.json")
    expect(page.locator("#import-button")).to_have_attribute("aria-invalid", "true")
    message.get_by_role("button", name="Go to Import model…").click()
    expect(page.locator("#import-button")).to_be_focused()

    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**model, "version": 2}))
    page.locator("#import-model").set_input_files(str(newer))
    expect(message).to_contain_text("format version 2", timeout=60_000)
    expect(message).to_contain_text("up to version 1")
    expect(page.locator("#accuracy")).to_have_text(score)

    good = tmp_path / "good.json"
    good.write_text(json.dumps(model))
    page.locator("#import-model").set_input_files(str(good))
    expect(page.locator("#model-summary")).to_contain_text("good.json", timeout=60_000)
    expect(message).to_be_hidden()
