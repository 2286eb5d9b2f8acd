"""What a model file keeps for the page beside the model (its "workbench" part), checked before use: the
columns the model reads, the target's name, each column's kind and the fitted preprocessing.

The parts must agree with one another and with the model: the preprocessing reads the file's columns and
gives exactly the columns the model was fitted on, a column the scaler standardises is numeric and one the
encoder one-hot encodes is categorical. Anything else is a DataError about the model file naming the field
(core.file_fields); a file without the part (a model saved by `to_dict` alone) reads the model's own columns.
"""

from ..core.file_fields import KINDS, damaged, require_dict, require_int, require_names, require_text
from ..preprocessing import Preprocessor
from ..tabular.cells import CATEGORICAL, NUMERIC

PATH = "workbench"


def read_workbench_part(d, estimator):
    """{features, target, kinds, preprocessor, trained_rows} of the model file `d` (a dict) whose model is
    `estimator`; trained_rows is None when the file does not say (files written before it was kept)."""
    extra = d.get(PATH)
    if extra is None:
        return {"features": list(estimator.feature_names_in_), "target": None, "kinds": None, "preprocessor": None,
                "trained_rows": None}
    extra = require_dict(extra, PATH)
    prep = extra.get("preprocessing")
    preprocessor = None if prep is None else Preprocessor.from_dict(prep, f"{PATH}.preprocessing")
    features = _features(extra, estimator, preprocessor)
    target = extra.get("target")
    if target is not None:
        require_text(target, f"{PATH}.target")
    kinds = _kinds(extra.get("kinds"), features, estimator, preprocessor)
    _check_statistics(preprocessor, kinds or _read_as(features, estimator, preprocessor))
    rows = extra.get("trained_rows")
    rows = None if rows is None else require_int(rows, f"{PATH}.trained_rows", low=1)
    return {"features": features, "target": target, "kinds": kinds, "preprocessor": preprocessor,
            "trained_rows": rows}


def _features(extra, estimator, preprocessor):
    """The columns the file's model reads: those the preprocessing reads, which must give the model's."""
    model_columns = list(estimator.feature_names_in_)
    if "features" not in extra:
        features = list(getattr(_first_part(preprocessor), "feature_names_in_", model_columns))
    else:
        features = require_names(extra["features"], f"{PATH}.features")
    if not features:
        raise damaged(f"{PATH}.features", "must name at least one column")
    part = _first_part(preprocessor)
    if part is not None and part.feature_names_in_ != features:
        raise damaged(f"{PATH}.preprocessing.columns", "must be the model file's features, in order")
    encoder = getattr(preprocessor, "encoder_", None)
    given = encoder.get_feature_names_out() if encoder is not None else features
    if list(given) != model_columns:
        raise damaged(f"{PATH}.features", "must give, after the preprocessing, the columns the model was "
                                          f"fitted on ({', '.join(model_columns)})")
    return features


def _first_part(preprocessor):
    if preprocessor is None:
        return None
    return next((p for p in (preprocessor.imputer_, preprocessor.scaler_, preprocessor.encoder_) if p), None)


def _kinds(kinds, features, estimator, preprocessor):
    """{column: kind} for each feature, agreeing with the preprocessing and the model; None when absent."""
    if kinds is None:
        return None
    path = f"{PATH}.kinds"
    kinds = require_dict(kinds, path)
    if sorted(kinds) != sorted(features) or any(kinds[f] not in KINDS for f in features):
        raise damaged(path, f"must give each feature's kind, {' or '.join(KINDS)}")
    for name, expected in _read_as(features, estimator, preprocessor).items():
        if expected is not None and kinds[name] != expected:
            raise damaged(path, f"says {name!r} is {kinds[name]}, but the model and its preprocessing read it "
                                f"as {expected}")
    return {name: kinds[name] for name in features}


def _read_as(features, estimator, preprocessor):
    """{feature: the kind the preprocessing and the model read it as}: numeric where it is standardised,
    categorical where it is one-hot encoded, else the model's own kind of it (None: no one says)."""
    scaled = set(getattr(getattr(preprocessor, "scaler_", None), "mean_", {}))
    encoded = set(getattr(getattr(preprocessor, "encoder_", None), "categories_", {}))
    model_kinds = dict(zip(estimator.feature_names_in_, estimator.feature_kinds_))
    return {name: NUMERIC if name in scaled else CATEGORICAL if name in encoded else model_kinds.get(name)
            for name in features}


def _check_statistics(preprocessor, kinds):
    """An imputed numeric column is filled with a number, a categorical one with a text."""
    statistics = getattr(getattr(preprocessor, "imputer_", None), "statistics_", {})
    for name, value in statistics.items():
        if (kinds.get(name) == NUMERIC) != (not isinstance(value, str)):
            raise damaged(f"{PATH}.preprocessing.statistics.{name}",
                          f"must be a {'number' if kinds.get(name) == NUMERIC else 'text'} to fill a "
                          f"{kinds.get(name)} column; got {value!r}")
