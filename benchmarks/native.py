"""Run the benchmark suite natively (CPython), single-threaded, and print the Markdown tables.

Usage: python3 -m benchmarks.native [--repeats 5] [--only SUBSTRING ...] [--profile SUBSTRING]
       python3 -m benchmarks.native --grid [--quick] [--memory] [--only LEARNER ...]

The thread variables are set before numpy is imported, so BLAS runs on one thread, as in Pyodide.
--profile runs cProfile over pellucid's call of the first matching workload and prints the top functions.
--grid runs issue 31's grid instead of the suite (grid.py: every learner with a twin, by rows, features and
settings); --quick makes its cells tiny, --memory adds each learner's peak memory.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import datetime  # noqa: E402
import pathlib  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

import numpy as np  # noqa: E402
import sklearn  # noqa: E402

from benchmarks import suite  # noqa: E402


def machine():
    """A one-paragraph description of where the numbers were taken."""
    cpu = "unknown CPU"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = "unknown"
    try:
        kb = int(pathlib.Path("/proc/meminfo").read_text().split()[1])
        ram = f"{kb / 2 ** 20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    threads = "unknown"
    try:
        from threadpoolctl import threadpool_info
        threads = ", ".join(f"{p['internal_api']}={p['num_threads']}" for p in threadpool_info())
    except ImportError:
        pass
    return (f"{datetime.date.today().isoformat()}; nproc {os.cpu_count()}; CPU {cpu}; RAM {ram}; "
            f"Python {platform.python_version()}; numpy {np.__version__}; scikit-learn {sklearn.__version__}; "
            f"thread pools: {threads}; load average {os.getloadavg()[0]:.2f}")


def profile(substring, top=15):
    import cProfile
    import pstats
    workload = next(w for w in suite.WORKLOADS if substring in w.name)
    p_call, _, _ = workload.prepare()
    p_call()
    profiler = cProfile.Profile()
    profiler.runcall(p_call)
    print(f"## Profile of pellucid: {workload.name}\n")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each side at least (default 5)")
    parser.add_argument("--only", nargs="*", help="run only workloads whose name contains one of these")
    parser.add_argument("--profile", help="profile pellucid on the first workload whose name contains this")
    parser.add_argument("--grid", action="store_true", help="run the grid of sizes and settings (grid.py)")
    parser.add_argument("--quick", action="store_true", help="with --grid: tiny cells, a smoke run")
    parser.add_argument("--memory", action="store_true", help="with --grid: each learner's peak memory too")
    args = parser.parse_args(argv)
    if args.grid:
        from benchmarks import grid_run
        print(f"Machine: {machine()}\n", flush=True)
        grid_run.run(quick=args.quick, memory=args.memory, only=args.only,
                     out=lambda text: print(text, flush=True))
        return 0
    if args.profile:
        profile(args.profile)
        return 0
    print(f"Machine: {machine()}\n", flush=True)

    def progress(r):
        print(f"  {r['name']}: pellucid {r['pellucid_ms']:.2f} ms, scikit-learn {r['sklearn_ms']:.2f} ms, "
              f"ratio {r['ratio']:.2f} ({r['repeats']} runs)", file=sys.stderr, flush=True)

    results = suite.run(repeats=args.repeats, only=args.only, progress=progress)
    print(suite.table(results))
    print("\n" + suite.checks_table(results))
    if any(r["group"] == "scaling" for r in results):
        print("\n" + suite.scaling_table(results))
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")
    missed = [r for r in results if not r["met"]]
    print(f"\n{len(results) - len(missed)} of {len(results)} workloads meet the target "
          f"(ratio <= {suite.TARGET_RATIO}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
