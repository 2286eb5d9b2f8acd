"""A regressor's decision boundary is coloured over its target's range, not over the grid's predictions:
far from the data a linear model's predictions run far beyond the target, and a scale stretched to them
would leave the data's part of the plane one colour. The reply says how many cells lie outside and how
far they go."""

from pathlib import Path

import numpy as np
import pytest

from pellucid.workbench.boundary import value_range

from bridgekit import session_with_csv
from regression_slice_table import slice_csv


@pytest.fixture
def boundary_reply(tmp_path: Path):
    session = session_with_csv(tmp_path, slice_csv())
    trained = session.handle("train", {"table_id": session.table_id, "target": "y", "features": None,
                                       "model": "LinearRegression", "evaluation": {"method": "none"}})
    assert trained["ok"], trained
    reply = session.boundary(trained["result"]["model_id"], x="a", y="b", resolution=60)
    return session.table(session.table_id).column("y"), reply


def test_the_colour_scale_is_the_target_range_and_the_note_says_what_is_outside(boundary_reply):
    target, reply = boundary_reply
    r, predicted = reply["value_range"], np.asarray(reply["predicted"])
    assert (r["low"], r["high"]) == (float(target.min()), float(target.max()))
    assert 0 <= r["low"] < r["high"] <= 50
    assert r["below"] == np.sum(predicted < r["low"]) > 0 and r["above"] == np.sum(predicted > r["high"]) > 0
    assert r["min"] == predicted.min() < -100 and r["max"] == predicted.max() > 150  # far beyond 0-50
    assert r["note"].startswith(f"The colours follow the target's range, {r['low']:.4g} to {r['high']:.4g}.")
    assert f"{r['below'] + r['above']:,} of the 3,600 grid cells predict outside it" in r["note"]
    assert "drawn at the end colours" in r["note"]


def test_no_note_when_every_prediction_is_within_the_target():
    r = value_range(np.array([0.0, 10.0, 50.0]), np.array([1.0, 49.5, 50.0]))
    assert (r["low"], r["high"], r["below"], r["above"], r["note"]) == (0.0, 50.0, 0, 0, None)


def test_a_missing_target_value_does_not_hide_the_range():
    r = value_range(np.array([np.nan, 2.0, 8.0]), np.array([-1.0, 5.0]))
    assert (r["low"], r["high"], r["below"]) == (2.0, 8.0, 1)
    assert "1 below, down to -1" in r["note"]
