"""The linear models: linear and logistic regression and the perceptron, and their scikit-learn twins."""

import numpy as np

from ...core.descriptor import Learner, SklearnTwin, Task
from .exact_least_squares import exact_twin
from ..linear.linear_regression import LinearRegression
from ..logistic.logistic import LogisticRegression
from ..linear.perceptron import Perceptron


def _linear(sk, p, ctx):
    if p["l2"] == 0:  # least squares, not scikit-learn 1.9's cut at 1e-6 of the largest singular value
        return exact_twin(sk.linear_model.LinearRegression(), ctx["n_train"], ctx["n_features"])
    return sk.linear_model.Ridge(alpha=ctx["n_train"] * p["l2"])  # J = 1/(2n)|r|^2 + l2/2 |w|^2


def _linear_notes(p):
    notes = ["The same least-squares objective: l2 = 0 is LinearRegression, l2 > 0 is Ridge(alpha = n · l2) "
             "(n training rows); neither penalises the bias."]
    if p["l2"] == 0:
        notes.append("LinearRegression keeps every direction of the data whose singular value is above "
                     "max(rows, columns) × machine epsilon of the largest, as before scikit-learn 1.9 "
                     "(exact_least_squares); 1.9's default cut, 1e-6, fits another model on nearly collinear "
                     "columns.")
    if p["solver"] == "gd":
        notes.append("pellucid runs gradient descent, which may stop before the exact minimum; scikit-learn "
                     "solves it exactly.")
    return notes


def _logistic(sk, p, ctx):
    C = p["C"] if p.get("C") is not None else np.inf if p["l2"] == 0 else 1.0 / (ctx["n_train"] * p["l2"])
    return sk.linear_model.LogisticRegression(C=C, tol=1e-8, max_iter=1000, class_weight=p["class_weight"])


def _logistic_notes(p):
    return ["The same objective: mean log-loss + (l2/2)|w|^2 is scikit-learn's C = 1/(n · l2) (n training "
            "rows; l2 = 0 is C = ∞); sigmoid for two classes, softmax for more; biases not penalised. "
            "pellucid uses Newton's method (or gradient ascent), scikit-learn L-BFGS.",
            "With l2 = 0 and separable classes the weights grow without bound and the two stop at "
            "different places."]


def _perceptron(sk, p, ctx):
    return sk.linear_model.SGDClassifier(loss="perceptron", penalty=None, learning_rate="constant", eta0=1.0,
                                         max_iter=p["max_iter"], tol=p.get("tol"),
                                         n_iter_no_change=p.get("n_iter_no_change", 5), shuffle=bool(p["shuffle"]),
                                         random_state=p["random_state"], average=bool(p["averaged"]),
                                         class_weight=p["class_weight"])


def _perceptron_notes(p):
    multiclass = ("For three or more classes both train one binary perceptron per class against the rest "
                  "(one-vs-rest)." if p.get("multiclass", "ovr") == "ovr" else
                  "For three or more classes scikit-learn trains one binary perceptron per class (one-vs-rest); "
                  "multiclass='joint' keeps one weight vector per class and updates two of them on a mistake.")
    stopping = ("scikit-learn runs all max_iter passes; pellucid stops after a pass with no mistake."
                if p.get("tol") is None else
                "Both stop when the mean loss per row has not improved by tol for n_iter_no_change passes "
                "(pellucid also after a pass with no mistake); in one-vs-rest scikit-learn stops each class on "
                "its own loss, pellucid all classes on their summed loss.")
    notes = ["Both add the misclassified example to the weights (step 1, bias included, no penalty). " + multiclass,
             stopping + " Their shuffled orders differ (different random generators)."]
    if p.get("initial_weights") is not None:
        notes.append("initial_weights are not passed on: scikit-learn starts from zero.")
    if p.get("class_weight") is not None:
        notes.append("Both scale the update after a mistake by the class weight of the example's class; in "
                     "one-vs-rest, class c's weight scales its own examples in class c's perceptron and the other "
                     "classes' examples weigh 1" + (" in both." if p.get("multiclass", "ovr") == "ovr" else
                                                   " (scikit-learn; multiclass='joint' scales the whole update)."))
    return notes


LEARNERS = (
    Learner(LinearRegression, "Linear regression", "Linear models", Task.REGRESSION,
            {"boundary", "regression_fit", "steps", "exercises", "explain"}, steps="descent",
            exercise="linear_prediction", explain="scores", summary="weights",
            sklearn=SklearnTwin(_linear, _linear_notes)),
    Learner(LogisticRegression, "Logistic regression", "Linear models", Task.CLASSIFICATION,
            {"probabilities", "boundary", "steps", "exercises", "explain"}, steps="descent",
            exercise="logistic_probability", explain="scores", summary="weights", scale_sensitive=True,
            sklearn=SklearnTwin(_logistic, _logistic_notes)),
    Learner(Perceptron, "Perceptron", "Linear models", Task.CLASSIFICATION,
            {"boundary", "steps", "exercises", "explain"}, steps="perceptron", exercise="perceptron_update",
            explain="scores", summary="weights", scale_sensitive=True,
            sklearn=SklearnTwin(_perceptron, _perceptron_notes)),
)
