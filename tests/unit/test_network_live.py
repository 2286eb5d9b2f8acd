"""Training you can watch: the frames a network's training sends with its epochs are what the replay draws
for the same epoch (the boundary's grid and every unit's map, from that epoch's weights); they come at most
every INTERVAL and within SHARE of the training's time (an injected clock, not the wall's), at its last
epoch when the budget allows, and only when the page asks for them and there is a plane to draw them on."""

from functools import partial

import numpy as np
import pytest

import pellucid.learners.network.epochs as epochs
from pellucid.bridge import Session
from pellucid.workbench import network_live, network_replay, training
from pellucid.workbench.network_live import FIRST, INTERVAL, SHARE, LiveView, unpacked

TICK = 0.1  # seconds the fake clock moves each time it is read


class StepClock:
    """A clock that moves TICK each time it is read, so frames fall on the same epochs on any machine."""

    def __init__(self):
        self.now, self.reads = 0.0, 0

    def __call__(self):
        self.now += TICK
        self.reads += 1
        return self.now


@pytest.fixture
def reports(monkeypatch):
    """Every epoch's progress detail, as the page's worker would receive it."""
    said = []
    monkeypatch.setattr(epochs, "report", lambda fraction, label, detail=None: said.append(detail))
    return said


@pytest.fixture
def clock(monkeypatch):
    clock = StepClock()
    monkeypatch.setattr(training.network_live, "live_view", partial(network_live.live_view, clock=clock))
    return clock


def trained(dataset, live, target=None, model="MLPClassifier", **params):
    session = Session()
    reply = session.handle("load_example", {"name": dataset})
    assert reply["ok"], reply
    table_id = reply["result"]["table_id"]
    reply = session.handle("train", {"table_id": table_id, "target": target, "features": None,
                                     "model": model, "live": live,
                                     "params": {"hidden_layer_sizes": [5, 3], "max_iter": 60, "random_state": 0,
                                                **params}})
    assert reply["ok"], reply
    return session, reply["result"]


def frames_of(reports):
    return [detail["frame"] for detail in reports if "frame" in detail]


@pytest.mark.parametrize("dataset, target, model", [("iris", "species", "MLPClassifier"),
                                                    ("iris", "petal width (cm)", "MLPRegressor")])
def test_each_live_frame_is_the_replay_of_its_epoch(reports, clock, dataset, target, model):
    session, result = trained(dataset, True, target, model)
    frames = frames_of(reports)
    assert len(frames) >= 3
    axes = result["default_axes"]["boundary"]
    run = session.run(result["model_id"])
    assert sorted(run.replay) == list(range(1, 61))  # 60 epochs: the replay kept every one
    for frame in frames:
        replayed = session.handle("network", {"model_id": result["model_id"], "x": axes["x"], "y": axes["y"],
                                              "epoch": frame["epoch"]})["result"]
        assert (frame["plane"]["x"], frame["plane"]["y"]) == (axes["x"], axes["y"])
        assert frame["layers"] == replayed["layers"]
        for mine, theirs in zip(frame["coefs"] + frame["intercepts"], replayed["coefs"] + replayed["intercepts"]):
            np.testing.assert_allclose(mine, theirs, rtol=1e-12)
        for layer, replayed_layer in zip(frame["maps"], replayed["maps"]):
            for unit, replayed_unit in zip(layer, replayed_layer):
                np.testing.assert_allclose(unpacked(unit["values"]), replayed_unit["values"], rtol=1e-6, atol=1e-7)
                assert unit["low"] == pytest.approx(replayed_unit["low"])
                assert unit["high"] == pytest.approx(replayed_unit["high"])
        boundary, replayed_boundary = frame["boundary"], replayed["boundary"]
        assert (boundary["width"], boundary["height"]) == (replayed_boundary["width"], replayed_boundary["height"])
        np.testing.assert_allclose(unpacked(boundary["predicted"]), replayed_boundary["predicted"], rtol=1e-6)
        if model == "MLPClassifier":
            np.testing.assert_allclose(unpacked(boundary["probability"]), replayed_boundary["probability"], rtol=1e-6)
        else:  # a regressor's colour scale: the target's range, beside how far the predictions go
            assert boundary["value_range"] == pytest.approx(replayed_boundary["value_range"])
        np.testing.assert_allclose(boundary["x_values"], replayed_boundary["x_values"])
    # The training rows over the boundary do not move: they go once, with the first frame.
    assert frames[0]["boundary"]["points"]["rows"] == list(replayed_boundary["points"]["rows"])
    assert all("points" not in frame["boundary"] for frame in frames[1:])


