"""The first view of a table: the default target is never a timestamp, an ID, free text, a constant column
or a coordinate, and when no column clearly is one the reply says so with the likely candidates; constant
columns are left out of the features with the reason; the planes' default axes skip a constant feature and
follow the model's importance, else the features' spread."""

import numpy as np
import pytest

from bridgekit import ok, session_with_csv
from first_view_table import first_view_csv
from pellucid import Table, bridge
from pellucid.tabular.profile import profile
from pellucid.tabular.target_choice import choose_target


def load(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text)
    reply = bridge.Session().handle("load_csv", {"path": str(path), "name": name})
    assert reply["ok"], reply
    return reply["result"]


def test_no_clear_target_gives_none_and_the_likely_candidates_first(tmp_path):
    info = load(tmp_path, first_view_csv())
    assert info["suggested_target"] is None
    names = [c["name"] for c in info["target_candidates"]]
    assert names[0] == "fault" and "rarest (yes)" in info["target_candidates"][0]["reason"]
    assert names[:2] == ["fault", "site"]
    for never in ("reading_id", "timestamp", "note", "checked"):
        assert never not in names
    assert set(names[-3:]) == {"x", "y", "z"}  # coordinates: last, and said to be so
    assert all("coordinates" in c["reason"] for c in info["target_candidates"][-3:])
    assert [c["likely"] for c in info["target_candidates"]] == [True, True, False, False, False]
    assert all(e["role"] != "target" for e in info["profile"])


def test_a_named_target_wins_but_a_y_among_coordinates_does_not(tmp_path):
    named = load(tmp_path, first_view_csv().replace(",fault,", ",label,", 1))
    assert named["suggested_target"] == "label"
    assert named["target_candidates"][0]["name"] == "label"
    assert next(e for e in named["profile"] if e["name"] == "label")["role"] == "target"
    plain = Table({"x": [1.0, 2.0, 3.0] * 10, "y": [0.5, 1.0, 2.0] * 10})
    assert choose_target(profile(plain), plain.n_rows)[0] == "y"  # x and y alone: y is the value to predict


def test_a_duration_named_like_a_time_is_still_a_target(tmp_path):
    # Minutes to deliver: named like a time, but not a timestamp (not counted from 1970), so a value to predict.
    lines = ["distance,zone,delivery_time"] + [f"{i % 9 + 1},{'n' if i % 2 else 's'},{12 + 3 * (i % 9) + i % 4}"
                                               for i in range(60)]
    assert load(tmp_path, "\n".join(lines) + "\n")["suggested_target"] == "delivery_time"


def test_a_table_ending_in_its_coordinates_offers_the_column_before_them_first():
    # Gems as they are often tabled: carat, cut, price, then the size in x, y and z.
    rng = np.random.default_rng(0)
    gems = Table({"carat": rng.uniform(0.2, 2, 40), "cut": ["Fair", "Good", "Ideal", "Premium"] * 10,
                  "price": rng.uniform(300, 9000, 40), "x": rng.uniform(3, 8, 40), "y": rng.uniform(3, 8, 40),
                  "z": rng.uniform(2, 5, 40)})
    suggested, candidates = choose_target(profile(gems), gems.n_rows)
    assert suggested is None
    assert [c["name"] for c in candidates[:2]] == ["price", "cut"]
    assert candidates[0]["reason"].startswith("the last column before the coordinates")


@pytest.mark.parametrize("last, why", [
    ("stamp,2024-01-{day:02d}", "a date"), ("recorded_time,{epoch}", "a timestamp"),
    ("ref,K{i}", "an ID"), ("done,yes", "one value"), ("comment,it was fine on day {i} they said", "free text"),
])
def test_the_last_column_is_not_the_target_when_it_cannot_be_one(tmp_path, last, why):
    name, cell = last.split(",")
    cells = [cell.format(day=i % 28 + 1, epoch=1_700_000_000 + 60 * (i % 50), i=i) for i in range(60)]
    lines = [f"a,b,{name}"] + [f"{i % 7},{'p' if i % 2 else 'q'},{cells[i]}" for i in range(60)]
    info = load(tmp_path, "\n".join(lines) + "\n")
    assert info["suggested_target"] is None, why
    assert name not in [c["name"] for c in info["target_candidates"]]
    assert [c["name"] for c in info["target_candidates"]] == ["b", "a"]  # classes first, then numbers


def test_an_examples_own_target_stays_the_suggestion():
    info = ok("load_example", name="iris")
    assert info["suggested_target"] == info["target_candidates"][0]["name"]


def test_a_constant_column_is_left_out_with_the_reason(tmp_path):
    info = load(tmp_path, first_view_csv())
    checked = next(e for e in info["profile"] if e["name"] == "checked")
    assert checked["role"] == "ignore" and checked["reason"] == "one value in every row: yes"
    year = profile(Table({"year": [2024.0] * 30 + [float("nan")] * 3, "v": list(range(33))}))[0]
    assert year["role"] == "ignore" and year["reason"] == "one value in every row with a value: 2024"


def axes_table(n=120, seed=1):
    """noise: wide and useless; signal: narrow and deciding the label; year: one value; tiny: narrow noise."""
    rng = np.random.default_rng(seed)
    lines = ["year,noise,signal,tiny,label,amount"]
    for _ in range(n):
        noise, signal, tiny = rng.normal(0, 100), rng.normal(0, 0.01), rng.normal(0, 0.001)
        lines.append(f"2024,{noise:.4f},{signal:.6f},{tiny:.6f},{'on' if signal > 0 else 'off'},{3 * signal:.6f}")
    return "\n".join(lines) + "\n"


def axes_of(tmp_path, model, target="label", features=("year", "noise", "signal", "tiny")):
    session = session_with_csv(tmp_path, axes_table(), "axes.csv")
    reply = session.handle("train", {"table_id": session.table_id, "target": target, "features": list(features),
                                     "model": model})
    assert reply["ok"], reply
    return reply["result"]["default_axes"]


@pytest.mark.parametrize("model, target", [("DecisionTreeClassifier", "label"), ("LogisticRegression", "label"),
                                           ("LinearRegression", "amount")])
def test_the_axes_follow_the_models_importance_and_skip_a_constant_column(tmp_path, model, target):
    axes = axes_of(tmp_path, model, target)
    assert axes["boundary"]["x"] == "signal"  # the deciding feature, however narrow its values
    assert "year" not in (axes["boundary"]["x"], axes["boundary"]["y"])


def test_without_importance_the_axes_follow_the_spread_and_skip_a_constant_column(tmp_path):
    axes = axes_of(tmp_path, "KNeighborsClassifier")
    assert axes["boundary"] == {"x": "noise", "y": "signal", "projection": None}
    clusters = axes_of(tmp_path, "KMeans", None, ("year", "noise", "tiny"))["clusters"]
    assert clusters == {"x": "noise", "y": "tiny", "projection": None}  # two vary: their plane, not PCA's
    alone = axes_of(tmp_path, "KNeighborsClassifier", "label", ("year", "noise"))["boundary"]
    assert alone == {"x": "noise", "y": None, "projection": None}  # along the row number, not the year
