"""The suite's timing: calls too short for a coarse clock are timed in batches, the same size on both
sides, and a sample's time is per call. A fake clock stands in for time.perf_counter."""

import math

import pytest

from benchmarks import suite


class CoarseClock:
    """A clock read to `tick` seconds that advances only when a timed call runs."""

    def __init__(self, tick):
        self.now, self.tick = 0.0, tick

    def __call__(self):
        return math.floor(self.now / self.tick) * self.tick

    def call_taking(self, seconds):
        def call():
            self.now += seconds
            return seconds
        return call


def _measure(monkeypatch, p_seconds, s_seconds, tick=1e-4):
    clock = CoarseClock(tick)
    monkeypatch.setattr(suite.time, "perf_counter", clock)
    monkeypatch.setattr(suite.gc, "collect", lambda: 0)  # nothing to collect between fake calls
    workload = suite.Workload("fake", "fit", lambda: (clock.call_taking(p_seconds), clock.call_taking(s_seconds),
                                                      lambda p, s: f"{p} vs {s}"))
    return suite.measure(workload, repeats=5)


def test_fast_calls_are_timed_in_batches_of_the_same_size(monkeypatch):
    result = _measure(monkeypatch, 0.00213, 0.00251)  # 2.13 and 2.51 ms against a 0.1 ms clock
    assert result["calls"] == math.ceil(suite.BATCH_TIME / 0.00213)
    assert result["pellucid_ms"] == pytest.approx(2.13, abs=0.1 / result["calls"] + 1e-9)
    assert result["sklearn_ms"] == pytest.approx(2.51, abs=0.1 / result["calls"] + 1e-9)
    assert result["repeats"] >= 5


def test_slow_calls_are_timed_one_to_a_sample(monkeypatch):
    result = _measure(monkeypatch, 0.030, 0.045)
    assert result["calls"] == 1 and result["repeats"] >= 5
    assert result["ratio"] == pytest.approx(30 / 45, rel=0.01)  # to the clock's tick


def test_calls_below_the_clock_tick_stop_at_the_most_calls(monkeypatch):
    result = _measure(monkeypatch, 2e-6, 3e-6)
    assert result["calls"] == suite.MAX_CALLS
    assert result["ratio"] == pytest.approx(2 / 3, rel=0.1)
