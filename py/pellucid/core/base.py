"""The estimator contract shared by every model: parameters, fitted state, scoring, and JSON round-trips.

After scikit-learn's BaseEstimator, without depending on it. `__init__` stores hyperparameters only;
`fit` checks them (see params.py), sets attributes ending in "_" and returns self. Every concrete
estimator registers itself by class name so `from_dict` can rebuild it.
"""

import copy
import inspect

import numpy as np

from . import serialize
from .descriptor import Task
from .errors import DataError, not_fitted
from .file_fields import FIELD, check_state, damaged, require_dict, require_int, require_key
from .param_names import accept_old_names, current_names
from .params import check_params
from .sklearn_protocols import SKLEARN_TYPES, MetadataRequests, AvailableIf, task_name, sklearn_tags
from .scores import accuracy_score, r2_score

_REGISTRY = {}
FORMAT = "pellucid-model"
VERSION = 1  # the model file format this package writes; a newer one is refused, not read in part


# Settings that are not hyperparameters but travel with a copy (scikit-learn's clone keeps them too).
_CARRIED = ("_fit_requests", "_sklearn_output_config")


class Estimator(MetadataRequests):
    """Base class: hyperparameters from the `__init__` signature, fitted state in attributes ending in "_"."""

    _param_rules = {}
    # The fitted state a model file holds, {attribute: core.file_fields spec}: each field is checked by
    # its spec when the file is read, and only these are set (None: the learner reads its state itself).
    _state_fields = None
    # Filled by subclasses: a descriptor.Task.
    task = None

    def __init_subclass__(cls, **kwargs):
        # pellucid's own estimators register themselves; one written elsewhere (a test's toy learner, a
        # user's) is added by `register_estimator` (the learner registry does it), so it never leaks
        # into the list of pellucid's estimators just because its module was imported.
        super().__init_subclass__(**kwargs)
        accept_old_names(cls)
        if not cls.__name__.startswith("_") and cls.task is not None and cls.__module__.startswith("pellucid."):
            _REGISTRY[cls.__name__] = cls

    @classmethod
    def _param_names(cls):
        signature = inspect.signature(cls.__init__)
        return [p.name for p in signature.parameters.values()
                if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]

    def get_params(self, deep=True):
        """The hyperparameters, as given to `__init__`; with `deep`, a nested estimator's own parameters
        too, as "name__param" (scikit-learn's convention, so its clone, pipelines and searches work)."""
        params = {}
        for name in self._param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                params.update((f"{name}__{key}", v) for key, v in value.get_params().items())
            params[name] = value
        return params

    def set_params(self, **params):
        """Change hyperparameters, "name__param" reaching into a nested estimator; an unknown name fails
        and lists the valid ones."""
        valid = self._param_names()
        nested = {}
        for key, value in params.items():
            name, delimiter, inner = key.partition("__")
            if name not in valid:
                raise DataError(f"{type(self).__name__} has no parameter {name!r}; "
                                f"valid parameters are: {', '.join(valid)}.")
            if delimiter:
                nested.setdefault(name, {})[inner] = value
            else:
                setattr(self, name, value)
        for name, inner_params in nested.items():
            getattr(self, name).set_params(**inner_params)
        return self

    # --- what scikit-learn asks of an estimator --------------------------------------------------

    @property
    def _estimator_type(self):
        """"classifier", "regressor", "clusterer" or None: what scikit-learn before 1.6 reads."""
        return SKLEARN_TYPES.get(task_name(self.task))

    def __sklearn_tags__(self):
        """scikit-learn's Tags for this estimator. Only scikit-learn calls this, so importing it here
        keeps it out of pellucid's own dependencies."""
        return sklearn_tags(self)

    def __sklearn_clone__(self):
        """scikit-learn's clone calls this: `clone`, which keeps the metadata requests and output setting."""
        return clone(self)

    def __repr__(self):
        defaults = {p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()}
        changed = [f"{k}={v!r}" for k, v in self.get_params(deep=False).items() if not _same(v, defaults.get(k))]
        return f"{type(self).__name__}({', '.join(changed)})"

    def _check_params(self):
        check_params(self)

    def fitted_attributes(self):
        """Names of the attributes `fit` set (they end in "_")."""
        return [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]

    def _check_fitted(self):
        if not self.fitted_attributes():
            raise not_fitted(f"This {type(self).__name__} is not fitted yet; call fit(X, y) first.")

    # --- JSON round trip -------------------------------------------------------------------------

    def to_dict(self):
        """A JSON-able description of the fitted model; `pellucid.from_dict` rebuilds it."""
        self._check_fitted()
        return {**self._header(), **self._state_to_dict()}

    def _header(self):
        return {"format": FORMAT, "version": VERSION, "model": type(self).__name__,
                "params": serialize.encode(self.get_params(deep=False))}

    def _state_to_dict(self):
        # trace_ is a record of training for the UI, not part of what predicts.
        state = {k: getattr(self, k) for k in self.fitted_attributes() if k != "trace_"}
        return {"state": serialize.encode(state)}

    def _state_from_dict(self, d):
        """Set the fitted attributes a model file holds, each checked by its spec in `_state_fields`, then
        the checks that tie them together (`_check_state`)."""
        state = require_dict(serialize.decode(require_key(d, "state", ""), "state"), "state")
        if self._state_fields is None:
            self._unchecked_state(state)
            return
        for key, value in check_state(state, self._state_fields).items():
            setattr(self, key, value)
        self._check_state()

    def _unchecked_state(self, state):
        """A learner written outside pellucid that states no fields reads its fitted attributes (names
        ending in "_") as they are: it answers for them. Every one of pellucid's own learners states its."""
        if type(self).__module__.startswith("pellucid."):
            raise damaged("model", f"{type(self).__name__} does not say what its model file holds")
        for key, value in state.items():
            if not (isinstance(key, str) and key.endswith("_") and not key.startswith("_")):
                raise damaged(f"state.{key}", "is not a fitted attribute (a name ending in \"_\")")
            setattr(self, key, value)

    def _check_state(self):
        """Checks of the fitted state beyond each field's own (k at most the stored rows): a DataError
        from core.file_fields when the attributes do not make a model that can predict."""


