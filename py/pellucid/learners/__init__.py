"""The algorithms of the course notes, one package per learner, each reading beside its notes.

The rule for speed-ups (learners/tree is the model):
- inside a learner's package, `<idea>.py` is the readable algorithm: it reads beside the course notes and
  is what the steps view (trace=True) runs;
- `<idea>_fast.py` beside it is its speed-up, with the same inputs and outputs;
- the estimator chooses between them at one point, in `fit` (tree/_base.py: `growth.grow if self.trace
  else growth_fast.grow`), and nowhere else;
- tests/unit/test_fast_paths.py holds the tests that the two give the same results.
A module without a `_fast` twin serves both paths, or only the fast one, and its docstring says which.

Packages: `tree`, `ensemble` (random forests and bagging, made of the trees), `logistic`, `neighbors`
(k-NN), `kmeans`, `kernels` (kernel regression and the kernel perceptron), `naive_bayes`, `agglomerative`,
`linear` (linear regression, the perceptron), `network` (multi-layer perceptrons), `projection` (PCA);
`shared` holds the numeric helpers several learners use (distances, Gram matrices, optimisers, class
weights). `catalog` describes each learner for the page and `registry` looks them up.
"""
