"""What talks to the page's worker (web/js/worker.js), and only that: natively each part answers "no page".

Modules: `wire` (a reply's bulk numbers sent apart as typed arrays), `progress` (progress reports to the
page), `kernels` (the compiled functions the page registers, looked up in one place), `page_numbers`
(many numbers written as text by the page) and `memory` (the size of the page's WebAssembly heap).
Nothing here imports a learner or the workbench: they import it.
"""
