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
