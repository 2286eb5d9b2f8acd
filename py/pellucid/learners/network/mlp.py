"""Multi-layer perceptrons: MLPClassifier and MLPRegressor, trained by stochastic gradient descent or Adam
with scikit-learn's parameters, meanings and fitted attributes."""

import warnings

import numpy as np

from ...core.base import ClassifierMixin, Estimator, RegressorMixin
from ...core.errors import ConvergenceWarning, DataError
from ...core.params import Choice, Flag, Integer, Number
from ...core.sample_weight import check_sample_weight
from ...core.targets import check_classes, check_target
from ...tabular.features import fit_numeric, numeric
from ..shared.partial_fit import check_same_classes, class_codes, first_classes
from . import forward_backward, forward_backward_fast
from .flat import layout, views
from .activations import HIDDEN, activate_in_place
from .epochs import batch_size_for, run_epochs, validation_size, validation_split
from .layer_sizes import LayerSizes, hidden_sizes
from .model_file import CLASSIFIER_STATE, REGRESSOR_STATE, check_network
from .solvers import SGD, Adam
from .trace import Recorder

class _MLP(Estimator):
    """What the classifier and the regressor share: the parameters, the weights' start, the training."""

    _param_rules = {
        "hidden_layer_sizes": LayerSizes(label="hidden layers",
                                         help="Units in each hidden layer, 1 to 3 layers (e.g. 32 or 32, 16)"),
        "activation": Choice(*HIDDEN, help="The hidden units' function g: relu max(0, z), tanh, logistic "
                                           "1/(1+e^-z) (the notes' sigma) or identity"),
        "solver": Choice("adam", "sgd", help="adam: Adam's adaptive steps; sgd: gradient descent on mini-batches "
                                             "(with momentum)"),
        "alpha": Number(0, None, help="L2 penalty: alpha/(2n) times the sum of the squared weights"),
        "batch_size": Integer(1, None, also=("auto",), help="Rows per step (auto: min(200, n); n: full batch)"),
        "learning_rate": Choice("constant", "invscaling", "adaptive",
                                help="sgd's schedule: constant, eta_0/(t+1)^power_t, or divided by 5 when "
                                     "the loss stalls"),
        "learning_rate_init": Number(0, None, low_open=True, label="step size", help="The step size eta_0"),
        "power_t": Number(0, None, help="The exponent of sgd's invscaling schedule"),
        "max_iter": Integer(1, None, label="max epochs", help="Most passes (epochs) over the training rows"),
        "shuffle": Flag(help="Visit the rows in a new random order each epoch"),
        "random_state": Integer(0, None, none_ok=True, label="seed",
                                help="Seed of the starting weights, the order and the held-out rows"),
        "tol": Number(0, None, help="An epoch improves when the loss falls (the score rises) by more than this"),
        "warm_start": Flag(help="A new fit starts from the weights of the last one"),
        "momentum": Number(0, 1, help="sgd's momentum (0: plain gradient descent)"),
        "nesterovs_momentum": Flag(help="sgd: Nesterov's momentum"),
        "early_stopping": Flag(help="Hold out validation_fraction of the rows and stop when their score "
                                    "stops improving"),
        "validation_fraction": Number(0, 1, high_open=True, help="Rows held out for early stopping"),
        "beta_1": Number(0, 1, high_open=True, help="adam: decay of the gradient's running mean"),
        "beta_2": Number(0, 1, high_open=True, help="adam: decay of the squared gradient's running mean"),
        "epsilon": Number(0, None, low_open=True, help="adam: added to the root of v for stability"),
        "n_iter_no_change": Integer(1, None, help="Stop after this many epochs without improvement"),
        "trace": Flag(help="Record one row's forward pass, deltas, gradients and updates at each step"),
    }

    def __init__(self, hidden_layer_sizes=(100,), activation="relu", solver="adam", alpha=0.0001,
                 batch_size="auto", learning_rate="constant", learning_rate_init=0.001, power_t=0.5,
                 max_iter=200, shuffle=True, random_state=0, tol=1e-4, warm_start=False, momentum=0.9,
                 nesterovs_momentum=True, early_stopping=False, validation_fraction=0.1, beta_1=0.9,
                 beta_2=0.999, epsilon=1e-8, n_iter_no_change=10, trace=False):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.solver = solver
        self.alpha = alpha
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.learning_rate_init = learning_rate_init
        self.power_t = power_t
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.tol = tol
        self.warm_start = warm_start
        self.momentum = momentum
        self.nesterovs_momentum = nesterovs_momentum
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.n_iter_no_change = n_iter_no_change
        self.trace = trace

    # --- training ----------------------------------------------------------------------------------

    def _fit(self, X, Y, sample_weight, incremental, first_pass, score):
        """Train on encoded rows X (n, d) and targets Y (n, outputs); sklearn's `_fit` for sgd and adam."""
        if self.early_stopping:
            validation_size(len(X), self.validation_fraction)  # refused before the network is touched
        rng = np.random.default_rng(self.random_state)
        layer_units = [X.shape[1]] + hidden_sizes(self.hidden_layer_sizes) + [Y.shape[1]]
        if first_pass:
            self._initialize(layer_units, rng)
        else:
            self._check_layers(layer_units)
        spans, _ = layout(layer_units)
        flat = np.concatenate([p.ravel() for p in self.coefs_ + self.intercepts_]).astype(float)
        self._set_views(flat, spans)
        solver = self._solver(flat, incremental)
        validation, traced = None, self._traced_row(len(X), None)
        if self.early_stopping:
            stratify = Y[:, 0] > 0.5 if self.task == "classification" and Y.shape[1] == 1 else None
            train, val = validation_split(rng, len(X), self.validation_fraction, stratify)
            w_val = None if sample_weight is None else sample_weight[val]
            validation = (X[val], Y[val], w_val, score)
            traced = self._traced_row(len(X), train)
            X, Y = X[train], Y[train]
            sample_weight = None if sample_weight is None else sample_weight[train]
        if self.batch_size != "auto" and self.batch_size > len(X):
            warnings.warn(f"batch_size={self.batch_size} is larger than the {len(X)} training rows; every "
                          "step uses all of them.", UserWarning, stacklevel=3)
        net, recorder = self._net(flat, spans, batch_size_for(self.batch_size, len(X)), traced)
        stop = run_epochs(self, net, solver, X, Y, sample_weight, rng, incremental, validation, recorder)
        self._set_views(flat.copy(), spans)  # the fitted network no longer shares the solver's buffer
        self._report(stop, incremental)
        self.__dict__.pop("trace_", None)  # a trace describes the fit that made it, never a later one
        if recorder is not None:
            self.trace_ = recorder.steps + ([{"omitted": recorder.omitted}] if recorder.omitted else [])
        return self

    def _traced_row(self, n, train):
        """The row a trace follows, as an index into the rows trained on: `trace_row` (an index into the rows
        given to fit, set by the one who asks for the steps of that row) or else the first row trained on.
        A row early stopping holds out is never trained on, so it has no steps to record."""
        row = getattr(self, "trace_row", None)
        if row is None:
            return 0
        if not 0 <= row < n:
            raise DataError(f"trace_row={row} is not one of the {n} rows given to fit.", field="row")
        if train is None:
            return int(row)
        where = np.searchsorted(train, row)
        if where >= len(train) or train[where] != row:
            raise DataError(f"Row {row + 1} of those given to fit is one early stopping holds out to score each "
                            "epoch, so it is never trained on and has no steps; choose another row.", field="row")
        return int(where)

    def _check_incremental(self):
        """partial_fit sees one chunk at a time, so it has no rows to hold out (scikit-learn refuses too)."""
        self._check_params()
        if self.early_stopping:
            raise DataError("partial_fit does not support early_stopping=True; use fit.",
                            field="params.early_stopping")

    def _initialize(self, layer_units, rng):
        """Glorot's uniform start, as scikit-learn's: W and b of each layer drawn from U(-r, r) with
        r = sqrt(6 / (fan_in + fan_out)), or sqrt(2 / (fan_in + fan_out)) for logistic units (numpy's
        generator, so the draws differ from scikit-learn's)."""
        self.n_iter_, self.t_, self.loss_ = 0, 0, None
        self.n_layers_, self.n_outputs_ = len(layer_units), layer_units[-1]
        self.coefs_, self.intercepts_ = [], []
        factor = 2.0 if self.activation == "logistic" else 6.0
        for fan_in, fan_out in zip(layer_units[:-1], layer_units[1:]):
            bound = np.sqrt(factor / (fan_in + fan_out))
            self.coefs_.append(rng.uniform(-bound, bound, (fan_in, fan_out)))
            self.intercepts_.append(rng.uniform(-bound, bound, fan_out))
        self._best_params = None
        self.loss_curve_, self._no_improvement_count = [], 0
        if self.early_stopping:
            self.validation_scores_, self.best_validation_score_, self.best_loss_ = [], -np.inf, None
        else:
            self.validation_scores_, self.best_validation_score_, self.best_loss_ = None, None, np.inf
        self.warnings_, self.converged_ = [], False
        self.__dict__.pop("_optimizer", None)

    def _check_layers(self, layer_units):
        """A warm start or a later partial_fit continues the same network: the same layers' sizes."""
        have = [self.coefs_[0].shape[0]] + [W.shape[1] for W in self.coefs_]
        if have != layer_units:
            raise DataError(f"The network has layers of {have} units, and this call would need {layer_units}: "
                            "warm_start and partial_fit continue the same network (same columns, "
                            "hidden_layer_sizes and outputs).", field="params.hidden_layer_sizes")
        self.n_layers_ = len(layer_units)
        for name in ("loss_curve_",):
            setattr(self, name, list(getattr(self, name)))
        if self.early_stopping and self.validation_scores_ is None:
            self.validation_scores_, self.best_validation_score_ = [], -np.inf
        elif not self.early_stopping and self.best_loss_ is None:
            self.best_loss_ = np.inf
        self._no_improvement_count = getattr(self, "_no_improvement_count", 0)

    def _set_views(self, flat, spans):
        parts = views(flat, spans)
        L = len(parts) // 2
        self.coefs_, self.intercepts_ = parts[:L], parts[L:]
        if getattr(self, "_best_params", None) is None or len(self._best_params[0]) != len(flat):
            self._best_params = [flat.copy()]

    def _solver(self, flat, incremental):
        """partial_fit continues the solver of the last call (its velocities or moments); fit starts anew."""
        kept = getattr(self, "_optimizer", None)
        if incremental and kept is not None and kept.kind == self.solver and len(kept.updates[0]) == len(flat):
            return kept
        if self.solver == "sgd":
            solver = SGD([flat], self.learning_rate_init, self.learning_rate, self.momentum,
                         self.nesterovs_momentum, self.power_t)
        else:
            solver = Adam([flat], self.learning_rate_init, self.beta_1, self.beta_2, self.epsilon)
        solver.kind = self.solver
        self._optimizer = solver
        return solver

    def _net(self, flat, spans, batch, traced=0):
        """The path a fit runs: the readable chain rule when traced, the fused buffers otherwise."""
        out, loss = self.out_activation_, self._loss_name
        if not self.trace:
            return forward_backward_fast.FastNet(flat, spans, self.activation, out, loss, self.alpha, batch), None
        net = forward_backward.ReadableNet(flat, spans, self.activation, out, loss, self.alpha)
        return net, Recorder(traced, len(flat), spans)

    def _report(self, stop, incremental):
        """converged_ and warnings_: a diverging loss, or max_iter reached (scikit-learn's
        ConvergenceWarning); the weights kept are the last finite ones."""
        self.warnings_ = []
        self.converged_ = stop.diverged_at is None and not stop.max_iter_reached
        if stop.diverged_at is not None:
            kept = f"after epoch {stop.diverged_at - 1}" if stop.diverged_at > 1 else "it started from"
            self.warnings_.append(
                f"Training diverged at epoch {stop.diverged_at}: with learning_rate_init={self.learning_rate_init} "
                "the loss grew past 10,000 times its start or stopped being a finite number (the steps overshoot "
                f"and grow). The network kept is the one {kept}; lower learning_rate_init "
                f"(e.g. to {self.learning_rate_init / 10:g}).")
        elif stop.max_iter_reached and not incremental:
            self.warnings_.append(f"The {self.solver} solver ran all max_iter={self.max_iter} epochs before the "
                                  f"loss stopped improving by more than tol={self.tol}; raise max_iter.")
        for message in self.warnings_:
            warnings.warn(message, ConvergenceWarning, stacklevel=4)

    # --- prediction --------------------------------------------------------------------------------

    def _output(self, X):
        """The output layer's activations for encoded rows X (n, d): (n, outputs)."""
        a = X
        for layer, (W, b) in enumerate(zip(self.coefs_, self.intercepts_)):
            z = a @ W  # (n, units) the layer's one new array: the bias and the activation go into it
            z += b
            a = activate_in_place(z, self.out_activation_ if layer == len(self.coefs_) - 1 else self.activation)
        return a

    def _check_state(self):
        check_network(self)


