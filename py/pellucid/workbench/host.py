"""Progress reports to the page: `pellucid_host.progress(fraction, label)` when the worker registered
that module (in Pyodide), else nothing (natively)."""

try:
    from pellucid_host import progress as _host_progress
except ImportError:  # natively there is no host page to tell
    _host_progress = None


def report(fraction, label):
    """Tell the page how far a long command has got (0..1); never fails the command."""
    if _host_progress is None:
        return
    try:
        _host_progress(float(fraction), str(label))
    except Exception:  # a broken progress bar must not stop the work
        pass


def reporter(label):
    """A callback taking a fraction, for functions with a `progress=` argument; None natively."""
    if _host_progress is None:
        return None
    return lambda fraction: report(fraction, label)
