"""scikit-learn's protocols a pellucid estimator speaks without importing scikit-learn: metadata routing
(`set_fit_request`, `get_metadata_routing`), `set_output`, and the Tags scikit-learn reads. Only
scikit-learn calls the parts that need it, so they import it where they run."""

import inspect
import sys
import types

from .errors import DataError

# What a set_fit_request argument left out means in scikit-learn's generated methods: no change.
_UNCHANGED = "$UNCHANGED$"
# fit's parameters that are the data itself, not metadata to route.
_DATA_PARAMS = {"self", "X", "y", "feature_names"}


def _is_alias(value):
    return isinstance(value, str) and value.isidentifier()


def fit_metadata(cls):
    """The metadata `cls.fit` takes besides the data (["sample_weight"] for the learners that weigh rows)."""
    fit = getattr(cls, "fit", None)
    if fit is None:
        return []
    return [p.name for p in inspect.signature(fit).parameters.values()
            if p.name not in _DATA_PARAMS and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


class AvailableIf:
    """A method that exists only where `check(instance)` holds, so `hasattr` tells the truth (scikit-learn's
    `available_if`, which it reads to know what an estimator can do)."""

    def __init__(self, check, function):
        self.check, self.function = check, function
        self.__doc__ = function.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self.function
        if not self.check(instance):
            raise AttributeError(f"{type(instance).__name__} has no {self.name}")
        return types.MethodType(self.function, instance)


class MetadataRequests:
    """Metadata routing: scikit-learn's protocol for passing sample_weight through its meta-estimators."""

    def _set_fit_request(self, **requests):
        """Say whether scikit-learn's meta-estimators (Pipeline, cross_validate, GridSearchCV, with
        `sklearn.set_config(enable_metadata_routing=True)`) pass each of fit's metadata on: True (pass it),
        False (do not), None (an error if given), or a name it arrives under instead. Returns self."""
        known = fit_metadata(type(self))
        unknown = sorted(set(requests) - set(known))
        if unknown:
            raise TypeError(f"Unexpected args: {unknown} in fit. Accepted arguments are: {known}")
        chosen = dict(getattr(self, "_fit_requests", {}))
        for name, alias in requests.items():
            if isinstance(alias, str) and alias == _UNCHANGED:
                continue
            if not (alias is True or alias is False or alias is None or _is_alias(alias)):
                raise DataError(f"The alias you're setting for `{name}` should be either a valid identifier or "
                                f"one of {{None, True, False}}, but given value is: `{alias}`")
            chosen[name] = True if alias == name else alias
        self._fit_requests = chosen
        return self

    # set_fit_request exists for the estimators whose fit takes metadata (sample_weight), as in scikit-learn.
    set_fit_request = AvailableIf(lambda est: bool(fit_metadata(type(est))), _set_fit_request)

    def get_metadata_routing(self):
        """scikit-learn's MetadataRequest for this estimator: what each fit metadata is requested as (None
        until `set_fit_request` says). Only scikit-learn calls this, so it imports scikit-learn here."""
        from sklearn.utils.metadata_routing import MetadataRequest

        request = MetadataRequest(owner=type(self).__name__)
        chosen = getattr(self, "_fit_requests", {})
        for name in fit_metadata(type(self)):
            request.fit.add_request(param=name, alias=chosen.get(name))
        return request


class OutputMixin:
    """scikit-learn's `set_output`: `transform` gives a numpy array ("default"), a pandas DataFrame
    ("pandas") or a polars one ("polars") whose columns are `get_feature_names_out()`. pandas and polars are
    imported only when asked for, so neither is a dependency. Unset, the output follows scikit-learn's
    global `transform_output` where scikit-learn has been imported, as its own transformers do."""

    def set_output(self, *, transform=None):
        """Choose the container `transform` and `fit_transform` return; None leaves it as it is."""
        if transform is None:
            return self
        if transform not in _OUTPUTS:
            raise DataError(f"set_output(transform=...) takes one of {', '.join(map(repr, _OUTPUTS))}; got "
                            f"{transform!r}.")
        self._sklearn_output_config = {**getattr(self, "_sklearn_output_config", {}), "transform": transform}
        return self

    def _wrap_output(self, Z, X):
        """Z (n, k), in the container chosen; a DataFrame keeps the index of a pandas X."""
        how = getattr(self, "_sklearn_output_config", {}).get("transform") or _global_output()
        if how == "default":
            return Z
        names = list(self.get_feature_names_out())
        if how == "pandas":
            pd = _library("pandas")
            index = X.index if isinstance(X, pd.DataFrame) else None
            return pd.DataFrame(Z, columns=names, index=index, copy=False)
        pl = _library("polars")
        return pl.DataFrame(Z, schema=names, orient="row")


_OUTPUTS = ("default", "pandas", "polars")


def _global_output():
    """scikit-learn's `transform_output` setting where scikit-learn is loaded, else "default"."""
    sklearn = sys.modules.get("sklearn")
    get_config = getattr(sklearn, "get_config", None)
    return get_config().get("transform_output", "default") if get_config else "default"


def _library(name):
    try:
        return __import__(name)
    except ImportError:
        raise DataError(f"set_output(transform={name!r}) needs {name}, which is not installed.") from None


# --- scikit-learn's view of an estimator -----------------------------------------------------------

SKLEARN_TYPES = {"classification": "classifier", "regression": "regressor", "clustering": "clusterer"}


def task_name(task):
    return getattr(task, "value", task)


def sklearn_tags(estimator):
    """scikit-learn's Tags for a pellucid estimator, from its task and methods.

    Imports scikit-learn, so it is only called from `__sklearn_tags__`, that is by scikit-learn itself.
    Every estimator takes text columns (string=True); missing numbers (allow_nan) only those whose
    `takes_missing_values` says so (the trees)."""
    from sklearn.utils import ClassifierTags, InputTags, RegressorTags, Tags, TargetTags, TransformerTags

    task = task_name(estimator.task)
    supervised = task in ("classification", "regression")
    return Tags(
        estimator_type=SKLEARN_TYPES.get(task),
        target_tags=TargetTags(required=supervised),
        transformer_tags=TransformerTags() if hasattr(estimator, "transform") else None,
        classifier_tags=ClassifierTags() if task == "classification" else None,
        regressor_tags=RegressorTags() if task == "regression" else None,
        input_tags=InputTags(two_d_array=True, string=True,
                             allow_nan=bool(getattr(estimator, "takes_missing_values", False))),
    )
