"""Naive Bayes: Gaussian, categorical, Bernoulli and multinomial, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..naive_bayes.discrete import BernoulliNB, CategoricalNB, MultinomialNB
from ..naive_bayes.gaussian import GaussianNB


def _gaussian(sk, p, ctx):
    return sk.naive_bayes.GaussianNB(var_smoothing=p["var_smoothing"])


def _gaussian_notes(p):
    return ["The same model: maximum-likelihood class priors and per-class normal densities, with "
            "var_smoothing times the largest feature variance added to every variance."]


def _categorical(sk, p, ctx):
    return sk.naive_bayes.CategoricalNB(alpha=p["alpha"], force_alpha=True, min_categories=ctx["n_categories"])


def _categorical_notes(p):
    return ["The same Laplace estimate (count + k)/(N_y + k |X|) with k = alpha. scikit-learn needs integer "
            "codes, so every column's values (categories, or a numeric column's distinct values) are "
            "numbered over all rows; a value never seen in training then still counts in |X| there, "
            "while pellucid's |X| is the values seen in training."]


def _bernoulli(sk, p, ctx):
    return sk.naive_bayes.BernoulliNB(alpha=p["alpha"], binarize=p["binarize"], force_alpha=True)


def _multinomial(sk, p, ctx):
    return sk.naive_bayes.MultinomialNB(alpha=p["alpha"], force_alpha=True)


def _notes(p):
    return ["The same model: maximum-likelihood class priors and Laplace-smoothed likelihoods (alpha = k)."]


_SHOWS = {"probabilities", "boundary", "steps", "explain"}
_COMMON = dict(group="Probabilistic", task=Task.CLASSIFICATION, steps="naive_bayes", explain="naive_bayes",
               summary="priors")

LEARNERS = (
    Learner(GaussianNB, "Gaussian naive Bayes", capabilities=_SHOWS, **_COMMON,
            sklearn=SklearnTwin(_gaussian, _gaussian_notes)),
    Learner(CategoricalNB, "Categorical naive Bayes", capabilities=_SHOWS | {"exercises"},
            exercise="nb_posterior", needs="categories", **_COMMON,
            sklearn=SklearnTwin(_categorical, _categorical_notes, prepare="ordinal")),
    Learner(BernoulliNB, "Bernoulli naive Bayes", capabilities=_SHOWS | {"exercises"}, exercise="nb_posterior",
            **_COMMON, sklearn=SklearnTwin(_bernoulli, _notes)),
    Learner(MultinomialNB, "Multinomial naive Bayes", capabilities=_SHOWS | {"exercises"},
            exercise="nb_posterior", **_COMMON, sklearn=SklearnTwin(_multinomial, _notes)),
)
