"""The logic behind the page's workbench commands (the bridge only routes to it): setting up a run,
honest evaluation, readouts of a fitted model, decision boundaries, and exports.

Modules: `runs` (a run = model + data + split), `evaluation` (split / k-fold and the train reply),
`readouts` (metrics, predictions, clusters, PCA, dendrogram, a compact model), `boundary` (the grid a
model's decision regions are drawn from), `exports` (predictions CSV, model JSON), `script` (a Python
script that reproduces a run), `host` (progress reports to the page).
"""
