"""Step frames of the unsupervised learners: k-means seeds and iterations, agglomerative merges, and the
mean, covariance and eigenvectors of PCA."""

import numpy as np

from .frames import MAX_FRAMES, encoded, encoded_names, num, sample, short, vec


# --- clustering and projection --------------------------------------------------------------------------

def kmeans(est, X, y, rows, run, row):
    M = encoded(est, X)  # (n, d) the rows as k-means measured them
    keep = sample(len(M))
    names = encoded_names(est)
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
    return {"family": "kmeans", "frames": frames, "points": pts, "feature_names": names, "k": int(est.n_clusters)}


def agglomerative(est, X, y, rows, run, row):
    frames = [{"kind": "merge", "step": r["step"], "a": r["a"], "b": r["b"], "distance": r["distance"],
               "size": r["size"],
               "math": [{"tex": rf"\text{{merge }} {r['step'] + 1}: d = {r['distance']:.4f},"
                                rf"\ \text{{size}} = {r['size']}",
                         "text": f"merge {r['step'] + 1}: clusters {r['a']} and {r['b']} at distance "
                                 f"{r['distance']:.4f}, size {r['size']}"}]}
              for r in est.trace_[:MAX_FRAMES]]
    return {"family": "agglomerative", "frames": frames, "n_leaves": int(len(rows)), "linkage": est.linkage,
            "merges": [{k: r[k] for k in ("a", "b", "distance", "size")} for r in est.trace_]
            if len(rows) <= MAX_FRAMES + 1 else None}



def _eigen_math(eigenvalues, cumulative):
    """Σu = λu and the cumulative share; the vectors written out when short, else the largest λ alone
    (the page's table lists them all)."""
    if short(eigenvalues):
        return [{"tex": r"\Sigma \mathbf{u}_j = \lambda_j \mathbf{u}_j,\quad \lambda = " + vec(eigenvalues),
                 "text": f"eigenvalues λ = {vec(eigenvalues)}"},
                {"tex": r"\frac{\sum_{j \le K}\lambda_j}{\sum_i \lambda_i} = " + vec(cumulative),
                 "text": f"cumulative explained variance {vec(cumulative)}"}]
    return [{"tex": rf"\Sigma \mathbf{{u}}_j = \lambda_j \mathbf{{u}}_j,\quad \lambda_1 = {num(eigenvalues[0])}",
             "text": f"Σ u_j = λ_j u_j; largest eigenvalue λ_1 = {num(eigenvalues[0])}"},
            {"tex": rf"\frac{{\sum_{{j \le K}}\lambda_j}}{{\sum_i \lambda_i}},\quad K = 1: {num(cumulative[0])}",
             "text": f"cumulative explained variance Σ_(j≤K) λ_j / Σ λ_i; K = 1: {num(cumulative[0])}"}]


def pca(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        frame = {"kind": r["step"], **r}
        if r["step"] == "mean":
            values = r["mean"] if short(r["mean"]) else None  # many features: the page's table lists them
            frame["math"] = [{"tex": r"\boldsymbol\mu = \tfrac{1}{n}\sum_i \mathbf{x}_i"
                                     + (f" = {vec(values)}" if values else ""),
                              "text": "mean μ = " + (vec(values) if values else "(1/n) Σ x_i")}]
        elif r["step"] == "covariance":
            frame["math"] = [{"tex": r"\Sigma = \tfrac{1}{n-1}\sum_i (\mathbf{x}_i - \boldsymbol\mu)"
                                     r"(\mathbf{x}_i - \boldsymbol\mu)^\top",
                              "text": "Σ = 1/(n−1) Σ (x_i − μ)(x_i − μ)ᵀ"}]
        elif r["step"] == "eigen":
            frame["math"] = _eigen_math(r["eigenvalues"], r["cumulative"])
        else:
            frame["math"] = [{"tex": rf"K = {r['n_components']}\ (\text{{rule: {r['rule']}}})",
                              "text": f"keep K = {r['n_components']} components (rule: {r['rule']})"}]
        frames.append(frame)
    return {"family": "pca", "frames": frames, "feature_names": encoded_names(est)}