class MLPClassifier(ClassifierMixin, _MLP):
    """A multi-layer perceptron classifier, scikit-learn's MLPClassifier with the solvers "sgd" and "adam".

    The network is layers of the notes' logistic unit (notes 001): each layer computes z = a W + b and
    a = g(z) for the hidden activation g; the output layer is one logistic unit P(classes_[1] | x) for two
    classes and a softmax over the classes for more (notes 004), trained on the mean log-loss plus the L2
    penalty alpha/(2n) sum W^2 (biases free), whose gradient adds alpha/n W, by backpropagation
    (forward_backward.py). Notes 004's full-batch gradient descent is solver="sgd", batch_size=n,
    momentum=0 (and shuffle=False): every step w <- w - learning_rate_init * grad over all rows.

    Training (epochs.py) runs up to max_iter epochs of batches of batch_size rows ("auto": min(200, n)),
    in a new random order each epoch when shuffle=True, and stops once the loss has not fallen by more
    than tol for n_iter_no_change epochs in a row (with early_stopping, once the accuracy on
    validation_fraction of the rows held out has not risen by tol; the best network on them is kept).
    sgd's learning rate is constant, invscaling or adaptive (learning_rate); Adam takes beta_1, beta_2 and
    epsilon. warm_start=True makes fit start from the current weights (a new solver state, as
    scikit-learn); partial_fit(X, y, classes=...) runs one epoch from the weights and solver state so far.
    `sample_weight` multiplies each row's loss and delta, and n becomes the weights' total, as in
    scikit-learn 1.7+. random_state seeds the start (Glorot's uniform, numpy's generator), the order and
    the held-out rows.

    A learning rate so large that the loss grows past 10,000 times its start, or it or the weights stop
    being finite, stops training at that epoch:
    the network of the epoch before is kept, `converged_` is False and `warnings_` (also issued as a
    ConvergenceWarning) names the learning rate and the epoch.

    Fitted attributes (scikit-learn's): classes_, coefs_ (per layer (fan_in, fan_out)), intercepts_,
    loss_, loss_curve_, best_loss_, validation_scores_, best_validation_score_, n_iter_, t_ (rows seen),
    n_layers_, n_outputs_, out_activation_, n_features_in_; and converged_, warnings_.

    Trace (trace=True) runs the readable pass and records: the first training row's
    z, a and deltas per layer, and each step's gradients and updates, in `trace_` (fields in trace.py).
    """

    _state_fields = CLASSIFIER_STATE
    _loss_name = "log_loss"

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Train the network (from the current weights when warm_start); returns self."""
        self._check_params()
        first_pass = not self.warm_start or "coefs_" not in vars(self)
        if first_pass:
            X, y = fit_numeric(self, X, y, feature_names, task="classification")
            self.classes_ = check_classes(y)
            self.out_activation_ = "logistic" if len(self.classes_) == 2 else "softmax"
        else:
            X = numeric(self, X)
            y = check_target(y, len(X), task="classification")
            if not np.array_equal(np.unique(y), self.classes_):
                raise DataError(f"warm_start continues a network trained on the classes {self.classes_.tolist()}; "
                                f"this target has {np.unique(y).tolist()}.", field="target")
        weights = check_sample_weight(sample_weight, len(X))
        return self._fit(X, self._indicators(class_codes(self.classes_, y)), weights, False, first_pass,
                         self._validation_score)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch over these rows from the weights (and solver state) so far; `classes` (every label
        there will be) on the first call."""
        self._check_incremental()
        first_pass = "coefs_" not in vars(self)
        if first_pass:
            classes = first_classes(classes)
            X, y = fit_numeric(self, X, y, task="classification")
            self.classes_ = classes
            self.out_activation_ = "logistic" if len(classes) == 2 else "softmax"
        else:
            check_same_classes(classes, self.classes_)
            X = numeric(self, X)
            y = check_target(y, len(X), task="classification")
        weights = check_sample_weight(sample_weight, len(X))
        return self._fit(X, self._indicators(class_codes(self.classes_, y)), weights, True, first_pass,
                         self._validation_score)

    def _indicators(self, codes):
        """(n, 1) 0/1 for two classes (1: classes_[1]), (n, K) one-hot for more."""
        if len(self.classes_) == 2:
            return codes.astype(float).reshape(-1, 1)
        Y = np.zeros((len(codes), len(self.classes_)))
        Y[np.arange(len(codes)), codes] = 1.0
        return Y

    def _classes_of(self, P):
        if P.shape[1] == 1:
            return self.classes_[(P[:, 0] > 0.5).astype(int)]
        return self.classes_[np.argmax(P, axis=1)]

    def _validation_score(self, X, Y, sample_weight):
        P = self._output(X)
        if not np.all(np.isfinite(P)):
            return np.nan
        truth = (Y[:, 0] > 0.5).astype(int) if Y.shape[1] == 1 else np.argmax(Y, axis=1)
        right = (self.classes_[truth] == self._classes_of(P)).astype(float)  # (n,)
        return float(np.average(right, weights=sample_weight))

    def predict_proba(self, X):
        """(n, K) class probabilities, columns in the order of classes_."""
        P = self._output(numeric(self, X))
        return np.column_stack([1.0 - P[:, 0], P[:, 0]]) if P.shape[1] == 1 else P

    def predict_log_proba(self, X):
        """(n, K) natural logarithms of predict_proba."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The most probable class (two classes: classes_[1] when P > 0.5)."""
        return self._classes_of(self._output(numeric(self, X)))


