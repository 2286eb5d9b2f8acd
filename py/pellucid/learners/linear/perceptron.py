"""The perceptron: a linear classifier trained by mistake-driven updates (binary and multiclass)."""

import warnings

import numpy as np

from ...core.base import ClassifierMixin, Estimator
from ...core.errors import ConvergenceWarning, DataError
from ...core.file_fields import Array, Bool, Curve, Custom, Int, Labels, Optional, Texts, damaged, require_array
from ...core.validation import check_target
from ...tabular.features import NUMERIC_STATE, fit_classes, fit_numeric, numeric, with_bias
from ..shared.class_weights import CLASS_WEIGHT_RULE, check_saved_weights, class_weights
from ..shared.partial_fit import check_same_classes, class_codes, first_classes
from ...core.sample_weight import weights_or_ones
from . import perceptron_fast
from .perceptron_pass import Rows, Run, StoppingRule
from ...core.params import Choice, Flag, Integer, Number, Vector


def _stored_weights(value, path, dims):
    """A model file's weights_: bias first, over the encoded columns; one vector for two classes (one
    score), one row per class for more."""
    n_scores, width = dims.sizes["n_scores"], dims.sizes["n_encoded"] + 1
    return require_array(value, path, "f", (width,) if n_scores == 1 else (n_scores, width))


