"""The parts of `python3 build.py`, the project's one entry point (build.py at the top re-exports the names
the tests and benchmarks use):

    common        the project's folders, BuildError, run()
    vendor        Pyodide's runtime and packages, checked against their pinned hashes; npm front-end libraries
    wheel         pellucid's reproducible wheel and the bundle the page's worker reads
    compiled      made under Node.js: bytecode, Pyodide's memory snapshot, the WebAssembly kernels
    page          settings.json, the inlined boot script, module preloads, the service worker
    assemble      dist/ put together, and served
    environments  the test environments (.venv/, .venv-lowest/), npm test tools, browsers
    lint          ruff and eslint
    testing       `build.py test`: the linters, then pytest with the newest and the lowest versions
"""
