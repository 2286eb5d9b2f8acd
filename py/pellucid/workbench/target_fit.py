"""Whether the chosen learner fits the chosen target, checked before any work, so the error a user meets
names the control that fixes it (the Model) rather than the split or the folds where it would otherwise
first break: a classifier on numbers with fractions, a regressor on text, and a classifier whose
stratified split fails because a target of many whole numbers (a quantity) has classes of one row.
The words come from tabular/target_task.py, which also tells the page which learners a target implies.
"""

import numpy as np

from ..core.errors import DataError
from ..tabular.profile import column_entry
from ..tabular.target_task import kind_problem, likely_quantity


def check_target_kind(table, target, task, label):
    """A DataError about the Model when a learner of `task` (its `label`) cannot learn `target`."""
    problem = kind_problem(column_entry(table, target), table.n_rows, task, label)
    if problem:
        raise DataError(problem, field="model")


def explain_stratify(exc, table, target, label):
    """Raises, from `exc`, the error a user should meet when `exc` refuses a class too small to stratify by
    and the target is most likely a quantity (many whole numbers): it is about the Model, as a regressor fits
    such a target. Any other error is left as it is (a small class of real classes stays about the
    Stratify switch it names), for the caller to raise."""
    if exc.field != "evaluation.stratify" or target is None:
        return
    entry = column_entry(table, target)
    if not likely_quantity(entry, table.n_rows):
        return
    _, counts = np.unique(table.column(target), return_counts=True)
    single = int(np.sum(counts == 1))
    raise DataError(f"{label} is a classifier, but {target} holds {entry['unique']} different whole numbers, "
                    f"most likely a quantity to predict (regression): as classes, {single} of them have a single "
                    "row, too few to stratify by. Choose a regressor as the Model, or untick Stratify by class.",
                    field="model") from exc
