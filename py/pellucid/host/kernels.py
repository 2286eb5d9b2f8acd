"""The page's compiled kernels: the functions the worker registers as `globalThis.pellucidKernels.<name>`
(web/js/worker.js: `knn` from web/wasm/knn.mjs, `numberText` from web/js/number-text.js).

Natively, or before the page has registered one, `page_kernel` answers None and the caller does the work
in numpy or Python; a kernel found is kept, so it is looked up once.
"""

import sys

_found = {}  # name -> the page's kernel, once found


def page_kernel(name):
    """globalThis.pellucidKernels.<name>, or None outside the page or while it is not registered."""
    if name not in _found:
        if sys.platform != "emscripten":
            return None
        try:
            import js
            _found[name] = getattr(js.pellucidKernels, name)
        except (ImportError, AttributeError):  # not registered (yet): looked up again next time
            return None
    return _found[name]
