"""Categories a model never saw in training, counted where it reads new rows (Apply, and the exported
predictions of the loaded table's held-out rows) rather than silently absorbed: one-hot encoding writes
such a value as all zeros, the tree and naive Bayes as no branch or count they learned, so the row's
prediction rests on its other columns. The page shows the counts as a note."""

EXAMPLES = 3  # unseen values named in a note, per column


def seen_categories(run, kinds):
    """{feature: set of str}: the categories of each categorical feature (`kinds`: {feature: kind}, as
    exports.feature_kinds gives them) that the model saw in training.
    From the training rows of the loaded table, or, for an imported model, from what the fitted
    preprocessing or the model recorded (a column with no record is left out)."""
    wanted = [name for name in run.features if kinds.get(name) == "categorical"]
    if not wanted:
        return {}
    if run.table is not None:
        rows = run.train_rows()
        return {name: {str(v) for v in run.table.column(name)[rows].tolist() if v is not None}
                for name in wanted if name in run.table.columns}
    lists = dict(getattr(getattr(run.preprocessor, "encoder_", None), "categories_", None) or {})
    estimator = run.estimator
    lists.update({k: v for k, v in (getattr(getattr(estimator, "encoder_", None), "categories", None) or {}).items()
                  if k not in lists})
    categories, names = getattr(estimator, "categories_", None), getattr(estimator, "feature_names_in_", None)
    if isinstance(categories, list) and names is not None and len(categories) == len(names):
        for name, values in zip(names, categories):
            if values is not None:
                lists.setdefault(name, values)
    return {name: {str(v) for v in lists[name]} for name in wanted if name in lists}


def count_unseen(seen, table, rows=None):
    """({column: rows holding a value not in `seen[column]`}, {column: the first few such values}) over
    `rows` of `table` (all rows by default); columns without one are left out. Missing cells are not
    unseen values (the preprocessing fills them, or the row has no prediction)."""
    counts, examples = {}, {}
    for name, known in seen.items():
        if name not in table.columns:
            continue
        values = table.column(name)
        values = values.tolist() if rows is None else values[rows].tolist()
        new = [str(v) for v in values if v is not None and str(v) not in known]
        if new:
            counts[name] = len(new)
            examples[name] = list(dict.fromkeys(new))[:EXAMPLES]
    return counts, examples


def unseen_notes(counts, examples, where="rows"):
    """One sentence per column with unseen values, for the page."""
    notes = []
    for name, n in counts.items():
        shown = ", ".join(map(repr, examples[name]))
        notes.append(f"{n} {where if n != 1 else where.rstrip('s')} of column {name!r} hold "
                     f"{'a value' if n == 1 else 'values'} the model never saw in training ({shown}); it learned "
                     "nothing about them, so their predictions rest on the other columns.")
    return notes
