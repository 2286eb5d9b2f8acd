"""The built site the Pyodide and browser groups run: the one `build.py test` has just built from this tree
(it names the folder in PELLUCID_BUILT_SITE), so neither group, nor each xdist worker, builds its own; or,
when the tests run alone, one built now."""

import os
import pathlib

BUILT_SITE = "PELLUCID_BUILT_SITE"


def site_folder(tmp_path_factory, name):
    """The site's folder: BUILT_SITE's, or a new build under a temporary folder called `name`."""
    import build

    if os.environ.get(BUILT_SITE):
        return pathlib.Path(os.environ[BUILT_SITE])
    return build.build(out=tmp_path_factory.mktemp(name) / "site")