def clone(estimator):
    """A new, unfitted estimator of the same class with the same hyperparameters: nested estimators cloned,
    other values deep-copied, and the metadata requests and output setting carried over."""
    params = {name: _clone_value(v) for name, v in estimator.get_params(deep=False).items()}
    new = type(estimator)(**params)
    for name in _CARRIED:
        if hasattr(estimator, name):
            setattr(new, name, copy.deepcopy(getattr(estimator, name)))
    return new


def _clone_value(value):
    if isinstance(value, Estimator):
        return clone(value)
    if hasattr(value, "__sklearn_clone__") and not isinstance(value, type):  # a scikit-learn estimator
        return value.__sklearn_clone__()
    return copy.deepcopy(value)


def _same(a, b):
    try:
        return bool(a == b) if not isinstance(a, np.ndarray) else False
    except Exception:
        return False


def from_dict(d):
    """Rebuild a fitted model from `Estimator.to_dict()` output; every field is checked before use, and a
    damaged file is a DataError about the "model_file" field naming the field at fault."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataError("This is not a pellucid model: expected a JSON object with "
                        f"\"format\": \"{FORMAT}\".", field=FIELD)
    check_version(d.get("version"))
    name = d.get("model")
    if not isinstance(name, str) or name not in _REGISTRY:
        raise DataError(f"Unknown model {name!r}; known models are: {', '.join(sorted(_REGISTRY))}.", field=FIELD)
    cls = _REGISTRY[name]
    params = require_dict(serialize.decode(d.get("params", {}), "params"), "params")
    params = current_names(cls, params, field=FIELD)  # a file written before a parameter was renamed
    unknown = sorted(set(params) - set(cls._param_names()))
    if unknown:
        raise damaged("params", f"name parameters {name} does not have: {', '.join(map(str, unknown))}")
    model = cls(**params)
    try:
        model._check_params()
    except DataError as exc:  # a hyperparameter's rule, broken in the file rather than in a form
        raise damaged("params", f"break a rule: {exc}") from None
    try:
        model._state_from_dict(d)
    except DataError as exc:  # about the file, whatever setting the check inside was written for
        raise exc if exc.field == FIELD else DataError(str(exc), field=FIELD) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise DataError(f"The {name} model description is incomplete or damaged ({exc}).", field=FIELD) from exc
    return model


def check_version(version):
    """The file's format version, if this package reads it: a newer one is refused with both versions named
    (its fields may mean what this version cannot know), an absent one is the first."""
    version = 1 if version is None else require_int(version, "version", low=1)
    if version > VERSION:
        raise DataError(f"This model file is in format version {version}, written by a newer Pellucid; this "
                        f"page reads model files up to version {VERSION}. Open it with a newer version of "
                        "the page.", field=FIELD)
    return version


def register_estimator(cls):
    """Let `from_dict` rebuild models of `cls`, an estimator class defined outside pellucid."""
    if _REGISTRY.get(cls.__name__, cls) is not cls:
        raise ValueError(f"Another estimator is already registered as {cls.__name__!r}.")
    _REGISTRY[cls.__name__] = cls


def unregister_estimator(cls):
    """Undo `register_estimator` (pellucid's own estimators stay)."""
    if _REGISTRY.get(cls.__name__) is cls and not cls.__module__.startswith("pellucid."):
        del _REGISTRY[cls.__name__]


def all_estimators():
    """Every registered estimator class, by name (for contract tests and the model menu)."""
    return dict(sorted(_REGISTRY.items()))


def _log_of_proba(self, X):
    """(n, K) natural logarithms of `predict_proba(X)` (-inf where a probability is 0)."""
    with np.errstate(divide="ignore"):
        return np.log(self.predict_proba(X))


class ClassifierMixin:
    """score = accuracy; `predict_log_proba` wherever there is `predict_proba` (a learner that can do better
    than the logarithm of its probabilities, as logistic regression's log-softmax, defines its own)."""

    task = Task.CLASSIFICATION

    def score(self, X, y):
        """Fraction of rows of X whose predicted label equals y."""
        return accuracy_score(np.asarray(y), self.predict(X))

    predict_log_proba = AvailableIf(lambda est: hasattr(est, "predict_proba"), _log_of_proba)


class RegressorMixin:
    """score = R^2."""

    task = Task.REGRESSION

    def score(self, X, y):
        """Coefficient of determination R^2 of the predictions."""
        return r2_score(np.asarray(y, dtype=float), self.predict(X))


class ClusterMixin:
    """Unsupervised grouping: `fit(X)` sets `labels_`; score is left to the cluster metrics."""

    task = Task.CLUSTERING

    def fit_predict(self, X, y=None, feature_names=None):
        """Fit and return the cluster label of every row."""
        return self.fit(X, feature_names=feature_names).labels_


class TransformerMixin:
    """A fitted map from X to a new feature space."""

    task = Task.PROJECTION

    def fit_transform(self, X, y=None, feature_names=None):
        """Fit, then transform the same X."""
        return self.fit(X, feature_names=feature_names).transform(X)