class MLPRegressor(RegressorMixin, _MLP):
    """A multi-layer perceptron regressor, scikit-learn's MLPRegressor (loss "squared_error") with the
    solvers "sgd" and "adam": MLPClassifier's network and training with an identity output unit and half
    the mean squared error, (1/2n) sum (y - a_L)^2 + alpha/(2n) sum W^2, as the loss (so delta_L = a_L - y
    again). Early stopping scores the held-out rows by R^2. Notes 004's full-batch gradient descent for
    least squares is solver="sgd", batch_size=n, momentum=0, shuffle=False.

    Everything else (parameters, warm_start, partial_fit(X, y), sample_weight, a diverging learning rate,
    the fitted attributes without classes_, the trace) is as MLPClassifier's.
    """

    _state_fields = REGRESSOR_STATE
    _loss_name = "squared_error"

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Train the network (from the current weights when warm_start); returns self."""
        self._check_params()
        first_pass = not self.warm_start or "coefs_" not in vars(self)
        return self._regress(X, y, feature_names, sample_weight, False, first_pass)

    def partial_fit(self, X, y, sample_weight=None):
        """One epoch over these rows from the weights (and solver state) so far."""
        self._check_incremental()
        return self._regress(X, y, None, sample_weight, True, "coefs_" not in vars(self))

    def _regress(self, X, y, feature_names, sample_weight, incremental, first_pass):
        if first_pass:
            X, y = fit_numeric(self, X, y, feature_names, task="regression")
            self.out_activation_ = "identity"
        else:
            X = numeric(self, X)
            y = check_target(y, len(X), task="regression")
        weights = check_sample_weight(sample_weight, len(X))
        Y = np.asarray(y, dtype=float).reshape(-1, 1)
        return self._fit(X, Y, weights, incremental, first_pass, self._validation_score)

    def _validation_score(self, X, Y, sample_weight):
        P = self._output(X)
        if not np.all(np.isfinite(P)):
            return np.nan
        return _r2(Y[:, 0], P[:, 0], sample_weight)

    def predict(self, X):
        """The network's output for each row."""
        return self._output(numeric(self, X))[:, 0]


def _r2(y, p, weights):
    """The (weighted) coefficient of determination 1 - sum w (y - p)^2 / sum w (y - mean_w y)^2."""
    w = np.ones_like(y) if weights is None else weights
    spread = np.sum(w * (y - np.average(y, weights=w)) ** 2)
    residual = np.sum(w * (y - p) ** 2)
    if spread == 0:
        return 1.0 if residual == 0 else 0.0
    return float(1.0 - residual / spread)
