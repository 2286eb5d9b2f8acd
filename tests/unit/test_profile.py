"""The column profile: each kind detected on a table shaped like real uploads, each rule on its own, the
charts' counts, the default target, and the table reply and training that use them."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from bridgekit import ok, session
from passengers_csv import passengers_csv
from pellucid import Table, read_csv
from pellucid.tabular.profile import named_like_id, profile
from pellucid.tabular.target_choice import choose_target


@pytest.fixture(scope="module")
def passengers():
    text, expected = passengers_csv(20_000)
    return read_csv(text.encode("utf-8")), expected


def by_name(entries):
    return {entry["name"]: entry for entry in entries}


def one(values, name="column", kind=None):
    return profile(Table({name: values}, kinds=kind and {name: kind}))[0]


def test_every_kind_and_role_of_a_real_shaped_table(passengers):
    table, expected = passengers
    found = {e["name"]: (e["kind"], e["role"]) for e in profile(table, "Survived")}
    assert found == expected


def test_every_left_out_column_says_why_and_the_features_do_not(passengers):
    table, _ = passengers
    for entry in profile(table, "Survived"):
        assert (entry["reason"] is not None) == (entry["role"] == "ignore"), entry


def test_missing_written_in_several_ways_is_counted(passengers):
    table, _ = passengers
    age = by_name(profile(table))["Age"]
    assert age["missing"] == table.missing["Age"] > 0
    assert age["unique"] == len(set(table.column("Age")[~np.isnan(table.column("Age"))].tolist()))


def test_a_unique_decimal_measurement_is_a_number_not_an_id():
    rng = np.random.default_rng(0)
    entry = one(rng.normal(size=500).tolist(), name="weight")
    assert (entry["kind"], entry["role"]) == ("number", "feature")


def test_whole_numbers_distinct_in_every_row_are_an_id_without_an_id_name():
    assert one(list(range(1000, 1100)), name="number")["kind"] == "id"


def test_few_rows_are_not_enough_to_call_a_column_an_id():
    assert one(list(range(10)), name="rank")["kind"] == "number"


def test_an_id_name_with_a_few_repeats_is_still_an_id():
    values = list(range(100)) + list(range(5))  # 100 distinct in 105 rows: 95%
    assert one(values, name="customer_id")["kind"] == "id"
    assert one(values, name="amount")["kind"] == "number"  # without the name: repeats, so not an ID


@pytest.mark.parametrize("name", ["id", "ID", "PassengerId", "customer_id", "CustomerID", "order key", "uuid",
                                  "row-id", "id_number"])
def test_names_that_look_like_ids(name):
    assert named_like_id(name)


@pytest.mark.parametrize("name", ["idea", "valid", "paid", "Survived", "width", "kidney", "keyboard"])
def test_names_that_do_not_look_like_ids(name):
    assert not named_like_id(name)


def test_short_codes_distinct_in_every_row_are_an_id():
    entry = one([f"CUST-{i:06d}" for i in range(200)])
    assert (entry["kind"], entry["role"]) == ("id", "ignore")
    assert entry["bars"] == [] and entry["other"] == 200  # one row each: no bars worth drawing


def test_long_distinct_values_are_free_text_but_long_answers_that_repeat_are_a_category():
    reviews = [f"the delivery came {i} days late and the box was broken" for i in range(60)]
    assert one(reviews)["kind"] == "text"
    answers = ["Strongly agree with the statement", "Somewhat disagree with the statement"] * 30
    assert (one(answers)["kind"], one(answers)["role"]) == ("category", "feature")


def test_one_row_a_year_is_a_number_not_an_id():
    assert (one(list(range(1990, 2020)), name="Year")["kind"]) == "number"


def test_a_category_keeps_its_bars_with_the_rest_counted_as_other():
    values = [f"c{i % 12}" for i in range(1200)] + [None] * 5
    entry = one(values)
    assert (entry["kind"], entry["role"], entry["missing"], entry["unique"]) == ("category", "feature", 5, 12)
    assert len(entry["bars"]) == 8 and all(count == 100 for _, count in entry["bars"])
    assert entry["other"] == 400


def test_a_category_with_very_many_values_is_left_out_with_its_count():
    entry = one([f"Z{i % 150}" for i in range(1000)])
    assert (entry["kind"], entry["role"]) == ("category", "ignore")
    assert "150" in entry["reason"]
    assert "one value against the rest" in entry["if_used"]  # what "Use anyway" makes of it


def test_only_a_many_valued_category_says_what_using_it_does():
    assert "if_used" not in one([f"c{i % 12}" for i in range(1200)])
    assert "if_used" not in one([None, None, None], kind="categorical")


def test_a_column_with_no_values_is_left_out():
    entry = one([None, None, None], kind="categorical")
    assert entry["role"] == "ignore" and "missing" in entry["reason"]


def test_number_histogram_counts_every_present_value():
    values = [0.01, 5.0, 10_000.0, float("nan")] * 50
    histogram = one(values)["histogram"]
    assert sum(histogram["counts"]) == 150
    assert histogram["edges"][0] == 0.01 and histogram["edges"][-1] == 10_000.0


@pytest.mark.parametrize("values", [[7.0] * 30, [-1e308, 1e308, 0.0], [5e-324, 0.0]])
def test_a_histogram_of_one_value_or_an_extreme_span_is_one_bar_of_every_value(values):
    histogram = one(values)["histogram"]
    assert sum(histogram["counts"]) == len(values) and len(histogram["edges"]) == len(histogram["counts"]) + 1


def test_date_column_tells_its_format_parts_and_spread():
    entry = one(["31/01/2012", "15/06/2013", "01/01/2014"] * 13 + ["not a date"])
    assert entry["kind"] == "date" and entry["role"] == "feature"
    assert entry["date_format"].startswith("day/month/year")
    assert entry["parts"] == ["column year", "column month", "column day of week", "column day of year"]
    assert entry["not_dates"] == 1 and sum(entry["histogram"]["counts"]) == 39
    assert entry["histogram"]["edges"][0] == "2012-01-31" and entry["histogram"]["edges"][-1] == "2014-01-01"


@pytest.mark.parametrize("columns, target", [
    (["a", "b", "Survived", "c"], "Survived"), (["species", "x"], "species"), (["x", "Y"], "Y"),
    (["Outcome", "label"], "label"), (["x", "y", "site", "label"], "label"), (["x", "z"], "z"),
])
def test_the_default_target_is_named_like_one_else_the_last(columns, target):
    table = Table({name: ["a", "b", "c"] * 10 for name in columns})
    assert choose_target(profile(table), table.n_rows)[0] == target


def test_the_table_reply_carries_the_profile_and_a_named_target(tmp_path):
    text, expected = passengers_csv(500)
    columns = text.splitlines()[0].split(",")
    path = tmp_path / "passengers.csv"
    path.write_text(text.replace("Survived", "survived"))  # the target is not the last column ...
    path.write_text("\n".join(line + ",x" for line in path.read_text().splitlines()) + "\n")  # ... now
    info = ok("load_csv", path=str(path), name="passengers.csv")
    assert info["suggested_target"] == "survived"
    roles = {e["name"]: e["role"] for e in info["profile"]}
    assert roles["survived"] == "target" and roles["PassengerId"] == "ignore"
    assert [e["name"] for e in info["profile"]] == [c.replace("Survived", "survived") for c in columns] + ["x"]


def test_a_tree_trained_on_the_profile_features_learns_from_date_parts_and_stays_readable(tmp_path):
    text, _ = passengers_csv(3000)
    path = tmp_path / "passengers.csv"
    path.write_text(text)
    info = ok("load_csv", path=str(path), name="passengers.csv")
    features = [e["name"] for e in info["profile"] if e["role"] == "feature"]
    result = ok("train", table_id=info["table_id"], target="Survived", features=features,
                model="DecisionTreeClassifier", params={"max_depth": 3}, evaluation={"method": "split"})
    assert "Booked year" in result["features"] and "Booked" not in result["features"]
    assert "Born day of year" in result["features"]
    run = session.runs[result["model_id"]]
    assert run.estimator.get_n_leaves() <= 2 ** 3  # numbers split in two: no branch per date or name


def test_the_python_script_of_a_run_with_date_parts_takes_the_dates_apart_too(tmp_path):
    text, _ = passengers_csv(600)
    path = tmp_path / "passengers.csv"
    path.write_text(text)
    info = ok("load_csv", path=str(path), name="passengers.csv")
    result = ok("train", table_id=info["table_id"], target="Survived", features=["Sex", "Booked", "Fare"],
                model="DecisionTreeClassifier", params={"max_depth": 3},
                evaluation={"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 4})
    script = ok("export_python", model_id=result["model_id"])["script"]
    (tmp_path / "run.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": str(pathlib.Path(__file__).resolve().parents[2] / "py")}
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    printed = next(line for line in done.stdout.splitlines() if line.startswith("test accuracy"))
    assert float(printed.split(":")[1]) == result["metrics"]["test"]["accuracy"]
