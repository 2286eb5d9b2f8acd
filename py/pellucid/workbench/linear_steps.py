"""Step frames of the linear models and the kernel methods: the perceptron's visits, the iterations of
gradient descent (linear and logistic regression, kernel regression) and the kernel perceptron's epochs."""

import numpy as np

from ..core.jsonable import python_scalar
from .frames import MAX_FRAMES, encoded_names, num, sample, short, vec


# --- perceptron -----------------------------------------------------------------------------------------

def perceptron(est, X, y, rows, run, row):
    trace = [r for r in est.trace_ if "omitted" not in r]
    omitted = sum(r.get("omitted", 0) for r in est.trace_)
    names = [python_scalar(c) for c in est.classes_]
    frames = [_perceptron_frame(r, len(est.classes_) == 2, names) for r in trace[:MAX_FRAMES]]
    first_epoch = {}
    for r in trace:
        first_epoch.setdefault(r["index"], r["x"][1:])
    d = len(trace[0]["x"]) - 1 if trace else 0
    points = None
    if d == 2:
        keep = sample(len(first_epoch))
        idx = sorted(first_epoch)
        labels = np.searchsorted(est.classes_, np.asarray(y))
        points = {"x": [first_epoch[idx[i]][0] for i in keep], "y": [first_epoch[idx[i]][1] for i in keep],
                  "label": [int(labels[idx[i]]) for i in keep]}
    return {"family": "perceptron", "frames": frames, "classes": [python_scalar(c) for c in est.classes_],
            "binary": len(est.classes_) == 2, "points": points, "weight_names": ["bias"] + encoded_names(est),
            "inline": short(["bias"] + encoded_names(est)),  # the weights written inside each visit's formula
            "omitted": omitted + max(0, len(trace) - MAX_FRAMES)}


def _perceptron_frame(r, binary, labels):
    f = r["x"]
    frame = {"kind": "visit", **r}
    if binary:
        sign = "+" if r["target"] > 0 else "-"
        math = _binary_visit_math(r, f, sign) if short(f) else _binary_visit_summary(r, sign)
    elif "targets" in r:
        math, frame["change"] = _one_vs_rest_math(r, labels)
    else:
        scores = ", ".join(num(s) for s in r["score"])
        math = [{"tex": rf"W\mathbf{{f}}(\mathbf{{x}}) = [{scores}],\ \hat y = \arg\max = {r['predicted']}",
                 "text": f"W f(x) = [{scores}], predicted {r['predicted']}"}]
        frame["change"] = "none" if r["correct"] else f"+f to {r['y']}, −f from {r['predicted']}"
        if not r["correct"]:
            c_tex, c_text = _class_weight_factor(r)
            math.append({"tex": rf"\mathbf{{w}}_{{{r['y']}}} \mathrel{{+}}= {c_tex}\mathbf{{f}},\ "
                                rf"\mathbf{{w}}_{{{r['predicted']}}} \mathrel{{-}}= {c_tex}\mathbf{{f}}",
                         "text": f"w_{r['y']} += {c_text}f(x), w_{r['predicted']} −= {c_text}f(x)"})
    frame["math"] = math
    return frame


def _one_vs_rest_math(r, labels):
    """One-vs-rest: each class's own binary perceptron reads w_c . f(x) >= 0 as "class c" and is updated
    by y*_c f(x) where that is wrong (scaled by s_c for the row's own class, by 1 for the rest, and by the
    row's sample weight). Returns the math lines and the short change for the update column."""
    scores = ", ".join(num(s) for s in r["score"])
    math = [{"tex": rf"W\mathbf{{f}}(\mathbf{{x}}) = [{scores}],\ \hat y = \arg\max = {r['predicted']}",
             "text": f"W f(x) = [{scores}], predicted {r['predicted']}"}]
    moved = [(c, t) for c, (t, u) in enumerate(zip(r["targets"], r["update"])) if any(u)]
    if not moved:
        math.append({"tex": rf"w_c \cdot \mathbf{{f}} \ge 0 \text{{ only for }} c = {r['y']}:\ \text{{no update}}",
                     "text": f"w_c · f(x) ≥ 0 only for c = {r['y']}: no update"})
        return math, "none"
    tex, text = [], []
    for c, t in moved:
        factor = r.get("sample_weight", 1.0) * (r.get("class_weight", 1.0) if t > 0 else 1.0)
        scale_tex, scale_text = ("", "") if factor == 1.0 else (rf"{num(factor)}\,", f"{num(factor)}·")
        op_tex, op_text = (r"\mathrel{+}=", "+=") if t > 0 else (r"\mathrel{-}=", "−=")
        name = labels[c]
        tex.append(rf"\mathbf{{w}}_{{{name}}} {op_tex} {scale_tex}\mathbf{{f}}")
        text.append(f"w_{name} {op_text} {scale_text}f(x)")
    math.append({"tex": r"\text{one-vs-rest: }" + r",\ ".join(tex), "text": "one-vs-rest: " + ", ".join(text)})
    up = [str(labels[c]) for c, t in moved if t > 0]  # at most the row's own class
    down = ", ".join(str(labels[c]) for c, t in moved if t < 0)
    return math, ", ".join([f"+f to {c}" for c in up] + ([f"−f from {down}"] if down else []))


def _class_weight_factor(r):
    """(tex, text) of the update's scale: the class weight times the row's sample weight, "" when neither
    was given (class_weight=None, no sample_weight)."""
    if "class_weight" not in r and "sample_weight" not in r:
        return "", ""
    scale = r.get("class_weight", 1.0) * r.get("sample_weight", 1.0)
    return rf"{num(scale)}\,", f"{num(scale)}·"


