"""Progress reports to the page: `pellucid_host.progress(fraction, label)` when the worker registered
that module (in Pyodide), else nothing (natively)."""

import contextlib
import json

try:
    from pellucid_host import progress as _host_progress
except ImportError:  # natively there is no host page to tell
    _host_progress = None


_part = (0.0, 1.0, "")  # (start, end, prefix): the share of the bar the running step owns


def report(fraction, label, detail=None):
    """Tell the page how far a long command has got (0..1); never fails the command. Inside `part`, the
    fraction is of that part and the label is prefixed with its name. `detail` (a JSON-able dict) is what
    else the page may draw of the step (a network's epoch and loss)."""
    if _host_progress is None:
        return
    start, end, prefix = _part
    try:
        said = f"{prefix}: {label}" if prefix else str(label)
        fraction = start + (end - start) * float(fraction)
        if detail is None:
            _host_progress(fraction, said)
        else:
            _host_progress(fraction, said, json.dumps(detail))
    except Exception:  # a broken progress bar must not stop the work
        pass


@contextlib.contextmanager
def part(start, end, prefix):
    """Reports made inside run from `start` to `end` of the bar, labelled "prefix: ...": one step of a
    command made of several (one learner of a comparison), each reporting its own 0..1."""
    global _part
    outer = _part
    _part = (outer[0] + (outer[1] - outer[0]) * start, outer[0] + (outer[1] - outer[0]) * end, prefix)
    try:
        yield
    finally:
        _part = outer


def reporter(label):
    """A callback taking a fraction, for functions with a `progress=` argument; None natively."""
    if _host_progress is None:
        return None
    return lambda fraction: report(fraction, label)
