""""Grow it yourself" in the "See it learn" panel, in Chromium on the panel's test page (fixtures/learn.html, as
test_learn_panel.py mounts it): the play tennis tree grown with one choice that is not ID3's, the gains table
marking both picks, the rest chosen from the keyboard, and the comparison on the test rows holding Python's
numbers. Screenshots: docs/screenshots/learn-grow.png (the gains after a choice), learn-grow-end.png."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import mount_learn_panel, open_learn_test_page

from a11ykit import AXE_TAGS, axe_source

pytestmark = pytest.mark.e2e
HERE = pathlib.Path(__file__).resolve().parent
SHOTS = HERE.parents[1] / "docs" / "screenshots"
SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 3}


@pytest.fixture(scope="module")
def learn_page(module_page, site_url):
    """The test page, Python started once for the module's tests."""
    return open_learn_test_page(module_page, site_url)


@pytest.fixture
def learn(learn_page, shared_page):
    """The test page with a new panel mounted and no model chosen, Python ready."""
    return mount_learn_panel(learn_page)


def train_with_test_rows(page, example, target):
    """Trains a decision tree on `example` with a held-out test part and makes it the panel's context."""
    page.evaluate("""async ([example, target, evaluation]) => {
        const table = await window.python.call('load_example', {name: example});
        const run = await window.python.call('train', {table_id: table.table_id, target, features: null,
            model: 'DecisionTreeClassifier', params: {}, evaluation});
        window.learnContext = {table_id: table.table_id, model_id: run.model_id, model_name: run.label, target,
            features: run.features, settings: {}};
    }""", [example, target, SPLIT])


def grown(page, choices):
    return page.evaluate("(choices) => window.python.call('grow_yourself', "
                         "{model_id: window.learnContext.model_id, choices})", choices)


