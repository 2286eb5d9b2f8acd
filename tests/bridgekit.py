"""Calling the bridge as the page's worker does (JSON text in and out), for the workbench tests.

The tests keep their own Session, as one page's worker does; `session.runs` and `session.tables` hold
what the commands kept."""

import json

from pellucid import bridge

session = bridge.Session()


def call(cmd, **args):
    """The whole reply: {"ok": True, "result": ...} or {"ok": False, "error": {...}}."""
    return json.loads(session.handle_json(cmd, json.dumps(args)))


def ok(cmd, **args):
    """The result of a command that must succeed."""
    reply = call(cmd, **args)
    assert reply["ok"], reply
    return reply["result"]


def error(cmd, **args):
    """The message of a command that must fail with a DataError."""
    reply = call(cmd, **args)
    assert reply["ok"] is False and reply["error"]["code"] == "data_error", reply
    assert reply["error"]["type"] == "DataError", reply
    return reply["error"]["message"]


def reply_in(worker, cmd, **args):
    """The whole reply of `worker` (a Session of its own, as one of the page's workers), through JSON."""
    return json.loads(worker.handle_json(cmd, json.dumps(args)))


def ok_in(worker, cmd, **args):
    """The result of a command that must succeed in `worker`."""
    reply = reply_in(worker, cmd, **args)
    assert reply["ok"], reply
    return reply["result"]


def session_with_csv(folder, text, name="data.csv"):
    """A new Session with `text` loaded as the CSV `name` (written into `folder`), its table's id kept
    as `session.table_id`."""
    path = folder / name
    path.write_text(text)
    fresh = bridge.Session()
    info = fresh.handle("load_csv", {"path": str(path), "name": name})
    assert info["ok"], info
    fresh.table_id = info["result"]["table_id"]
    return fresh


def without(value, keys):
    """A reply with `keys` left out at every depth: what differs between two workers' replies of the same
    work (the measured times, a model's id), so that the rest can be compared whole."""
    if isinstance(value, dict):
        return {key: without(v, keys) for key, v in value.items() if key not in keys}
    if isinstance(value, list):
        return [without(v, keys) for v in value]
    return value
