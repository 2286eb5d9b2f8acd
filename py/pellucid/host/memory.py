"""The size of the page's WebAssembly heap, for the memory soak benchmark (benchmarks/workflows.py --soak)."""

import sys


def heap_size():
    """{"heap_bytes": the bytes of Pyodide's heap}, or {"heap_bytes": None} natively (no such heap)."""
    if sys.platform != "emscripten":
        return {"heap_bytes": None}
    import pyodide_js

    return {"heap_bytes": int(pyodide_js._module.HEAP8.length)}