def assert_pane_accessible(page, state):
    """axe-core on the grow pane alone (the test page around the panel is not the site's page)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;undefined")
    result = page.evaluate("""(tags) => axe.run({include: [["[data-pane=grow]"]]},
        {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})""", AXE_TAGS)
    found = [f"{v['id']}: {v['help']} ({', '.join(str(n['target']) for n in v['nodes'][:4])})"
             for v in result["violations"]]
    assert found == [], f"axe-core, {state}:\n  " + "\n  ".join(found)


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".learn-panel").screenshot(path=str(SHOTS / f"learn-{name}.png"))


def test_grow_play_tennis_with_one_choice_not_id3s_then_compare(learn):
    page = learn
    train_with_test_rows(page, "play_tennis", "PlayTennis")
    page.get_by_role("tab", name="Grow it yourself").click()
    pane = page.locator("[data-pane=grow]")
    page.get_by_role("button", name="Start growing").click()
    root = grown(page, {})["nodes"][0]
    expect(pane.locator(".learn-grow-node")).to_contain_text(f"Node root: {root['samples']} examples")
    expect(pane.locator(".learn-grow-pick")).to_have_count(4)
    assert pane.locator(".learn-importance").count() == 0  # no gain shown before the choice
    shot(page, "grow-ask")
    assert_pane_accessible(page, "an open node")
    other = next(c["attribute"] for c in root["candidates"] if c["attribute"] != root["id3"])
    choices = {"root": other}
    pane.get_by_role("button", name=other, exact=True).click()

    gains = {c["attribute"]: c["gain"] for c in root["candidates"]}
    expect(pane.locator(".learn-importance tr.learn-winner th")).to_have_text(f"★ {root['id3']}")
    expect(pane.locator(".learn-importance tr.learn-current th")).to_have_text(other)
    expect(pane.locator(".learn-importance tr.learn-current td").nth(1)).to_have_text("you")
    for name, gain in gains.items():
        row = pane.locator(".learn-importance tbody tr").filter(has_text=name)
        expect(row.locator("td").first).to_have_text(str(round(gain, 3)).rstrip("0").rstrip("."))
    expect(pane.locator(".learn-verdict")).to_contain_text(f"ID3 picks {root['id3']}")
    expect(pane.get_by_role("status")).to_contain_text(f"You chose {other}")  # announced where it shows
    expect(pane.locator(".learn-twin li").first).to_contain_text(f"split on {other}")
    shot(page, "grow")
    assert_pane_accessible(page, "the gains after a choice")

    # the rest from the keyboard: Enter on "Next node", then Enter on the focused (first) attribute
    next_button = pane.locator("button", has_text="▶")
    for _ in range(40):
        expect(next_button).to_be_focused()
        if "Compare" in next_button.inner_text():
            break
        page.keyboard.press("Enter")
        path = pane.get_attribute("data-node")
        first = pane.locator(".learn-grow-pick").first
        expect(first).to_be_focused()
        choices[path] = first.inner_text()
        page.keyboard.press("Enter")
        expect(pane.locator(".learn-verdict")).to_contain_text(f"You chose {choices[path]}")
    page.keyboard.press("Enter")

    reply = grown(page, choices)
    assert reply["done"]
    c = reply["comparison"]
    assert not c["same_tree"] and c["rows"] == "test"
    expect(pane.locator(".learn-grow-result h3").first).to_have_text("Your tree against ID3's")
    table = pane.locator(".learn-grow-result table").first
    expect(table).to_contain_text(f"Both trees on the {c['n']} test rows")
    expect(table.locator("tbody tr").nth(0)).to_contain_text(f"{c['student']['correct']} of {c['n']}")
    expect(table.locator("tbody tr").nth(1)).to_contain_text(f"{c['id3']['correct']} of {c['n']}")
    expect(table.locator("tbody tr").nth(1)).to_contain_text(f"{100 * c['id3']['accuracy']:.1f}%")
    expect(pane.locator(".learn-grow-node")).to_have_text(
        f"Your tree is grown: {c['agreed']} of your {c['decided']} choices were ID3's.")
    differ = "predict the same on all" if not c["n_differ"] else f"predict differently on {c['n_differ']} of"
    expect(pane.locator(".learn-grow-result")).to_contain_text(differ)
    expect(pane.locator(".learn-grow-id3 canvas")).to_have_count(1)  # ID3's tree, under the student's
    assert pane.get_attribute("data-done") == "true"
    shot(page, "grow-end")
    assert_pane_accessible(page, "the comparison")
    tree_box = pane.locator(".learn-grow-tree .learn-tree-scroll")
    assert tree_box.get_attribute("role") == "region"  # the wide tree scrolls: a tab stop

    page.get_by_role("button", name="Undo last choice").click()  # the last node opens again
    expect(pane.locator(".learn-grow-pick").first).to_be_focused()
    assert pane.get_attribute("data-done") is None


def test_a_run_of_numeric_features_is_refused_in_the_status_line(learn):
    page = learn
    page.evaluate("() => window.trainFor('iris', 'DecisionTreeClassifier', 'species')")
    page.get_by_role("tab", name="Grow it yourself").click()
    page.get_by_role("button", name="Start growing").click()
    expect(page.locator(".learn-status.learn-error")).to_contain_text("takes categorical features")


def test_the_restaurant_root_shows_the_notes_gain_of_patrons(learn):
    page = learn
    page.evaluate("() => window.trainFor('restaurant', 'DecisionTreeClassifier', 'WillWait')")
    page.get_by_role("tab", name="Grow it yourself").click()
    pane = page.locator("[data-pane=grow]")
    page.get_by_role("button", name="Start growing").click()
    expect(pane.locator(".learn-grow-node")).to_contain_text("Node root: 12 examples (No 6, Yes 6), entropy 1 bits.")
    pane.get_by_role("button", name="Pat", exact=True).click()
    expect(pane.get_by_role("status")).to_have_text("You chose Pat, ID3's pick: the largest gain, 0.541 bits.")
    expect(pane.locator(".learn-importance tr.learn-winner.learn-current th")).to_have_text("★ Pat")
    type_row = pane.locator(".learn-importance tbody tr").filter(has_text="Type")
    expect(type_row.locator("td").first).to_have_text("0")
    pane.get_by_role("button", name="Next node ▶").click()
    expect(pane.locator(".learn-grow-node")).to_contain_text("Node root/Pat=Full: 6 examples (No 4, Yes 2)")


def test_id3_chooses_the_rest_on_request(learn):
    page = learn
    train_with_test_rows(page, "restaurant", "WillWait")
    page.get_by_role("tab", name="Grow it yourself").click()
    pane = page.locator("[data-pane=grow]")
    page.get_by_role("button", name="Start growing").click()
    root = grown(page, {})["nodes"][0]
    pane.get_by_role("button", name=root["id3"], exact=True).click()
    page.get_by_role("button", name="Let ID3 choose the rest").click()
    reply = page.evaluate("(root) => window.python.call('grow_yourself', {model_id: window.learnContext.model_id, "
                          "choices: {root}, finish: true})", root["id3"])
    c = reply["comparison"]
    assert c["same_tree"] and c["decided"] == 1 and c["agreed"] == 1
    more = f"; ID3 chose at {c['by_id3']} more {'node' if c['by_id3'] == 1 else 'nodes'}" if c["by_id3"] else ""
    expect(pane.locator(".learn-grow-node")).to_have_text(
        f"Your tree is grown: your one choice was ID3's{more}, so it is ID3's tree.")
    expect(pane.locator(".learn-grow-id3 canvas")).to_have_count(0)  # the same tree: drawn once
    expect(page.get_by_role("button", name="Let ID3 choose the rest")).to_be_hidden()
