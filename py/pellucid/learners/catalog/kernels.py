"""The kernel methods: the kernel perceptron and kernel regression, and the twin of the one that has one."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..kernels.kernel_perceptron import KernelPerceptron
from ..kernels.kernel_regression import MAX_ROWS as KERNEL_MAX_ROWS, KernelRegression

# KERNEL_MAX_ROWS: the kernel matrix's row limit, which fit keeps (kernels/kernel_regression.py); a larger
# table is offered a seeded sample of this many rows (workbench/training.py).


def _kernel_regression(sk, p, ctx):
    kernel = {"linear": "linear", "poly": "poly", "rbf": "rbf"}[p["kernel"]]
    gamma = 1.0 if kernel == "poly" else ctx["gamma"]  # ours: (x.z + c)^degree, exp(-gamma |x - z|^2)
    return sk.kernel_ridge.KernelRidge(alpha=p["l2"], kernel=kernel, degree=p["degree"], coef0=p["coef0"],
                                       gamma=gamma)


def _kernel_regression_notes(p):
    return ["Both minimise the squared error plus (l2/2) βᵀKβ with the same kernel and no intercept. "
            "scikit-learn's KernelRidge solves (K + l2 I)β = y exactly; pellucid takes max_iter "
            "gradient steps from β = 0, which stops early (a kind of regularisation, most visible when "
            "l2 = 0, where the exact solution interpolates the training rows)."]


LEARNERS = (
    Learner(KernelPerceptron, "Kernel perceptron", "Kernels", Task.CLASSIFICATION, {"boundary", "steps"},
            steps="epochs", summary="stored_rows", scale_sensitive=True, max_rows=KERNEL_MAX_ROWS,
            no_twin="scikit-learn has no kernel perceptron (its Perceptron is linear only, and SVC maximises a "
                    "margin instead of correcting mistakes), so there is nothing to compare it with."),
    Learner(KernelRegression, "Kernel regression", "Kernels", Task.REGRESSION,
            {"boundary", "regression_fit", "steps"}, steps="kernel_descent", summary="stored_rows",
            scale_sensitive=True, max_rows=KERNEL_MAX_ROWS,
            sklearn=SklearnTwin(_kernel_regression, _kernel_regression_notes)),
)
