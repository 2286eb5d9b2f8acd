"""The logic behind the page's workbench commands (the bridge only routes to it): setting up a run,
honest evaluation, readouts of a fitted model, decision boundaries, steps, exercises and exports.

What a model can do is asked of its descriptor (`pellucid.learners.registry`), never of its class name:
each module here keeps a table keyed by the descriptor's family keys (steps, exercise, explain, summary).

Modules: `runs` (a run = model + data + split), `training` (split / k-fold and the train reply), `readouts`
(metrics, predictions, clusters, projections, dendrogram, a compact model), `grid` (predictions over a grid of
feature values), `boundary` (the grid a model's decision regions are drawn from), `network_view` (a network
drawn unit by unit, with its loss), `summaries` (first facts about a fitted model), `explain` (one row's
prediction), `steps` with `tree_steps`, `linear_steps`, `unsupervised_steps` and `frames` (a learner's steps
as frames), `exercises` (check your work), `twin_check` (the model beside its scikit-learn twin),
`leaderboard` (learners ranked on the same rows), `exports` (predictions CSV, model JSON), `script` (a Python
script that reproduces a run), `lab` (the estimation lab). Progress reports to the page are
`pellucid.host.progress`'s.
"""
