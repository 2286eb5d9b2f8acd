"""A learner's steps as frames to play back: the model refitted with trace=True on its training rows, and
each trace record turned into the numbers (and formulas) the notes show beside that step.

`timeline(run, row)` returns {family, model, label, frames: [...], ...}; every frame has "math": a list of
{tex, text}, the notes' formula with this step's numbers in LaTeX and in plain text. Families:
"tree" (workbench.tree_steps), "perceptron", "descent" (linear and logistic regression, kernel regression),
"epochs" (kernel perceptron), "kmeans", "agglomerative", "naive_bayes", "knn", "pca".
"""

import warnings as _warnings

import numpy as np

from ..core.errors import DataError
from ..core.validation import check_target
from . import tree_steps
from .runs import SUPERVISED

MAX_POINTS = 2000  # rows drawn under a perceptron or k-means timeline (sampled with a fixed seed beyond)
MAX_FRAMES = 2000  # perceptron visits / merges sent


def training_data(run):
    """(X Columns-like table, y or None, rows): the run's training rows as it was fitted on them."""
    if run.table is None:
        raise DataError("This model was imported without its data, so its steps cannot be replayed.")
    rows = run.train_rows()
    X = run.table.select(run.features).take(rows)
    y = None
    if run.task in SUPERVISED:
        y = check_target(run.table.column(run.target)[rows], len(rows), task=run.task)
    return X, y, rows


def refit_traced(run):
    """A copy of the run's estimator refitted with trace=True on the same training rows (same params)."""
    X, y, rows = training_data(run)
    params = {**run.estimator.get_params(), "trace": True}
    estimator = type(run.estimator)(**params)
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore")
        estimator.fit(X, y)
    return estimator, X, y, rows


def timeline(run, row=None):
    """The frames of the run's learner (see the module docstring); `row` (1-based table row) picks the
    row a k-NN timeline explains."""
    estimator, X, y, rows = refit_traced(run)
    name = type(estimator).__name__
    builder = _BUILDERS.get(name)
    if builder is None:
        raise DataError(f"{run.label} has no step-by-step view.")
    out = builder(estimator, X, y, rows, run, row)
    out.update(model=name, label=run.label, n_train=int(len(rows)), features=list(run.features),
               target=run.target, params={k: v for k, v in estimator.get_params().items() if k != "trace"})
    return out


def _f(x, d=3):
    return f"{x:.{d}f}"


def _vec(values, d=3):
    return "[" + ", ".join(_num(v, d) for v in values) + "]"


def _num(v, d=3):
    v = float(v)
    return str(int(v)) if v == int(v) and abs(v) < 1e12 else f"{v:.{d}f}"


# --- perceptron -----------------------------------------------------------------------------------------

def _perceptron(est, X, y, rows, run, row):
    trace = [r for r in est.trace_ if "omitted" not in r]
    omitted = sum(r.get("omitted", 0) for r in est.trace_)
    frames = [_perceptron_frame(r, len(est.classes_) == 2) for r in trace[:MAX_FRAMES]]
    first_epoch = {}
    for r in trace:
        first_epoch.setdefault(r["index"], r["x"][1:])
    d = len(trace[0]["x"]) - 1 if trace else 0
    points = None
    if d == 2:
        keep = _sample(len(first_epoch))
        idx = sorted(first_epoch)
        labels = np.searchsorted(est.classes_, np.asarray(y))
        points = {"x": [first_epoch[idx[i]][0] for i in keep], "y": [first_epoch[idx[i]][1] for i in keep],
                  "label": [int(labels[idx[i]]) for i in keep]}
    return {"family": "perceptron", "frames": frames, "classes": [_plain(c) for c in est.classes_],
            "binary": len(est.classes_) == 2, "points": points, "weight_names": ["bias"] + _encoded_names(est),
            "omitted": omitted + max(0, len(trace) - MAX_FRAMES)}


