"""Which task a target column implies, from its profile: classes to tell apart, a quantity to predict, or
either, so the page's learner menu can follow the target.

  text (a category)                          classification: its values are names, not amounts;
  numbers with fractions (2.5, 0.31)         regression: a classifier would make every value a class;
  whole numbers, more than FEW_VALUES of them regression: a count or an amount (price in dollars, age);
  whole numbers, at most FEW_VALUES          either: 0/1 or ratings 1-5 can be classes or a scale, and
                                              only the user knows which (classification is named first,
                                              as scikit-learn reads integer labels).

A date, or a column of fewer than two values, implies no task. An ID or free text is no suggested target
(target_choice.py), but a user who makes one the target still gets its task: text labels are classes, and
numbers follow the rules above. The same words explain the error a learner of the wrong kind meets
(`kind_problem`), so the menu's advice and the error say the same thing.
"""

from .target_choice import FEW_CLASSES

FEW_VALUES = FEW_CLASSES  # a number column of at most this many whole values may be classes
TASK_WORDS = {"classification": "classes to tell apart (classification)",
              "regression": "a quantity to predict (regression)"}


def target_task(entry, n_rows):
    """{"tasks": [...], "reason": words} for a profiled column, or None when it implies no task."""
    name, unique = entry["name"], entry["unique"]
    if entry["kind"] == "date" or unique < 2 or entry["missing"] >= n_rows:
        return None
    if "whole" not in entry:  # text: a category, an ID or free text
        return {"tasks": ["classification"], "reason": f"{name} holds text labels ({unique} classes), "
                                                       f"{TASK_WORDS['classification']}"}
    if not entry.get("whole", False):
        return {"tasks": ["regression"], "reason": f"{name} holds numbers with fractions, "
                                                   f"{TASK_WORDS['regression']}"}
    if unique > FEW_VALUES:
        return {"tasks": ["regression"], "reason": f"{name} holds {unique} different whole numbers, "
                                                   f"{TASK_WORDS['regression']}"}
    return {"tasks": ["classification", "regression"],
            "reason": f"{name} holds {unique} whole numbers ({_range(entry)}): they can be "
                      f"{TASK_WORDS['classification']} or {TASK_WORDS['regression']}"}


def _range(entry):
    edges = (entry.get("histogram") or {}).get("edges") or []
    return f"{edges[0]:g} to {edges[-1]:g}" if edges else "a few values"


def target_tasks(entries, n_rows):
    """{column: target_task} for each profiled column that can be a target."""
    found = {e["name"]: target_task(e, n_rows) for e in entries}
    return {name: task for name, task in found.items() if task is not None}


def kind_problem(entry, n_rows, task, label):
    """A sentence saying why a learner of `task` (its `label`) cannot learn this target, or None when it
    can: a classifier cannot learn numbers with fractions (each would be a class of its own) and a
    regressor cannot learn text. Whole numbers of many values are a likely quantity, but a classifier
    may still learn them as classes, so they are advice (target_task), not a problem."""
    implied = target_task(entry, n_rows)
    if implied is None or task not in TASK_WORDS:
        return None
    text = "whole" not in entry
    fractions = not text and not entry["whole"]
    if (task == "classification" and fractions) or (task == "regression" and text):
        other = "a regressor" if task == "classification" else "a classifier"
        return (f"{label} is {'a classifier' if task == 'classification' else 'a regressor'}, but "
                f"{implied['reason']}. Choose {other} as the Model, or another Target.")
    return None


def likely_quantity(entry, n_rows):
    """True when the column is most likely a quantity (regression only), though whole numbers."""
    implied = target_task(entry, n_rows)
    return implied is not None and implied["tasks"] == ["regression"]
