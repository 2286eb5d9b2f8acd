"""build.py preloads the page modules the first screen runs, and only those: a module the page imports
later (a view's renderer, "See it learn") would be a request ahead of the Python worker's own."""
import pathlib

import build

WEB = pathlib.Path(build.__file__).parent / "web"


def test_static_imports_are_followed_across_folders(tmp_path):
    (tmp_path / "js" / "render").mkdir(parents=True)
    (tmp_path / "js" / "main.js").write_text(
        'import { a } from "./a.js";\nimport {\n  b,\n} from "./render/b.js";\nimport "./side.js";\n'
        'const later = () => import("./later.js");\n')
    (tmp_path / "js" / "a.js").write_text('export { c } from "./render/c.js";\nexport const a = 1;\n')
    (tmp_path / "js" / "render" / "b.js").write_text('import { c } from "./c.js";\nexport const b = c;\n')
    (tmp_path / "js" / "render" / "c.js").write_text("export const c = 'from \"./not-an-import.js\"';\n")
    (tmp_path / "js" / "side.js").write_text("")
    found = build.first_screen_modules(tmp_path, entries=("js/main.js",))
    assert found == ["js/a.js", "js/main.js", "js/render/b.js", "js/render/c.js", "js/side.js"]


def test_the_site_preloads_what_main_imports_and_not_what_it_imports_later():
    found = set(build.first_screen_modules(WEB))
    assert {"js/main.js", "js/lifecycle.js", "js/store.js", "js/render/tree-draw.js"} <= found
    # Loaded on demand: the renderers by view-draw.js, "See it learn" after Ready, the worker's own.
    assert not any(m.startswith(("js/learn/", "js/render/boundary", "js/render/roc")) for m in found)
    assert "js/worker.js" not in found and "js/bundle.js" not in found
    assert all((WEB / m).is_file() for m in found)


def test_the_boot_script_is_written_into_the_head_with_its_hash_in_the_policy(tmp_path):
    import base64
    import hashlib
    import re

    import pytest

    (tmp_path / "js").mkdir()
    script = (WEB / "js" / "boot.js").read_text()
    (tmp_path / "js" / "boot.js").write_text(script)
    (tmp_path / "index.html").write_text((WEB / "index.html").read_text())
    build.inline_boot_script(tmp_path)
    html = (tmp_path / "index.html").read_text()
    inline = re.search(r"<script data-boot>(.*?)</script>", html, re.DOTALL).group(1)
    assert inline == script and not (tmp_path / "js" / "boot.js").exists()
    # The browser runs the inline script only if the policy names the hash of its exact text.
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in re.search(r"script-src ([^;]*)", policy).group(1).split()
    # It comes before the style sheet and the page's modules, which would otherwise hold it up.
    assert html.index("<script data-boot>") < html.index('rel="stylesheet"') < html.index('src="js/main.js"')
    with pytest.raises(build.BuildError):
        build.inline_boot_script(tmp_path)  # already written in: the tag is gone