class Perceptron(ClassifierMixin, Estimator):
    """The perceptron of notes 000 ("Binary Perceptron", "Bias", "Multiclass Perceptron"); notes 004's
    0-1 and perceptron losses describe what it drives down.

    Every example gets the bias feature 1 placed FIRST: f(x) = [1, x1, .., xd] (categorical columns
    one-hot encoded; numeric ones standardised if `standardize=True`), so weights are [w0 (bias), w1, ..].

    Binary (two classes of any labels): the SECOND of the sorted classes (`classes_[1]`) is +1 and the
    first is -1. Classify +1 when w . f(x) >= 0 (the notes classify points on the boundary as positive),
    else -1; on a mistake w <- w + y* f(x).
    Three or more classes: one weight vector per class (rows in the order of `classes_`); predict
    argmax_y w_y . f(x) (the first class on a tie). How the rows learn is `multiclass`:
      "ovr" (default, scikit-learn's one-vs-rest): row c is the binary perceptron of "class c" (+1)
      against the rest (-1), trained as above on every example at once with the others: each class whose
      w_c . f(x) >= 0 disagrees with y*_c is updated, w_c <- w_c + y*_c f(x).
      "joint" (notes 000's "Multiclass Perceptron"): on a mistake (argmax not the true class) add f(x) to
      the true class's row and subtract it from the predicted class's row.

    Training visits the examples in order (or in a fresh random order each epoch when `shuffle=True`,
    from `np.random.default_rng(random_state)`), starting from `initial_weights` (default all zeros; binary: d+1
    numbers, multiclass: K*(d+1) numbers, row by row). It stops after an epoch with no update (then
    `converged_ = True`) or after `max_iter` epochs (`converged_ = False`, with a ConvergenceWarning).
    `tol` (default None: off) adds scikit-learn's stopping rule: after each epoch the mean perceptron loss
    per row (notes 004: max(0, -y* w . f(x)) at each visit, before its update, summed over the classes in
    one-vs-rest; max_y w_y . f - w_y* . f in joint; not scaled by the weights) is compared with the best
    so far, and training stops (`converged_ = True`) after `n_iter_no_change` epochs in a row above
    best - tol. scikit-learn applies the rule to each one-vs-rest class on its own.
    `averaged=True` predicts with the average of the weights after every visit (averaged perceptron).
    `class_weight="balanced"` scales the update after a mistake on an example of class c by
    s_c = n / (K n_c), as scikit-learn's Perceptron does, so mistakes on a rare class move the weights more;
    a dict {label: s_c} sets s_c for the classes it names (the others 1). One-vs-rest applies s_c in class
    c's own perceptron to the rows of class c, and 1 to the rest, as scikit-learn does (each binary problem
    weighs its positive class); the joint multiclass perceptron scales its whole update by the example's
    s_c. `fit(..., sample_weight=v)` scales
    the update after a mistake on row i by v_i as well (scikit-learn's meaning: a step, not repeated rows);
    a row of weight 0 is left out of training, as if it were not there.
    `partial_fit(X, y, classes=None, sample_weight=None)` makes one pass over a chunk from the weights so
    far (the classes named on the first call; class_weight as a dict, since "balanced" needs all the rows).

    Fitted attributes: `classes_`, `class_weights_` (s_c per class, or None), `weights_` (binary (d+1,),
    multiclass (K, d+1), bias first; the
    averaged weights when `averaged=True`), `coef_`/`intercept_` (scikit-learn layout: (1, d)/(1,) or
    (K, d)/(K,)), `n_iter_` (epochs run), `mistakes_` (updates made in each epoch), `converged_`,
    `warnings_`.

    Trace (`trace=True`): one row per example visit,
      {"epoch", "step" (visit number, from 1), "index" (row of X), "x": [1, f1, ..], "y": label,
       "weights": weights before, "score": w . f (binary) or [w_y . f for each class], "predicted": label,
       "correct": bool (no update), "update": what was added (binary: y* f or zeros; multiclass: one row
       per class), "weights_after"}; with class weights also "class_weight": s_c of the example's class,
       and with sample weights "sample_weight": the row's weight (the update is scaled by both).
    Binary rows also carry "target": y* as +1/-1, one-vs-rest rows "targets": y*_c per class. After
    10,000 rows recording stops and a last row {"omitted": number of visits not recorded} says so.
    """

    _param_rules = {
        "max_iter": Integer(1, None, label="max epochs", help="Most passes (epochs) through the training data"),
        "tol": Number(0, None, none_ok=True, label="stopping tolerance",
                      help="Stop when the mean loss per row has not fallen below the best so far minus tol "
                           "for n_iter_no_change passes (None: run until a pass without mistakes)"),
        "n_iter_no_change": Integer(1, None, label="passes without improvement",
                                    help="Passes without improvement before stopping (with tol)"),
        "shuffle": Flag(help="Visit the examples in a new random order each pass"),
        "initial_weights": Vector(none_ok=True, help="Starting weights, bias first (None: all zeros)"),
        "averaged": Flag(help="Predict with the average of the weights over all steps"),
        "random_state": Integer(0, None, none_ok=True, label="seed",
                                help="Random seed for the shuffled order (None: a fresh one each fit)"),
        "standardize": Flag(help="Scale numeric features to mean 0, sd 1 before training"),
        "class_weight": CLASS_WEIGHT_RULE,
        "multiclass": Choice("ovr", "joint", help="Three or more classes: one binary perceptron per class "
                                                  "against the rest (ovr, as scikit-learn), or one weight "
                                                  "vector per class updated together (joint, the notes')"),
        "trace": Flag(help="Record every step: weights, score, prediction and update"),
    }
    # What a model file holds (core.file_fields): the classes, one row of weights per class (one row for
    # two classes) over the encoded columns, and what the fit recorded.
    _state_fields = {**NUMERIC_STATE, "classes_": Labels(),
                     "class_weights_": Optional(Array("f", ("n_classes",), low=0)),
                     "coef_": Array("f", ("n_scores", "n_encoded")), "intercept_": Array("f", ("n_scores",)),
                     "weights_": Custom(_stored_weights),
                     "mistakes_": Curve(),
                     "n_iter_": Int(0), "converged_": Bool(), "warnings_": Texts()}

    _renamed_params = {"max_epochs": "max_iter", "seed": "random_state"}  # before scikit-learn's names

    def __init__(self, max_iter=100, tol=None, n_iter_no_change=5, shuffle=False, initial_weights=None,
                 averaged=False, random_state=0, standardize=False, class_weight=None, multiclass="ovr",
                 trace=False):
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.initial_weights = initial_weights
        self.averaged = averaged
        self.random_state = random_state
        self.standardize = standardize
        self.class_weight = class_weight
        self.multiclass = multiclass
        self.trace = trace

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Run perceptron passes over the data until one makes no mistake; returns self."""
        self._check_params()
        X, y_index = fit_classes(self, X, y, feature_names, add_bias=False)  # (n, d) the encoded rows
        self.class_weights_ = class_weights(self.class_weight, y_index, self.classes_)
        rows = self._steps(y_index, sample_weight)
        run = self._start_run(X.shape[1] + 1)
        # The passes' feature vectors f(x) = [1, x] in visiting order, one buffer for every pass: the
        # rows' only (n, d + 1) copy (fit kept [1, x] and made each pass's order of it as well)
        ordered = None if self.trace else np.empty((len(rows.kept), X.shape[1] + 1))
        rng = np.random.default_rng(self.random_state)
        self.mistakes_, self.converged_ = [], False
        stopping = StoppingRule(self.tol, self.n_iter_no_change)
        for epoch in range(1, self.max_iter + 1):
            mistakes, loss = self._pass(run, X, y_index, rows, rng, epoch, ordered)
            if mistakes == 0 or stopping.says_stop(loss):
                self.converged_ = True
                break
        self._finish(run, rng)
        self._report_convergence()
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One pass over a chunk of rows, from the weights so far (scikit-learn's partial_fit): `classes`
        (every label there will be) on the first call. A first call reads the columns (and, with
        standardize=True, their means and scales) from its chunk."""
        self._check_params()
        if self.class_weight == "balanced":
            raise DataError("class_weight='balanced' counts the classes over all the rows, which partial_fit "
                            "never sees together; give the weights as a dict, or use fit.",
                            field="params.class_weight")
        if "classes_" not in vars(self):
            classes = first_classes(classes)
            X, y = fit_numeric(self, X, y, task="classification", standardize=self.standardize)
            self.classes_, self.mistakes_ = classes, []
            run, rng = self._start_run(X.shape[1] + 1), np.random.default_rng(self.random_state)
        else:
            check_same_classes(classes, self.classes_)
            X = numeric(self, X)
            y = check_target(y, len(X), task="classification")
            run, rng = self._continued_run()
        y_index = class_codes(self.classes_, y)
        self.class_weights_ = class_weights(self.class_weight, y_index, self.classes_)
        rows = self._steps(y_index, sample_weight)
        self.converged_ = self._pass(run, X, y_index, rows, rng, len(self.mistakes_) + 1)[0] == 0
        self._finish(run, rng)
        self.warnings_ = []
        return self

    def _steps(self, y_index, sample_weight):
        """The rows' update scales (each its class weight times its sample weight) and the rows that take
        part: a row of weight 0 is left out, as if it were not there.

        One-vs-rest scales per class as scikit-learn does: in class c's perceptron the rows of class c
        step by s_c and the rest by 1 (each binary problem weighs its positive class), so the scales are
        (n, K) there."""
        weights = weights_or_ones(sample_weight, len(y_index))  # (n,)
        if not (weights > 0).any():
            raise DataError("sample_weight is zero for every row: there is nothing to learn from.")
        by_class = None if self.class_weights_ is None else self.class_weights_[y_index]  # (n,)
        if by_class is None:
            steps = weights
        elif self._mode() == "ovr":
            own = y_index[:, None] == np.arange(len(self.classes_))  # (n, K) the row's own class
            steps = weights[:, None] * np.where(own, self.class_weights_, 1.0)  # (n, K)
        else:
            steps = weights * by_class
        # what the trace records of each row's scale: s_c and the row's weight, when they are given
        recorded = {"class_weight": by_class, "sample_weight": None if sample_weight is None else weights}
        kept = np.flatnonzero(weights > 0 if steps.ndim == 2 else steps > 0)
        return Rows(steps, kept, {k: v for k, v in recorded.items() if v is not None})

    def _start_run(self, n_cols):
        return Run(self._initial_weights(n_cols), self._mode(), self.averaged, self.trace)

    def _mode(self):
        return "binary" if len(self.classes_) == 2 else self.multiclass

    def _continued_run(self):
        """The training state a later partial_fit continues from: kept since the last call, or, for a
        model read from a file, its weights (a file keeps the averaged weights only, so not when averaged)."""
        if "_run" in vars(self):
            return self._run, self._rng
        if self.averaged:
            raise DataError("This averaged perceptron was read from a model file, which keeps its averaged "
                            "weights but not the running sum that continues them; fit it again.",
                            field="params.averaged")
        w = np.array(self.weights_, dtype=float)
        self.mistakes_ = [int(m) for m in self.mistakes_]  # a file holds them as an array
        return Run(w, self._mode(), False, self.trace), np.random.default_rng(self.random_state)

    def _pass(self, run, X, y_index, rows, rng, epoch, ordered=None):
        """One pass over the encoded rows X (n, d) that take part (in a fresh random order when
        shuffle=True), their feature vectors [1, x] written into `ordered` (made when None); returns its
        mistakes and its mean perceptron loss per row."""
        binary = len(self.classes_) == 2
        targets = np.where(y_index == 1, 1, -1) if binary else y_index  # (n,) y* as +-1 or class number
        run.recorded = rows.recorded
        order = rows.kept[rng.permutation(len(rows.kept))] if self.shuffle else rows.kept
        if self.trace:
            mistakes, loss = run.epoch(with_bias(X), targets, rows.steps, order, epoch, self.classes_)
        else:
            F = bias_rows_in_order(X, order, ordered)  # with_bias(X)[order]
            mistakes, loss = perceptron_fast.epoch(run, F, targets[order], rows.steps[order])
        self.mistakes_.append(mistakes)
        return mistakes, loss / len(order)

    def _finish(self, run, rng):
        """Set the fitted weights from the run, and keep the run for a later partial_fit."""
        self.n_iter_ = len(self.mistakes_)
        self.weights_ = run.averaged_weights() if self.averaged else run.w.copy()
        W = self.weights_.reshape(-1, run.w.shape[-1])  # (1 or K, d + 1)
        self.intercept_, self.coef_ = W[:, 0].copy(), W[:, 1:].copy()
        if self.trace:
            self.trace_ = run.rows + ([{"omitted": run.omitted}] if run.omitted else [])
        self._run, self._rng = run, rng

    def _initial_weights(self, n_cols):
        k = 1 if len(self.classes_) == 2 else len(self.classes_)
        if self.initial_weights is None:
            return np.zeros(n_cols) if k == 1 else np.zeros((k, n_cols))
        w = np.array(self.initial_weights, dtype=float).ravel()
        if len(w) != k * n_cols:
            layout = (f"{n_cols} (the bias, then one per encoded feature: {', '.join(self.feature_names_out_)})"
                      if k == 1 else f"{k} classes x {n_cols} = {k * n_cols} (one row of bias and "
                      f"{n_cols - 1} feature weights per class, row by row)")
            raise DataError(f"initial_weights has {len(w)} numbers, but this perceptron needs {layout}.")
        return w if k == 1 else w.reshape(k, n_cols)

    def _report_convergence(self):
        self.warnings_ = []
        if not self.converged_:
            message = (f"The perceptron still made {self.mistakes_[-1]} mistakes in its last pass "
                       f"(epoch {self.n_iter_} of max_iter={self.max_iter}); the data may not be "
                       "linearly separable. Raise max_iter, or try averaged=True.")
            self.warnings_.append(message)
            warnings.warn(message, ConvergenceWarning, stacklevel=3)

    def _check_state(self):
        if len(self.coef_) != (1 if len(self.classes_) == 2 else len(self.classes_)):
            raise damaged("state.coef_", f"must have one row of weights per class (one for two classes); got "
                                         f"{len(self.coef_)} rows for {len(self.classes_)} classes")
        check_saved_weights(self.class_weight, self.classes_, self.class_weights_)

    def decision_function(self, X):
        """w . f(x): (n,) for two classes (>= 0 means classes_[1]), (n, K) for more."""
        X = numeric(self, X)  # (n, d)
        scores = X @ self.coef_.T + self.intercept_  # (n, 1 or K)
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict(self, X):
        """classes_[1] where w . f(x) >= 0, else classes_[0]; argmax over classes for more than two."""
        scores = self.decision_function(X)
        index = (scores >= 0).astype(int) if len(self.classes_) == 2 else np.argmax(scores, axis=1)
        return self.classes_[index]


def bias_rows_in_order(X, order, out=None):
    """with_bias(X)[order], (m, d + 1), written into `out` (made when None) a block of rows at a time, so
    no (n, d) gathered copy of X is made on the way (the blocks are about 256 KB)."""
    m, d = len(order), X.shape[1]
    out = np.empty((m, d + 1)) if out is None else out
    out[:, 0] = 1.0
    block = max(1, 32_768 // max(d, 1))
    for start in range(0, m, block):
        out[start:start + block, 1:] = X[order[start:start + block]]  # fancy indexing: Pyodide's fastest gather
    return out