def _perceptron_frame(r, binary):
    f = r["x"]
    frame = {"kind": "visit", **r}
    if binary:
        products = " + ".join(f"{_num(w)} \\cdot {_num(x)}" for w, x in zip(r["weights"], f))
        text = " + ".join(f"{_num(w)}·{_num(x)}" for w, x in zip(r["weights"], f))
        math = [{"tex": rf"\mathbf{{w}} \cdot \mathbf{{f}}(\mathbf{{x}}) = {products} = {_num(r['score'])}",
                 "text": f"w · f(x) = {text} = {_num(r['score'])}"}]
        sign = "+" if r["target"] > 0 else "-"
        if r["correct"]:
            math.append({"tex": rf"y^* = {sign}1,\ \text{{correct: no update}}",
                         "text": f"y* = {sign}1, correct: no update"})
        else:
            math.append({"tex": rf"\mathbf{{w}} \leftarrow \mathbf{{w}} {sign} \mathbf{{f}}(\mathbf{{x}}) = "
                                rf"{_vec(r['weights'])} {sign} {_vec(f)} = {_vec(r['weights_after'])}",
                         "text": f"w ← w {sign.replace('-', '−')} f(x) = {_vec(r['weights'])} "
                                 f"{sign.replace('-', '−')} {_vec(f)} = "
                                 f"{_vec(r['weights_after'])}"})
    else:
        scores = ", ".join(_num(s) for s in r["score"])
        math = [{"tex": rf"W\mathbf{{f}}(\mathbf{{x}}) = [{scores}],\ \hat y = \arg\max = {r['predicted']}",
                 "text": f"W f(x) = [{scores}], predicted {r['predicted']}"}]
        if not r["correct"]:
            math.append({"tex": rf"\mathbf{{w}}_{{{r['y']}}} \mathrel{{+}}= \mathbf{{f}},\ "
                                rf"\mathbf{{w}}_{{{r['predicted']}}} \mathrel{{-}}= \mathbf{{f}}",
                         "text": f"w_{r['y']} += f(x), w_{r['predicted']} −= f(x)"})
    frame["math"] = math
    return frame


# --- gradient descent and other iterative fits -----------------------------------------------------------

def _descent(est, X, y, rows, run, row):
    trace = est.trace_
    normal = next((r["normal_equation"] for r in trace if "normal_equation" in r), None)
    iters = [r for r in trace if "iter" in r]
    name = type(est).__name__
    frames = []
    for r in iters:
        w = r["weights"]
        flat = w if not w or not isinstance(w[0], list) else None
        if name == "LinearRegression":
            tex = rf"J(\mathbf{{w}}_{{{r['iter']}}}) = \tfrac{{1}}{{2n}}\sum_i (y_i - \mathbf{{w}}^\top \mathbf{{x}}_i)^2 = {r['loss']:.5g}"
            text = f"J(w_{r['iter']}) = 1/(2n) Σ (y_i − wᵀx_i)² = {r['loss']:.5g}"
        else:
            tex = rf"-\tfrac{{1}}{{n}}\ell\ell(\mathbf{{w}}_{{{r['iter']}}}) = {r['loss']:.5g}"
            text = f"−(1/n) LL(w_{r['iter']}) = {r['loss']:.5g}"
        math = [{"tex": tex, "text": text}]
        if flat is not None:
            math.append({"tex": rf"\mathbf{{w}} = {_vec(flat, 4)}", "text": f"w = {_vec(flat, 4)}"})
        frames.append({"kind": "iteration", "iter": r["iter"], "loss": r["loss"], "weights": w, "math": math})
    if not frames and normal is not None:
        frames.append({"kind": "normal", "iter": 0, "loss": None, "weights": normal,
                       "math": [{"tex": r"\mathbf{w} = (X^\top X)^{-1} X^\top \mathbf{y} = " + _vec(normal, 4),
                                 "text": f"w = (XᵀX)⁻¹ Xᵀy = {_vec(normal, 4)}"}]})
    return {"family": "descent", "frames": frames, "normal_equation": normal,
            "weight_names": ["bias"] + _encoded_names(est), "solver": getattr(est, "solver_", est.get_params().get("solver")),
            "classes": [_plain(c) for c in getattr(est, "classes_", [])]}


