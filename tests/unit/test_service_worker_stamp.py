"""build.py fills in the service worker: the build's id, a hash of every file it precaches, so any change to
the site is a new build (a new cache, kept apart from the one an open page uses), the same id in
build-info.json (the Python worker reports it, and the page compares), and the precache list without the
on-demand files."""
import json
import pathlib
import re

import pytest

import build

WEB = pathlib.Path(build.__file__).parent / "web"


def small_site(folder):
    (folder / "js" / "render").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html>")
    (folder / "js" / "main.js").write_text("export const a = 1;\n")
    (folder / "js" / "render" / "boundary.js").write_text("export const b = 2;\n")
    (folder / "big-0.1-py3-none-any.whl").write_bytes(b"wheel")
    (folder / "build-info.json").write_text(json.dumps({"version": "0.1"}))
    (folder / "sw.js").write_text((WEB / "sw.js").read_text())
    return folder


def filled_in(folder):
    text = (folder / "sw.js").read_text()
    build_id = re.search(r'const BUILD = "([^"]*)";', text).group(1)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text).group(1))
    return build_id, precache, json.loads((folder / "build-info.json").read_text())


def test_the_id_and_the_precache_list_are_written_into_the_worker_and_build_info(tmp_path):
    site = small_site(tmp_path / "a")
    returned = build.write_service_worker(site, on_demand_files={"big-0.1-py3-none-any.whl"})
    build_id, precache, info = filled_in(site)
    assert re.fullmatch(r"[0-9a-f]{16}", build_id) and returned == build_id
    assert info == {"version": "0.1", "build": build_id}
    assert precache == ["./", "build-info.json", "index.html", "js/main.js", "js/render/boundary.js"]


def test_a_changed_module_is_a_new_build_and_the_same_files_the_same(tmp_path):
    ids = []
    for name, boundary in (("a", None), ("same", None), ("changed", "export const b = 3;\n")):
        site = small_site(tmp_path / name)
        if boundary:
            (site / "js" / "render" / "boundary.js").write_text(boundary)
        ids.append(build.write_service_worker(site, on_demand_files={"big-0.1-py3-none-any.whl"}))
    assert ids[0] == ids[1] != ids[2]


def test_a_worker_already_filled_in_is_refused(tmp_path):
    site = small_site(tmp_path / "a")
    build.write_service_worker(site, on_demand_files=set())
    with pytest.raises(build.BuildError, match="already filled in"):
        build.write_service_worker(site, on_demand_files=set())
