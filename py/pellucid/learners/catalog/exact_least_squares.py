"""scikit-learn's LinearRegression held to exact least squares in every version, for linear regression's
twin: "Compare with scikit-learn" calls `exact_least_squares` on the estimator, and the scikit-learn
script carries its source (it needs numpy alone) and calls it in `make_model`.

From version 1.9 scikit-learn's LinearRegression passes its `tol` (default 1e-6) to scipy's lstsq as the
cut below which a singular value counts as zero. On nearly collinear columns, such as a spectrum's 100
absorbance bands, that drops real directions of the data and fits another model than least squares, so
its cross-validated R² parts from pellucid's. Before 1.9 the cut was max(rows, columns) times the machine
epsilon, numpy's lstsq default, which pellucid's own solve uses when it needs the SVD.
"""

import numpy as np


def exact_least_squares(model, n_train, n_features):
    """A LinearRegression `model` that cuts singular values where scikit-learn did before 1.9: below
    max(n_train, n_features) x machine epsilon times the largest (a version without `tol` already does)."""
    if "tol" in model.get_params():
        model.set_params(tol=max(n_train, n_features) * np.finfo(float).eps)
    return model


class Written:
    """The call of `exact_least_squares` as the script writes it (`source`), for the twin's source."""

    def __init__(self, source):
        self.source = source


def exact_twin(model, n_train, n_features):
    """`exact_least_squares` of a real estimator, or, for a recorded one (it has `source`: the script is
    being written), the call the script makes."""
    if hasattr(model, "source"):
        rows = getattr(n_train, "source", repr(n_train))
        return Written(f"{exact_least_squares.__name__}({model.source}, {rows}, {int(n_features)!r})")
    return exact_least_squares(model, n_train, n_features)
