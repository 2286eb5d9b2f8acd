"""A model with its preparation: `Pipeline(Preprocessor(...), model)` fits the preprocessor on the rows it
is given and the model on what the preprocessor makes of them, and prepares every later X the same way.

Because it is one estimator, `cross_validate` refits the preparation inside each fold (so no fold's
test rows shape the means and scales its model is trained with).
"""

from ..core.base import Estimator


class Pipeline(Estimator):
    """preprocessor: a Preprocessor (or any transformer); model: the estimator it feeds."""

    def __init__(self, preprocessor=None, model=None):
        self.preprocessor = preprocessor
        self.model = model
        # The pipeline does what its model does (read by cross_validate and scikit-learn); an instance
        # attribute, so the class is not registered as a learner of its own.
        self.task = getattr(model, "task", None)

    def fit(self, X, y=None, **fit_params):
        """Fit the preprocessor on X and the model on what it makes of X; `fit_params` (sample_weight,
        feature_names) go to the model's fit, as scikit-learn's Pipeline passes them to its last step."""
        prepared = self.preprocessor.fit(X).transform(X)
        self.model.fit(prepared, y, **fit_params)
        self.fitted_ = True
        return self

    # The pipeline's fit hands its metadata to the model's fit, so it asks for what the model asks for:
    # scikit-learn's meta-estimators route sample_weight to a pipeline whose model requests it.
    def set_fit_request(self, **requests):
        """The model's set_fit_request (scikit-learn's metadata routing); returns the pipeline."""
        self.model.set_fit_request(**requests)
        return self

    def get_metadata_routing(self):
        """The model's metadata requests, which are the pipeline's."""
        return self.model.get_metadata_routing()

    def _prepared(self, X):
        self._check_fitted()
        return self.preprocessor.transform(X)

    def predict(self, X):
        return self.model.predict(self._prepared(X))

    def predict_proba(self, X):
        return self.model.predict_proba(self._prepared(X))

    def predict_log_proba(self, X):
        return self.model.predict_log_proba(self._prepared(X))

    def transform(self, X):
        return self.model.transform(self._prepared(X))

    def score(self, X, y=None):
        return self.model.score(self._prepared(X), y)

    @property
    def classes_(self):
        return self.model.classes_
