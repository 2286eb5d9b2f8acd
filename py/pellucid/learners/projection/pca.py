"""Principal component analysis: project centred data on the top eigenvectors of its covariance (notes 004).

The notes' Algorithm 37, PCA(D, K):

    1: mu <- MEAN(X)                                   compute the data mean for centering
    2: D <- (X - mu 1^T)^T (X - mu 1^T)                compute the covariance
    3: {lambda_k, u_k} <- top K eigenvalues/eigenvectors of D
    4: return (X - mu 1) U                             project the data using U

and to choose K, the "amount of explained variance": keep the fewest components with
sum_{j<=K} lambda_j / sum_i lambda_i >= 0.9 (the trace of the covariance is the sum of its eigenvalues).
"""

import numpy as np

from ...core.base import Estimator, TransformerMixin
from ...core.sklearn_protocols import OutputMixin
from ...core.errors import DataError
from ...core.file_fields import Array, Int
from ...tabular.features import NUMERIC_STATE, fit_numeric, numeric
from ...core.params import Flag, Number
from ..shared.distances import square_safe_scale, unit_scale
from ..shared.gram_fast import gram


class PCA(OutputMixin, TransformerMixin, Estimator):
    """PCA (notes 004, Algorithm 37) by the eigen-decomposition of the covariance matrix.

    When there are at least as many rows as columns the (d, d) covariance of the centred data is
    decomposed with `numpy.linalg.eigh`, as the notes do (cheap for n >> d; see `_scatter`). With fewer
    rows than columns the thin SVD of the centred data gives the same components without a d x d matrix.
    Variances divide by n - 1, as scikit-learn. Signs: each component is flipped so that its entry of
    largest absolute value is positive (scikit-learn's `svd_flip` for PCA does the same).

    Parameters: `n_components`, as scikit-learn's: a whole number K of components to keep, a fraction in
    (0, 1): keep the fewest components whose explained-variance ratios add up to at least this (the
    notes' 0.9), or None: all min(n, d). (Files written with the former `variance` parameter still read.)
    Categorical columns are one-hot encoded (0/1, not standardised) before centring, so `mean_`,
    `components_` and `inverse_transform` live in the encoded feature space (`encoder_.output_names`).

    Fitted: `mean_` (d,), `components_` (K, d) the unit eigenvectors u_k as rows, `explained_variance_`
    (K,) the eigenvalues lambda_k / (n - 1), `explained_variance_ratio_` (K,) lambda_k / sum of all,
    `singular_values_` (K,), `n_components_`, `encoder_`, `feature_names_in_`, `feature_kinds_`.

    As scikit-learn's: the output columns are named "pca0", "pca1", ... (`get_feature_names_out`), and
    `set_output(transform="pandas")` makes `transform` return a DataFrame with those columns.

    Trace (`trace=True`):
      {"step": "mean", "mean": [...]}                                    line 1
      {"step": "covariance", "matrix": [[...]]}  (d <= 50 only; else "matrix": None)   line 2
      {"step": "eigen", "eigenvalues": [...], "ratios": [...], "cumulative": [...]}   line 3, all of them
      {"step": "choose", "n_components": K, "rule": "n_components" | "variance" | "all"}  (variance: a fraction)
    """

    _param_rules = {
        "n_components": Number(0, None, low_open=True, none_ok=True, label="components",
                               help="How many principal components K to keep (a whole number), or a fraction "
                                    "below 1: the fewest components explaining at least that share of the "
                                    "variance (the notes' 0.9). Empty: all."),
        "trace": Flag(help="Record the mean, the covariance, its eigenvalues and the choice of K."),
    }
    # A model file's state (core.file_fields): the mean, the components and what each explains.
    _state_fields = {**NUMERIC_STATE, "mean_": Array("f", ("n_encoded",)),
                     "components_": Array("f", ("n_components", "n_encoded")),
                     "explained_variance_": Array("f", ("n_components",), low=0),
                     "explained_variance_ratio_": Array("f", ("n_components",), low=0, high=1),
                     "singular_values_": Array("f", ("n_components",), low=0),
                     "n_components_": Int(1, dim="n_components"), "n_samples_": Int(1)}

    # `variance` (a fraction, 1 for all) was a parameter of its own before n_components took fractions.
    _renamed_params = {"variance": ("n_components", lambda share: None if share >= 1 else share)}

    def __init__(self, n_components=None, trace=False):
        self.n_components = n_components
        self.trace = trace

    def fit(self, X, y=None, feature_names=None):
        """Find the principal components of the rows of X."""
        self._check_params()
        fraction = self._fraction()
        M, _ = fit_numeric(self, X, None, feature_names)  # (n, d)
        n, d = M.shape
        if n < 2:
            raise DataError(f"PCA needs at least 2 rows to estimate a variance; X has {n} (n_samples={n}).")
        most = min(n, d)
        if fraction is None and self.n_components is not None and self.n_components > most:
            raise DataError(f"Parameter 'n_components' must be at most min(rows, columns) = {most}; "
                            f"got {self.n_components}.", field="params.n_components")
        trace = [] if self.trace else None
        mean = np.ones(n) @ M / n  # (d,) line 1
        # The scatter is found from M / scale, whose squares neither underflow nor overflow (scale is 1
        # for data of an ordinary size); a power of two rounds nothing, so the eigenvectors are those of
        # M and its eigenvalues are scale^2 times.
        scale = square_safe_scale(M)
        scaled = M / scale if scale != 1.0 else M
        scaled_values, vectors = _eigen(scaled, mean / scale, trace, scale)  # (r,), (r, d) largest first
        eigenvalues = scaled_values * scale ** 2
        total = float(scaled_values.sum())
        ratios = scaled_values / total if total > 0 else np.zeros_like(eigenvalues)  # (r,)
        k, rule = self._choose(ratios, most)
        if trace is not None:
            trace[0:0] = [{"step": "mean", "mean": mean.tolist()}]
            trace.append({"step": "eigen", "eigenvalues": (eigenvalues / (n - 1)).tolist(),
                          "ratios": ratios.tolist(), "cumulative": np.cumsum(ratios).tolist()})
            trace.append({"step": "choose", "n_components": k, "rule": rule})
            self.trace_ = trace
        self.mean_ = mean
        self.components_ = np.ascontiguousarray(_flip_signs(vectors[:k]))  # (K, d), laid out as a read-back one
        self.explained_variance_ = eigenvalues[:k] / (n - 1)
        self.explained_variance_ratio_ = ratios[:k]
        self.singular_values_ = np.sqrt(scaled_values[:k]) * scale
        self.n_components_ = k
        self.n_samples_ = n
        return self

    def _fraction(self):
        """The share of variance to explain when n_components is a fraction; None when it counts
        components (a whole number) or is None. Any other number is refused by name."""
        n = self.n_components
        if n is None or n >= 1 and float(n).is_integer():
            return None
        if n < 1:
            return float(n)
        raise DataError(f"Parameter 'n_components' must be a whole number of components or a fraction below 1; "
                        f"got {n!r}.", field="params.n_components")

    def _choose(self, ratios, most):
        fraction = self._fraction()
        if fraction is not None:
            cumulative = np.cumsum(ratios)
            k = int(np.searchsorted(cumulative, fraction - 1e-12)) + 1  # the fewest components reaching it
            return min(k, most), "variance"
        if self.n_components is not None:
            return int(self.n_components), "n_components"
        return most, "all"

    def transform(self, X):
        """Coordinates of the rows of X on the components: (X - mean) U, shape (n, K) (a DataFrame after
        `set_output(transform="pandas")`)."""
        self._check_fitted()
        M = numeric(self, X)
        return self._wrap_output(_project(M, self.mean_, self.components_, self.explained_variance_), X)

    def get_feature_names_out(self, input_features=None):
        """The names of the output columns, "pca0" .. "pca{K-1}" (scikit-learn's: the class name and the
        component's number). `input_features`, if given, must be the fitted columns' names."""
        self._check_fitted()
        if input_features is not None and list(input_features) != list(self.feature_names_in_):
            raise DataError(f"input_features must be the columns PCA was fitted on, "
                            f"{list(self.feature_names_in_)}; got {list(input_features)}.")
        return np.array([f"pca{i}" for i in range(self.n_components_)], dtype=object)

    def inverse_transform(self, Z):
        """Back from component coordinates to the (encoded) feature space: Z U^T + mean, shape (n, d)."""
        self._check_fitted()
        Z = np.asarray(Z, dtype=float)
        if Z.ndim != 2 or Z.shape[1] != self.n_components_:
            raise DataError(f"inverse_transform needs an array of shape (n, {self.n_components_}); "
                            f"got {Z.shape}.")
        return Z @ self.components_ + self.mean_  # (n, d)

    def score(self, X, y=None):
        """Fraction of the variance of X kept by the projection: 1 - reconstruction error / total."""
        self._check_fitted()
        M = numeric(self, X)
        centred = M - self.mean_  # (n, d)
        centred = centred / unit_scale(centred)  # a ratio of sums of squares: scaled so none underflows
        residual = centred - (centred @ self.components_.T) @ self.components_
        total = float(np.sum(centred ** 2))
        return 1.0 - float(np.sum(residual ** 2)) / total if total > 0 else 1.0