def test_frames_are_throttled_by_the_training_clock(reports, clock):
    trained("moons", True, "class", max_iter=200, tol=0.0)
    frames = frames_of(reports)
    assert [detail["epoch"] for detail in reports] == list(range(1, 201))  # every epoch is still reported
    # Each frame took one TICK of the clock (read as it starts and as it ends): within SHARE of the time.
    assert 3 <= len(frames) and len(frames) * TICK <= SHARE * clock.reads * TICK
    epochs_framed = [frame["epoch"] for frame in frames]
    assert epochs_framed[0] >= FIRST / TICK - 1  # the clock was read once before the first epoch
    assert np.all(np.diff(epochs_framed) >= INTERVAL / TICK)


def scripted(times, last_epoch=100):
    """A LiveView on the clock `times` (its first read is the start), drawing a stand-in frame."""
    view = LiveView(run=None, x="x", y="y", last_epoch=last_epoch, clock=iter(times).__next__)
    view.frame = lambda epoch, flat: {"epoch": epoch}
    return view


def test_a_slow_frame_spaces_out_the_next_ones():
    """A frame that takes a second waits until the time is long enough for two within SHARE of it."""
    after = 2 / SHARE + 0.01  # a second spent, and a second more to come, within SHARE of the time
    view = scripted([0.0, 1.0, 2.0, after - 1, after, after + 1])  # the frame read at 1.0 is done at 2.0
    assert view(1, None) == {"frame": {"epoch": 1}}
    assert view(2, None) is None
    assert view(3, None) == {"frame": {"epoch": 3}}


def test_the_last_epoch_is_drawn_when_the_budget_allows():
    view = scripted([0.0, 0.6, 0.601, 0.7, 0.7005, 0.701], last_epoch=3)
    assert view(1, None) is not None  # FIRST has passed
    assert view(2, None) is None  # INTERVAL has not
    assert view(3, None) == {"frame": {"epoch": 3}}  # the last: drawn at once
    quick = scripted([0.0, FIRST / 2], last_epoch=1)
    assert quick(1, None) is None  # a training over before FIRST is shown by its result


def test_no_frames_unless_asked_or_without_a_plane(reports, clock):
    trained("iris", False, "species")
    assert reports and frames_of(reports) == []
    reports.clear()
    trained("play_tennis", True, "PlayTennis")  # every feature is a category: no plane to draw a boundary over
    assert reports and frames_of(reports) == []


def test_a_table_too_large_to_replay_is_still_watched_live(reports, clock, monkeypatch):
    """Over the replay's row limit the frames still come (their cost is the grid's, not the rows'), each
    the network at its epoch, but no epoch is kept for a replay, which says why."""
    monkeypatch.setattr(network_replay, "MAX_ROWS", 100)  # moons has 400 rows
    session, result = trained("moons", True, "class", max_iter=200, tol=0.0)
    frames = frames_of(reports)
    assert len(frames) >= 3 and np.all(np.diff([frame["epoch"] for frame in frames]) > 0)
    # A frame is the network at its epoch: the same training stopped there has the same weights.
    epoch = frames[-1]["epoch"]
    stopped_session, stopped = trained("moons", False, "class", max_iter=epoch, tol=0.0)
    model = stopped_session.run(stopped["model_id"]).estimator
    for mine, then in zip(frames[-1]["coefs"] + frames[-1]["intercepts"], model.coefs_ + model.intercepts_):
        np.testing.assert_allclose(mine, then, rtol=1e-12)
    assert result["network"]["replay"]["epochs"] == []
    assert "up to 100 training rows" in result["network"]["replay"]["why_not"]
    assert session.run(result["model_id"]).replay is None
    assert frames_of(reports[-epoch:]) == []  # unwatched, a large table's training carries no watcher
