"""The preprocessing step between the data and a model, as the workbench runs it: the choices (from the
learner's descriptor unless the page says otherwise), the rows left out, the Preprocessor fitted on the
training rows, and the steps the page shows ("impute", "standardize", "one_hot": categorical columns as
0/1 columns for a learner that needs numbers).

Defaults: standardise when the learner is scale-sensitive (distances or gradients change when a feature
is rescaled); impute missing cells with the column's mean (numeric) or most frequent value (categorical),
but for a learner that takes missing numbers (a tree) "keep" them and fill only missing categories.
"drop" instead leaves out, before the split, every row missing a chosen feature; a row without a target
value is always left out (there is nothing to learn from it or score it against).
"""

import numpy as np

from ..core.errors import DataError
from ..preprocessing import Preprocessor
from ..preprocessing.columns import missing
from ..core.settings import IMPUTE_CHOICES, IMPUTE_KEEP, preprocessing_defaults, takes_missing


def check_choices(choices, learner):
    """{standardize, impute}: the page's choices with the descriptor's defaults filled in."""
    if choices is not None and not isinstance(choices, dict):
        raise DataError(f"preprocessing must be settings like {{\"standardize\": true, \"impute\": \"mean\"}}; "
                        f"got {choices!r}.", field="preprocessing.standardize")
    choices = dict(choices or {})
    unknown = sorted(set(choices) - {"standardize", "impute"})
    if unknown:
        raise DataError(f"preprocessing has no setting {', '.join(map(repr, unknown))}; "
                        "the settings are standardize and impute.", field="preprocessing.standardize")
    defaults = preprocessing_defaults(learner)
    standardize = choices.get("standardize")
    if standardize is None:
        standardize = defaults["standardize"]
    if not isinstance(standardize, bool):
        raise DataError(f"preprocessing standardize must be true or false; got {standardize!r}.",
                        field="preprocessing.standardize")
    impute = choices.get("impute") or defaults["impute"]
    if impute not in IMPUTE_CHOICES:
        raise DataError(f"preprocessing impute must be one of {', '.join(IMPUTE_CHOICES)}; got {impute!r}.",
                        field="preprocessing.impute")
    if impute == IMPUTE_KEEP and not takes_missing(learner):
        raise DataError(f"{learner.label} cannot read missing numbers (only the trees and their ensembles "
                        "can): choose how missing cells are filled (mean, median, most frequent) or drop "
                        "those rows.", field="preprocessing.impute")
    return {"standardize": standardize, "impute": impute}





def missing_counts(table, columns):
    """{column: number of missing cells} for the columns that have any."""
    counts = {name: int(missing(table.column(name), table.kinds[name]).sum()) for name in columns}
    return {name: n for name, n in counts.items() if n}


def rows_to_keep(table, features, target, choices):
    """(table without the rows left out, {"rows": how many were left out, "missing": {feature: missing
    cells before}}): rows without a target value, and under "drop" rows missing a chosen feature. A
    DataError when no row would be left."""
    gaps = missing_counts(table, features)
    columns = ([target] if target is not None else []) + (features if choices["impute"] == "drop" else [])
    keep = np.ones(table.n_rows, dtype=bool)
    for name in columns:
        keep &= ~missing(table.column(name), table.kinds[name])
    dropped = int(table.n_rows - keep.sum())
    if not keep.any():
        raise DataError("Every row misses a value in the target or a chosen feature, so no row is left to "
                        "learn from: choose an imputation instead of dropping rows, or other columns.",
                        field="preprocessing.impute")
    return (table.take(keep) if dropped else table), {"rows": dropped, "missing": gaps}


def unfitted(X_all, choices, learner):
    """The Preprocessor for `choices`: it imputes only when some row of `X_all` (every row the model will
    read) misses a value, and one-hot encodes categorical columns for a learner that needs numbers."""
    impute = choices["impute"] if choices["impute"] != "drop" and missing_counts(X_all, X_all.columns) else None
    one_hot = learner.needs == "numbers" and any(kind != "numeric" for kind in X_all.kinds.values())
    return Preprocessor(impute=impute, standardize=choices["standardize"], one_hot=one_hot)


def steps(preprocessor, X_all, choices, dropped):
    """The steps the page shows, in the order they are applied, with what was fitted; `dropped` is what
    `rows_to_keep` left out."""
    out = []
    rows_dropped = dropped["rows"]
    gaps = dropped["missing"] if choices["impute"] == "drop" else missing_counts(X_all, X_all.columns)
    if preprocessor.imputer_ is not None or rows_dropped:
        stats = preprocessor.imputer_.statistics_ if preprocessor.imputer_ is not None else {}
        out.append({"step": "impute", "strategy": choices["impute"], "columns": list(gaps),
                    "missing": gaps, "values": {name: stats[name] for name in gaps if name in stats} or None,
                    "rows_dropped": rows_dropped,
                    # "keep": the columns whose missing numbers the model reads as they are
                    "kept": {name: n for name, n in gaps.items() if name not in stats} or None
                    if choices["impute"] == IMPUTE_KEEP else None})
    if preprocessor.scaler_ is not None and preprocessor.scaler_.mean_:
        scaler = preprocessor.scaler_
        out.append({"step": "standardize", "columns": list(scaler.mean_),
                    "mean": list(scaler.mean_.values()), "scale": list(scaler.scale_.values()),
                    "constant": [name in getattr(scaler, "constant_", ()) for name in scaler.mean_]})
    if preprocessor.encoder_ is not None:
        categories = preprocessor.encoder_.categories_
        out.append({"step": "one_hot", "columns": list(categories), "categories": list(categories.values())})
    return out


STEP_WORDS = {"impute": "missing cells filled", "standardize": "numeric columns standardised",
              "one_hot": "categorical columns one-hot encoded"}


def describe(shown, then):
    """The run's steps in words (what both libraries were given), followed by `then`, what is done after."""
    done = [STEP_WORDS[s["step"]] for s in shown if s["step"] != "impute" or s["values"]]
    done += ["missing numbers left to the model"] if any(s.get("kept") for s in shown) else []
    if not done:
        return then
    return f"as on the page, fitted on the training rows: {', '.join(done)}; then {then}"