def _no_update(sign):
    """The step of a correctly classified example: the weights stay."""
    return {"tex": rf"y^* = {sign}1,\ \text{{correct: no update}}", "text": f"y* = {sign}1, correct: no update"}


def _binary_visit_math(r, f, sign):
    """The notes' worked form: every product and both vectors written out (a few features)."""
    products = " + ".join(f"{num(w)} \\cdot {num(x)}" for w, x in zip(r["weights"], f))
    text = " + ".join(f"{num(w)}·{num(x)}" for w, x in zip(r["weights"], f))
    math = [{"tex": rf"\mathbf{{w}} \cdot \mathbf{{f}}(\mathbf{{x}}) = {products} = {num(r['score'])}",
             "text": f"w · f(x) = {text} = {num(r['score'])}"}]
    if r["correct"]:
        math.append(_no_update(sign))
    else:
        minus = sign.replace("-", "−")
        c_tex, c_text = _class_weight_factor(r)
        math.append({"tex": rf"\mathbf{{w}} \leftarrow \mathbf{{w}} {sign} {c_tex}\mathbf{{f}}(\mathbf{{x}}) = "
                            rf"{vec(r['weights'])} {sign} {c_tex}{vec(f)} = {vec(r['weights_after'])}",
                     "text": f"w ← w {minus} {c_text}f(x) = {vec(r['weights'])} {minus} {c_text}{vec(f)} = "
                             f"{vec(r['weights_after'])}"})
    return math


def _binary_visit_summary(r, sign):
    """The same step with many features: each formula once, with its sum; the page lists the per-feature
    terms w_j·f_j(x) (and the weights after the update) in a table beside it."""
    math = [{"tex": rf"\mathbf{{w}} \cdot \mathbf{{f}}(\mathbf{{x}}) = \sum_j w_j\, f_j(\mathbf{{x}})"
                    rf" = {num(r['score'])}",
             "text": f"w · f(x) = Σ_j w_j f_j(x) = {num(r['score'])}"}]
    if r["correct"]:
        math.append(_no_update(sign))
    else:
        minus = sign.replace("-", "−")
        c_tex, c_text = _class_weight_factor(r)
        math.append({"tex": rf"y^* = {sign}1:\quad w_j \leftarrow w_j {sign} {c_tex}f_j(\mathbf{{x}})"
                            rf"\ \text{{for every }} j",
                     "text": f"y* = {sign}1: w_j ← w_j {minus} {c_text}f_j(x) for every j"})
    return math


# --- gradient descent and other iterative fits -----------------------------------------------------------

def descent(est, X, y, rows, run, row):
    trace = est.trace_
    normal = next((r["normal_equation"] for r in trace if "normal_equation" in r), None)
    iters = [r for r in trace if "iter" in r]
    least_squares = est.task == "regression"  # linear regression; logistic regression climbs a likelihood
    frames = []
    for r in iters:
        w = r["weights"]
        flat = w if not w or not isinstance(w[0], list) else None
        if least_squares:
            tex = (rf"J(\mathbf{{w}}_{{{r['iter']}}}) = \tfrac{{1}}{{2n}}"
                   rf"\sum_i (y_i - \mathbf{{w}}^\top \mathbf{{x}}_i)^2 = {r['loss']:.5g}")
            text = f"J(w_{r['iter']}) = 1/(2n) Σ (y_i − wᵀx_i)² = {r['loss']:.5g}"
        else:
            tex = rf"-\tfrac{{1}}{{n}}\ell\ell(\mathbf{{w}}_{{{r['iter']}}}) = {r['loss']:.5g}"
            text = f"−(1/n) LL(w_{r['iter']}) = {r['loss']:.5g}"
        math = [{"tex": tex, "text": text}]
        if flat is not None and short(flat):
            math.append({"tex": rf"\mathbf{{w}} = {vec(flat, 4)}", "text": f"w = {vec(flat, 4)}"})
        frames.append({"kind": "iteration", "iter": r["iter"], "loss": r["loss"], "weights": w, "math": math})
    if not frames and normal is not None:
        frames.append({"kind": "normal", "iter": 0, "loss": None, "weights": normal,
                       "math": [_normal_math(normal)]})
    return {"family": "descent", "frames": frames, "normal_equation": normal,
            "weight_names": ["bias"] + encoded_names(est),
            "solver": getattr(est, "solver_", est.get_params().get("solver")),
            "classes": [python_scalar(c) for c in getattr(est, "classes_", [])]}


def _normal_math(normal):
    if short(normal):
        return {"tex": r"\mathbf{w} = (X^\top X)^{-1} X^\top \mathbf{y} = " + vec(normal, 4),
                "text": f"w = (XᵀX)⁻¹ Xᵀy = {vec(normal, 4)}"}
    return {"tex": r"\mathbf{w} = (X^\top X)^{-1} X^\top \mathbf{y}", "text": "w = (XᵀX)⁻¹ Xᵀy"}


def kernel_descent(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        if r["step"] != "iteration":
            continue
        beta = r["beta"]
        frames.append({"kind": "iteration", "iter": r["iteration"], "loss": r["loss"], "weights": beta[:12],
                       "math": [{"tex": rf"\boldsymbol\beta \leftarrow \boldsymbol\beta"
                                        rf" + \alpha(\mathbf{{y}} - K\boldsymbol\beta),"
                                        rf"\quad J = {r['loss']:.5g}",
                                 "text": f"β ← β + α(y − Kβ), J = {r['loss']:.5g}"}]})
    return {"family": "descent", "frames": frames, "normal_equation": None,
            "weight_names": [f"β{i + 1}" for i in range(min(12, len(rows)))], "solver": "kernel gd",
            "kernel": est.trace_[0], "classes": []}


def epochs(est, X, y, rows, run, row):
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
            "solver": "kernel perceptron", "classes": [python_scalar(c) for c in est.classes_]}
