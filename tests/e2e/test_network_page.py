"""The neural networks in the page: the hidden layers typed in a text box (checked by the rule Python
describes), Tune trying layer sizes against alpha, the network view with its loss curve, the replay of
training and the steps of one row's forward and backward pass."""

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from a11ykit import assert_accessible
from pagekit import open_example, painted_pixels, show, train

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)


def test_hidden_layers_are_typed_checked_and_tuned(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("MLPClassifier")
    box = page.get_by_label("hidden layers", exact=True)
    expect(box).to_have_value("32")  # the descriptor's page default
    box.fill("4, 0")
    page.get_by_role("button", name="Train").click()
    error = page.locator("#param-hidden_layer_sizes-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("at least 1")
    box.fill("1, 2, 3, 4")
    page.get_by_role("button", name="Train").click()
    expect(error).to_contain_text("1 to 3 whole numbers")
    box.fill("6, 4")
    page.get_by_label("max epochs", exact=True).fill("40")
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(error).to_be_hidden()
    link = parse_qs(urlparse(page.url).fragment)
    assert json.loads(link["params"][0])["hidden_layer_sizes"] == [6, 4]

    # Tune opens on the descriptor's grid: layer sizes (separated by semicolons) against alpha.
    expect(page.get_by_label("Hyperparameter", exact=True)).to_have_value("hidden_layer_sizes")
    expect(page.get_by_label("Values to try")).to_have_value("8; 32; 32, 16")
    page.get_by_label("Values to try").fill("3; 5, 2")
    page.get_by_label("Second hyperparameter").select_option("")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=120_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    rows = page.locator("#tune-text tbody tr")
    expect(rows).to_have_count(2)
    assert [row.locator("th, td").first.text_content() for row in rows.all()] == ["(3)", "(5, 2)"]
    page.get_by_role("button", name="Use the best").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    assert box.input_value() in ("3", "5, 2")

    page.get_by_label("Values to try").fill("3; 2, x")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("whole number")


def open_generated(page, site_url, name, n):
    page.goto("about:blank")  # a new hash alone would not load the page again
    page.goto(site_url + f"#dataset={name}&n={n}")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=90_000)
    expect(page.locator("#data-summary")).to_contain_text(f"{n} rows", timeout=60_000)


def network_settings(page, sizes, epochs):
    page.get_by_label("hidden layers", exact=True).fill(sizes)
    page.get_by_label("max epochs", exact=True).fill(str(epochs))


def test_the_moons_network_shows_its_units_and_loss(page, site_url):
    open_generated(page, site_url, "moons", 400)
    page.get_by_label("Model", exact=True).select_option("MLPClassifier")
    network_settings(page, "6, 4", 80)
    page.get_by_label("step size", exact=True).fill("0.03")
    train(page, "MLPClassifier")
    show(page, "Network")
    expect(page.locator("#network-caption")).to_contain_text("output a = g(z) over")
    assert painted_pixels(page, "#network-canvas") > 50_000
    assert painted_pixels(page, "#loss-canvas") > 20_000
    twin = page.locator("#network-text")
    expect(twin.locator("table")).to_have_count(3)  # into hidden 1, hidden 2, the output
    expect(twin.locator("table").first.locator("tbody tr")).to_have_count(6)
    expect(page.locator("#loss-text tbody tr")).to_have_count(80)
    page.locator("#view-network").screenshot(path="docs/screenshots/network-moons.png")

    # Watch it learn: step, play, pause, back with the keyboard, reset.
    status = page.locator("#replay-status")
    expect(status).to_contain_text("after all 80 epochs")
    page.get_by_role("button", name="Step one epoch").click()
    expect(status).to_contain_text("Epoch 1 of 80")
    expect(page.locator("#replay-boundary-box")).to_be_visible()
    assert_accessible(page, "network view, replaying")
    assert painted_pixels(page, "#replay-boundary-canvas") > 20_000
    expect(page.locator("#loss-text tbody tr")).to_have_count(1)  # the loss up to this epoch
    page.get_by_role("button", name="Step one epoch").click()
    expect(status).to_contain_text("Epoch 2 of 80")
    page.get_by_role("button", name="Play the training").click()
    expect(status).to_contain_text(re.compile(r"Epoch ([1-9]\d) of 80"), timeout=30_000)
    page.get_by_role("button", name="Pause the training").click()
    expect(page.get_by_role("button", name="Play the training")).to_be_visible()
    shown = int(re.search(r"Epoch (\d+)", status.inner_text()).group(1))
    page.locator("#view-network").screenshot(path="docs/screenshots/network-replay.png")
    page.locator("#replay-controls").focus()
    page.keyboard.press("ArrowLeft")
    expect(status).not_to_contain_text(f"Epoch {shown} of")
    assert int(re.search(r"Epoch (\d+)", status.inner_text()).group(1)) < shown
    page.keyboard.press("Home")
    expect(status).to_contain_text("Epoch 1 of 80")
    expect(page.get_by_role("button", name="Back one epoch")).to_be_disabled()


def test_iris_and_a_regression_draw_their_outputs(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("MLPClassifier")
    network_settings(page, "5", 60)
    page.get_by_label("step size", exact=True).fill("0.02")
    page.get_by_label("early stopping", exact=True).check()
    train(page, "MLPClassifier", "species")
    show(page, "Network")
    twin = page.locator("#network-text")
    expect(twin.locator("table").last.locator("tbody th")).to_have_text(["setosa", "versicolor", "virginica"])
    expect(page.locator("#loss-text thead th")).to_have_text(["epoch", "training loss", "held-out accuracy"])
    page.locator("#view-network").screenshot(path="docs/screenshots/network-iris.png")
    # Another plane on the boundary tab: the units' maps follow it.
    show(page, "Decision boundary")
    page.locator("#boundary-x").select_option("sepal width (cm)")
    show(page, "Network")
    expect(page.locator("#network-caption")).to_contain_text("over sepal width (cm) (across)")

    open_generated(page, site_url, "line", 200)
    page.get_by_label("Model", exact=True).select_option("MLPRegressor")
    network_settings(page, "4", 60)
    page.get_by_label("step size", exact=True).fill("0.02")
    train(page, "MLPRegressor")
    show(page, "Network")
    expect(page.locator("#network-text table").last.locator("tbody th")).to_have_text(["prediction"])
    assert painted_pixels(page, "#loss-canvas") > 20_000
    page.locator("#view-network").screenshot(path="docs/screenshots/network-line.png")


def test_cancel_keeps_the_network_of_the_last_epoch(page, site_url):
    """Cancel while a network trains: the worker is replaced at once, and the network shown is the one after
    the last epoch the progress line named (trained again to that epoch, with the same seed)."""
    page.goto(site_url + "#dataset=moons&n=5000")
    expect(page.locator("#data-summary")).to_contain_text("5000 rows", timeout=90_000)
    expect(page.locator("#status")).to_have_text("Ready", timeout=90_000)
    page.get_by_label("Model", exact=True).select_option("MLPClassifier")
    page.get_by_label("max epochs", exact=True).fill("5000")
    page.get_by_label("tol", exact=True).fill("0")  # no early end: it runs until stopped
    page.get_by_label("n iter no change", exact=True).fill("5000")
    page.get_by_role("button", name="Train").click()
    status = page.locator("#status")
    expect(status).to_contain_text(re.compile(r"epoch ([3-9]|\d\d+) of 5000"), timeout=60_000)
    said = int(re.search(r"epoch (\d+) of 5000", status.text_content()).group(1))
    # The loss is drawn live under the progress bar, with its text twin.
    expect(page.locator("#live-loss")).to_be_visible()
    assert painted_pixels(page, "#live-loss") > 50
    expect(page.locator("#live-loss-text")).to_contain_text(re.compile(r"training loss [\d.]+ after epoch \d+"))
    page.get_by_role("button", name="Cancel").click()
    expect(status).to_contain_text("Training stopped at epoch", timeout=90_000)
    expect(status).to_contain_text("the network shown is the one after epoch", timeout=90_000)
    epoch = int(re.search(r"after epoch (\d+)", status.text_content()).group(1))
    assert epoch >= said
    expect(page.locator("#accuracy")).not_to_have_text("—")
    expect(page.get_by_label("Model", exact=True)).to_have_value("MLPClassifier")
    expect(page.locator("#history-box")).to_contain_text(f"max epochs {epoch}")
    expect(page.locator("#live-loss")).to_be_hidden()  # the job is over: the Network view has the curve
