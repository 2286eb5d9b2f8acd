"""The sites the browser benchmarks load: this tree's with the benchmark's pages added, and a baseline's."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.browser_startup import BARE_HTML, BARE_WORKER  # noqa: E402
from benchmarks.browser_grid import GRID_FILES, GRID_HTML, GRID_WORKER  # noqa: E402
from benchmarks.browser_suite import BENCH_HTML, BENCH_LOADER, BENCH_WORKER, SUITE_FILES  # noqa: E402

SUB_PATH = "pellucid"
HERE = pathlib.Path(__file__).resolve().parent


def base_url(folder):
    """A site folder's address on the benchmark's server, without the origin."""
    return f"/{folder}/"


def write_bench_files(site):
    bench = site / "bench"
    bench.mkdir()
    (bench / "index.html").write_text(BENCH_HTML)
    (bench / "load.mjs").write_text(BENCH_LOADER)
    (bench / "worker.mjs").write_text(BENCH_WORKER)
    (bench / "grid.html").write_text(GRID_HTML)
    (bench / "grid-worker.mjs").write_text(GRID_WORKER)
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare-worker.mjs").write_text(BARE_WORKER)
    (bench / "benchmarks").mkdir()
    for name in SUITE_FILES + GRID_FILES:
        (bench / "benchmarks" / name).write_text((HERE / name).read_text())


def build_baseline(rev, tmp):
    """The site as it was at git revision `rev`, built by that revision's own build.py into <tmp>/before/
    (sharing this tree's download and bytecode cache); its folder."""
    source = pathlib.Path(tmp) / "before-source"
    source.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    (source / ".cache").symlink_to(ROOT / ".cache")
    out = pathlib.Path(tmp) / "before" / SUB_PATH
    subprocess.run([sys.executable, "-c", "import build, pathlib, sys; build.build(out=pathlib.Path(sys.argv[1]))",
                    str(out)], cwd=source, check=True)
    return out
