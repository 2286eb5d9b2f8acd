// Compare learners' "Versus the best" column: whether each learner's per-fold scores differ from the best
// learner's by more than chance. Python runs the test (workbench/versus_best.py: the corrected resampled
// t-test) and says the verdict; this module only words it, writes the note under the table, and lays out
// the per-fold columns of the CSV so the test can be done again in a spreadsheet or scipy.
import { el } from "./dom.js";

// A p-value as a student reads it: two decimals, three below 0.01, and "< 0.001" beyond.
export function formatP(p) {
  if (p < 0.001) return "p < 0.001";
  return `p = ${p.toFixed(p < 0.01 ? 3 : 2)}`;
}

function words(versus) {
  switch (versus.verdict) {
    case "best": return "best";
    case "not_significant": return `≈ best (${formatP(versus.p_value)})`;
    case "worse": case "better":
      return versus.case === "constant" ? `${versus.verdict} (by the same amount in every fold)`
        : `${versus.verdict} (${formatP(versus.p_value)})`;
    default: return "not tested";
  }
}

// The cell of one row for `metric`: the verdict in words, the exact p-value in data-p for anyone reading
// the page's DOM, and why there was no test in its title.
export function versusCell(row, metric) {
  const versus = row.scores[metric].versus_best;
  const title = versus.verdict === "no_test" ? versus.why
    : versus.case === "tested" ? `t = ${versus.t.toFixed(3)} with ${versus.df} degrees of freedom; `
      + `mean difference ${versus.mean_difference.toPrecision(3)}` : "";
  return el("td", { class: `versus ${versus.verdict.replace("_", "-")}`, text: words(versus), title,
    dataset: { verdict: versus.verdict, ...(versus.p_value === null || versus.p_value === undefined ? {} : { p: String(versus.p_value) }) } });
}

// "10 folds (5-fold cross-validation repeated 2 times)" or "5 folds".
export function foldsPhrase(evaluation) {
  const { k, repeats = 1 } = evaluation;
  return repeats > 1 ? `${k * repeats} folds (${k}-fold cross-validation repeated ${repeats} times)` : `${k} folds`;
}

// What the test assumes, under the table; under a split, that there is no test to make.
export function significanceNote(reply, metricLabel) {
  const { significance: sig } = reply;
  if (!sig?.possible) {
    return el("p", { class: "help significance-note", id: "leaderboard-significance-note",
      text: "No significance test: a hold-out split gives each learner one score, so there is no spread to "
        + "judge a difference by. Choose k-fold (with Repeats for more folds) to see which differences are real." });
  }
  const level = sig.level;
  const metric = metricLabel.replace(/^[A-Z][a-z]/, (w) => w.toLowerCase());  // "accuracy", but "R²", "MSE"
  return el("p", { class: "help significance-note", id: "leaderboard-significance-note" },
    el("strong", { text: "Versus the best: " }),
    `each learner's ${metric} is paired fold by fold with the best learner's on the same ${foldsPhrase(reply.evaluation)}, `
    + `both trained and scored on the same rows, and tested by the ${sig.test}: t = mean difference / `
    + "√((1/n + n_test/n_train) × variance of the differences), with n − 1 degrees of freedom. The n_test/n_train "
    + "term widens the plain paired t-test because the folds' training rows overlap, so their scores are not "
    + `independent; the correction is an approximation. “worse” means p < ${level}: a difference this large would be `
    + `unlikely if the two were equally good. “≈ best” (p ≥ ${level}) does not mean equal, only that these folds `
    + "cannot tell them apart; more repeats give the test more folds.");
}

// The CSV's columns for the metric ranked by: the verdict, t and p against the best, the n_test/n_train
// ratio the test used, then one column per fold ("<metric>_repeat<r>_fold<j>"; under a split, the one
// held-out score), so d_j = best's fold j - a learner's fold j can be tested again anywhere.
export function csvColumns(reply, metric) {
  const { k = 1, repeats = 1 } = reply.evaluation;
  const folds = reply.scored_on === "folds";
  const n = folds ? k * repeats : 1;
  const foldNames = Array.from({ length: n }, (_, i) => (folds
    ? `${metric}_repeat${Math.floor(i / k) + 1}_fold${(i % k) + 1}` : `${metric}_held_out`));
  const header = [`${metric}_versus_best`, `${metric}_t`, `${metric}_p_value`, "n_test_over_n_train", ...foldNames];
  const values = (row) => {
    const scores = row.scores?.[metric];
    if (!scores) return header.map(() => "");
    const versus = scores.versus_best;
    const sizes = row.fold_sizes;
    const sum = (list) => list.reduce((a, b) => a + b, 0);
    return [versus.verdict, versus.t, versus.p_value, sizes && sum(sizes.test) / sum(sizes.train), ...scores.folds];
  };
  return { header, values };
}
