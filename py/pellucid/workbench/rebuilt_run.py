"""The page's run rebuilt in a worker that has the table but no session (a pool worker doing a piece of the
run's permutation importance): planned as training plans it (training.plan_run: the same columns, rows,
split, sample and seed), and fitted as training fits it when the piece needs the fitted model.

Which pieces need it: under k-fold every piece refits its fold's model, as judging does in the page's worker,
so the planned run is enough. Under a held-out split (or no held-out rows) a piece judges the run's own fitted
model, which is trained here again from the same arguments rather than sent from the page's worker as its
model file: the same code on the same arguments makes the very model, bit for bit, with nothing to trust in
a file's round trip, while a model file would cross once a piece and be read in each, and for k-NN, the
learner whose importance takes longest (its predictions are the cost), it holds every training row (tens of
MB of JSON on 50,000 rows) where fitting it again takes a fraction of a second. Training again gives the same
model only when training is reproducible: every learner draws its randomness from its seed (random_state),
and one whose seed is None draws a fresh one each fit, so such a run is refused here (the page judges it in
its own worker, which has the model).
"""

import warnings

from ..core.errors import DataError
from . import prepare, training


def rebuilt(table, target, features, model, params=None, evaluation=None, preprocessing=None, sample=False):
    """The run `train` makes with these arguments, for judging it: its fitted model too unless it is
    cross-validated; a DataError when that model could not be made again (its seed is None)."""
    run, _, _ = training.plan_run(table, target, features, model, params, evaluation, False, preprocessing, sample)
    if run.setup["evaluation"]["method"] != "kfold":
        _check_reproducible(run)
        _fit(run)
    return run


def _check_reproducible(run):
    if "random_state" in run.estimator.get_params() and run.estimator.random_state is None:
        raise DataError(f"{run.label}'s seed is none, so it draws a fresh one each fit and another worker would "
                        "train another model: its importance is computed by the page's own worker.",
                        field="params.random_state")


def _fit(run):
    """The run's preprocessing and model fitted on its training rows exactly as training fits them (the
    preprocessing fitted on the training rows, every row transformed, the training rows' taken)."""
    raw, train_rows = run.table.select(run.features), run.splits["train"]
    choices = run.setup["preprocessing"]
    run.preprocessor = prepare.unfitted(raw, choices, run.learner).fit(raw.take(train_rows))
    X = run.preprocessor.transform(raw)
    with warnings.catch_warnings():  # the page's training reported them already
        warnings.simplefilter("ignore")
        run.estimator.fit(X.take(train_rows), run.table.column(run.target)[train_rows])
