"""Which learners of a ranking differ from the best by more than chance: for every metric, each row's
per-fold scores (the baseline's too) against the best learner's on the same folds, by the corrected
resampled t-test of Nadeau and Bengio (evaluation.significance), as Weka's Experimenter marks them.

Only scores on the same folds are paired: a hold-out split gives one score a learner, so no test is
possible, and a learner ranked on a sample of its row limit was scored on other rows than the best
unless the best was too (the same sample), so it is not tested either; each says why.
"""

from ..evaluation.model_selection import SCORERS
from ..evaluation.significance import LEVEL, corrected_resampled_t_test

TEST = "corrected resampled t-test (Nadeau and Bengio, 2003)"
ONE_SCORE = ("a hold-out split gives each learner one score, so there is no spread to test a difference by: "
             "use k-fold cross-validation (repeated, for more folds)")
OTHER_ROWS = "scored on other rows than the best (a sample of its row limit), so their folds are not paired"


def mark(rows, baseline, baseline_sample, metrics):
    """Adds "versus_best" to every scored row's scores[metric] (the baseline's too; `baseline_sample` is the
    sample its run was on, or None): {best (the best learner's model), verdict ("best", "worse", "better"
    (only the baseline can be), "not_significant" or "no_test"), why (no_test), and the test's n, df, t,
    p_value, mean_difference (this row's mean minus the best's, in the metric's units), variance,
    test_train_ratio, case, level}."""
    scored = [row for row in rows if "scores" in row]
    if not scored:
        return
    for name in metrics:
        greater = SCORERS[name][2]
        best = sorted(scored, key=lambda row: -row["scores"][name]["mean"] if greater
                      else row["scores"][name]["mean"])[0]  # a stable sort: ties keep the ranking's order
        for row, sample in [(row, row.get("sample")) for row in scored] + [(baseline, baseline_sample)]:
            row["scores"][name]["versus_best"] = _versus(row, sample, best, name, greater)


def _versus(row, sample, best, name, greater):
    if row is best:
        return {"best": best["model"], "verdict": "best", "level": LEVEL}
    mine, theirs = row["scores"][name]["folds"], best["scores"][name]["folds"]
    if len(theirs) < 2:
        return {"best": best["model"], "verdict": "no_test", "why": ONE_SCORE, "level": LEVEL}
    if sample != best.get("sample") or len(mine) != len(theirs):
        return {"best": best["model"], "verdict": "no_test", "why": OTHER_ROWS, "level": LEVEL}
    sizes = best["fold_sizes"]
    test = corrected_resampled_t_test(mine, theirs, sizes["train"], sizes["test"])
    better = (test["mean_difference"] > 0) == greater
    verdict = ("better" if better else "worse") if test["significant"] else "not_significant"
    return {"best": best["model"], "verdict": verdict, **test}