def _kernel_regression(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        if r["step"] != "iteration":
            continue
        beta = r["beta"]
        frames.append({"kind": "iteration", "iter": r["iteration"], "loss": r["loss"], "weights": beta[:12],
                       "math": [{"tex": rf"\boldsymbol\beta \leftarrow \boldsymbol\beta + \alpha(\mathbf{{y}} - K\boldsymbol\beta),"
                                        rf"\quad J = {r['loss']:.5g}",
                                 "text": f"β ← β + α(y − Kβ), J = {r['loss']:.5g}"}]})
    return {"family": "descent", "frames": frames, "normal_equation": None,
            "weight_names": [f"β{i + 1}" for i in range(min(12, len(rows)))], "solver": "kernel gd",
            "kernel": est.trace_[0], "classes": []}


def _epochs(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        if r["step"] != "epoch":
            continue
        frames.append({"kind": "epoch", "iter": r["epoch"], "loss": r["loss"], "mistakes": r["mistakes"],
                       "weights": [], "updates": r["updates"][:20],
                       "math": [{"tex": rf"\text{{epoch }} {r['epoch']}:\ {r['mistakes']}\ \text{{mistakes}},\quad "
                                        rf"\sum_i \max(0, -y_i f(\mathbf{{x}}_i)) = {r['loss']:.4g}",
                                 "text": f"epoch {r['epoch']}: {r['mistakes']} mistakes, perceptron loss "
                                         f"{r['loss']:.4g}"}]})
    return {"family": "descent", "frames": frames, "normal_equation": None, "weight_names": [],
            "solver": "kernel perceptron", "classes": [_plain(c) for c in est.classes_]}


# --- clustering ------------------------------------------------------------------------------------------

def _kmeans(est, X, y, rows, run, row):
    M = _encoded(est, X)  # (n, d) the rows as k-means measured them
    keep = _sample(len(M))
    names = _encoded_names(est)
    frames, chosen = [], []
    for r in est.trace_:
        if r["step"] == "seed":
            chosen.append(r["chosen"])
            probs = r["probabilities"]
            top = None
            if probs:
                order = np.argsort(probs["p"])[::-1][:8]
                top = [{"row": int(probs["rows"][i]) + 1, "p": float(probs["p"][i])} for i in order]
            p_chosen = None if not probs else float(probs["p"][probs["rows"].index(r["chosen"])])
            tex = (r"\text{first centre: uniform over the rows}" if p_chosen is None else
                   rf"P(\mathbf{{x}}) = \frac{{D(\mathbf{{x}})^2}}{{\sum_{{\mathbf{{x}}'}} D(\mathbf{{x}}')^2}},\quad "
                   rf"P(\text{{row }} {r['chosen'] + 1}) = {p_chosen:.4f}")
            frames.append({"kind": "seed", "centre_index": r["centre_index"], "chosen": r["chosen"] + 1,
                           "centres": [M[c].tolist() for c in chosen], "top": top, "p_chosen": p_chosen,
                           "math": [{"tex": tex, "text": f"centre {r['centre_index'] + 1}: row {r['chosen'] + 1}"
                                     + ("" if p_chosen is None else f", drawn with probability {p_chosen:.4f}")}]})
        else:
            labels = np.asarray(r["labels"])
            sizes = np.bincount(labels, minlength=len(r["centres"])).tolist()
            frames.append({"kind": "iteration", "iter": r["iter"], "centres": r["centres"],
                           "labels": labels[keep].tolist(), "inertia": r["inertia"], "sizes": sizes,
                           "math": [{"tex": rf"\sum_i \lVert \mathbf{{x}}_i - \boldsymbol\mu_{{c(i)}} \rVert^2 = "
                                            rf"{r['inertia']:.4f}",
                                     "text": f"inertia Σ‖x_i − μ_c(i)‖² = {r['inertia']:.4f}"},
                                    {"tex": r"\boldsymbol\mu_j \leftarrow \frac{1}{|C_j|}\sum_{i \in C_j} \mathbf{x}_i"
                                            + rf",\quad |C| = {sizes}",
                                     "text": f"μ_j ← mean of the rows in cluster j; sizes {sizes}"}]})
    pts = {"x": M[keep, 0].tolist(), "y": (M[keep, 1] if M.shape[1] > 1 else np.zeros(len(keep))).tolist(),
           "rows": (keep + 1).tolist()}
    return {"family": "kmeans", "frames": frames, "points": pts, "feature_names": names, "k": int(est.k)}


def _agglomerative(est, X, y, rows, run, row):
    frames = [{"kind": "merge", "step": r["step"], "a": r["a"], "b": r["b"], "distance": r["distance"],
               "size": r["size"],
               "math": [{"tex": rf"\text{{merge }} {r['step'] + 1}: d = {r['distance']:.4f},\ \text{{size}} = {r['size']}",
                         "text": f"merge {r['step'] + 1}: clusters {r['a']} and {r['b']} at distance "
                                 f"{r['distance']:.4f}, size {r['size']}"}]}
              for r in est.trace_[:MAX_FRAMES]]
    return {"family": "agglomerative", "frames": frames, "n_leaves": int(len(rows)), "linkage": est.linkage,
            "merges": [{k: r[k] for k in ("a", "b", "distance", "size")} for r in est.trace_]
            if len(rows) <= MAX_FRAMES + 1 else None}


# --- probabilistic and instance-based --------------------------------------------------------------------

def _naive_bayes(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        frame = {"kind": r["step"], **r}
        if r["step"] == "prior":
            frame["math"] = [{"tex": r"P(Y = y) = \frac{\mathrm{count}(y)}{N} = " +
                                     ",\\ ".join(f"\\tfrac{{{int(c)}}}{{{int(sum(r['class_count']))}}}"
                                                 for c in r["class_count"]),
                              "text": "P(y) = count(y)/N: " + ", ".join(
                                  f"{cl} {int(c)}/{int(sum(r['class_count']))}"
                                  for cl, c in zip(r["classes"], r["class_count"]))}]
        elif r["step"] == "likelihood":
            k = r["k"]
            frame["math"] = [{"tex": rf"P_{{LAP,{_num(k)}}}(x \mid y) = \frac{{\mathrm{{count}}(x, y) + {_num(k)}}}"
                                     rf"{{\mathrm{{count}}(y) + {_num(k)} \cdot {r['n_values']}}}",
                              "text": f"P_LAP,{_num(k)}(x | y) = (count(x, y) + {_num(k)}) / (count(y) + "
                                      f"{_num(k)}·{r['n_values']})"}]
        else:
            frame["math"] = [{"tex": r"P(x \mid y) = \mathcal{N}(x;\ \mu_y, \sigma_y^2)",
                              "text": "P(x | y) = N(x; μ_y, σ²_y)"}]
        frames.append(frame)
    out = {"family": "naive_bayes", "frames": frames, "classes": [_plain(c) for c in est.classes_]}
    if row is not None:
        from .explain import explain_row
        out["explain"] = explain_row(run, row, estimator=est)
    return out


def _knn(est, X, y, rows, run, row):
    store = est.trace_[0]
    frames = [{"kind": "store", **store,
               "math": [{"tex": rf"\text{{store the }} {store['n_train']} \text{{ training rows; }} k = {store['k']}",
                         "text": f"store the {store['n_train']} training rows; k = {store['k']}"}]}]
    out = {"family": "knn", "frames": frames}
    if row is not None:
        from .explain import explain_row
        ex = explain_row(run, row, estimator=est)
        out["explain"] = ex
        votes = {}
        for i, nb in enumerate(ex["neighbors"]):
            key = str(nb.get("label", nb.get("target")))
            votes[key] = votes.get(key, 0) + nb["weight"]
            frames.append({"kind": "neighbour", "rank": i + 1, **nb, "votes": dict(votes),
                           "math": [{"tex": rf"d(\mathbf{{x}}, \mathbf{{x}}_{{{nb['row']}}}) = {nb['distance']:.4f}",
                                     "text": f"neighbour {i + 1}: row {nb['row']} at distance {nb['distance']:.4f}, "
                                             f"{key}; votes so far {dict(votes)}"}]})
    return out


def _pca(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        frame = {"kind": r["step"], **r}
        if r["step"] == "mean":
            frame["math"] = [{"tex": r"\boldsymbol\mu = \tfrac{1}{n}\sum_i \mathbf{x}_i = " + _vec(r["mean"]),
                              "text": f"mean μ = {_vec(r['mean'])}"}]
        elif r["step"] == "covariance":
            frame["math"] = [{"tex": r"\Sigma = \tfrac{1}{n-1}\sum_i (\mathbf{x}_i - \boldsymbol\mu)(\mathbf{x}_i - \boldsymbol\mu)^\top",
                              "text": "Σ = 1/(n−1) Σ (x_i − μ)(x_i − μ)ᵀ"}]
        elif r["step"] == "eigen":
            frame["math"] = [{"tex": r"\Sigma \mathbf{u}_j = \lambda_j \mathbf{u}_j,\quad \lambda = " + _vec(r["eigenvalues"]),
                              "text": f"eigenvalues λ = {_vec(r['eigenvalues'])}"},
                             {"tex": r"\frac{\sum_{j \le K}\lambda_j}{\sum_i \lambda_i} = " + _vec(r["cumulative"]),
                              "text": f"cumulative explained variance {_vec(r['cumulative'])}"}]
        else:
            frame["math"] = [{"tex": rf"K = {r['n_components']}\ (\text{{rule: {r['rule']}}})",
                              "text": f"keep K = {r['n_components']} components (rule: {r['rule']})"}]
        frames.append(frame)
    return {"family": "pca", "frames": frames, "feature_names": _encoded_names(est)}


def _tree(est, X, y, rows, run, row):
    return tree_steps.tree_frames(est, X, y, getattr(est, "criterion", "entropy"))


# --- helpers -------------------------------------------------------------------------------------------

def _plain(v):
    return v.item() if isinstance(v, np.generic) else v


def _sample(n, limit=MAX_POINTS):
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, size=limit, replace=False))


def _encoded_names(est):
    enc = getattr(est, "encoder_", None)
    if enc is not None and getattr(enc, "output_names", None):
        return list(enc.output_names)
    return list(getattr(est, "feature_names_out_", getattr(est, "feature_names_in_", [])))


def _encoded(est, X):
    from .readouts import encoded
    return np.asarray(encoded(est, X), dtype=float)


_BUILDERS = {"DecisionTreeClassifier": _tree, "DecisionTreeRegressor": _tree, "Perceptron": _perceptron,
             "LinearRegression": _descent, "LogisticRegression": _descent, "KernelRegression": _kernel_regression,
             "KernelPerceptron": _epochs, "KMeans": _kmeans, "AgglomerativeClustering": _agglomerative,
             "GaussianNB": _naive_bayes, "CategoricalNB": _naive_bayes, "BernoulliNB": _naive_bayes,
             "MultinomialNB": _naive_bayes, "KNeighborsClassifier": _knn, "KNeighborsRegressor": _knn,
             "PCA": _pca}