def _project(M, mean, components, variances):
    """(M - mean) U^T, (n, K), taken as M U^T - mean U^T: no centred (n, d) copy of M, the time of one
    product less. The shift mean U^T is subtracted after the product, which loses about log10 of its size
    over the components' spread in digits: where that would be more than three, M is centred first."""
    offset = mean @ components.T  # (K,)
    spread = np.sqrt(np.max(variances, initial=0.0))
    if not np.all(np.abs(offset) <= 1e3 * spread):
        return (M - mean) @ components.T
    Z = M @ components.T  # (n, K)
    Z -= offset
    return Z


def _eigen(M, mean, trace, scale=1.0):
    """Eigenvalues (descending, >= 0) of the scatter matrix (X - mu)^T (X - mu) and the unit
    eigenvectors as rows, for X = M (the traced covariance is that of M * scale)."""
    n, d = M.shape
    if n >= d:
        scatter = _scatter(M, mean)  # (d, d) line 2 (the covariance times n - 1)
        if trace is not None:
            trace.append({"step": "covariance",
                          "matrix": (scatter * scale ** 2 / (n - 1)).tolist() if d <= 50 else None})
        values, vectors = np.linalg.eigh(scatter)  # ascending
        values, vectors = values[::-1], vectors[:, ::-1].T  # (d,), (d, d) largest first
    else:
        if trace is not None:
            trace.append({"step": "covariance", "matrix": None})
        _, s, vectors = np.linalg.svd(M - mean, full_matrices=False)  # (n,), (n, d)
        values = s ** 2
    return np.maximum(values, 0.0), vectors  # rounding can leave tiny negative eigenvalues


def _scatter(M, mean):
    """(X - mu)^T (X - mu) as X^T X - n mu mu^T, which needs no centred copy of X; when the mean is so
    large against the spread that this would lose more than about six digits, centre first.
    (`gram(M)` is M^T M, taken the fastest way the runtime's numpy has.)"""
    n = len(M)
    scatter = gram(M)  # (d, d)
    scatter -= n * np.outer(mean, mean)
    if n * float(mean @ mean) > 1e6 * max(float(np.trace(scatter)), np.finfo(float).tiny):
        scatter = gram(M - mean)  # the centred copy (n, d)
    return scatter


def _flip_signs(components):
    """Make the entry of largest absolute value of each component positive (as sklearn's svd_flip)."""
    biggest = np.argmax(np.abs(components), axis=1)  # (K,)
    signs = np.sign(components[np.arange(len(components)), biggest])
    signs[signs == 0] = 1.0
    return components * signs[:, None]
