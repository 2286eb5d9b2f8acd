"""A short Python script that reproduces a workbench run natively with the pellucid package: read the
CSV, apply the same column kinds and missing-value steps, take the same columns, make the same split with
the same seed (or the same k folds), fit the model with its parameters, and print the metrics."""

import pathlib

from ..core.errors import DataError
from ..learners import registry
from .training import check_evaluation
from .prepare import check_choices
from .runs import SUPERVISED
from ..tabular.dates import PARTS
from ..tabular.xlsx import is_xlsx


def _kind_lines(kinds):
    return [f"table = table.with_kind({name!r}, {kind!r})" for name, kind in (kinds or {}).items()]


def _read_line(file, header, sheet=None):
    """read_csv as the page read the file: with the user's say on the first row when they gave it; for an
    Excel workbook read_xlsx, with the sheet read (pellucid.tabular.xlsx reads it as read_csv would its CSV)."""
    said = "" if header is None else f", header={bool(header)!r}"
    if is_xlsx(file):
        return f"table = read_xlsx({file!r}{f', sheet={sheet!r}' if sheet else ''}{said})"
    return f"table = read_csv({file!r}{said})"


def _missing_lines(steps):
    lines = []
    for step in steps or []:
        columns = step.get("columns")
        if step.get("strategy") == "drop":
            lines.append(f"table = table.drop_missing({columns!r})")
        elif step.get("strategy") == "fill":
            lines.append(f"table = table.fill_missing({columns!r})  # numeric: mean, categorical: mode")
    return lines


def _split_lines(evaluation, classifier):
    stratify = "y" if evaluation["stratify"] and classifier else "None"
    seed, val, test = evaluation["seed"], evaluation["validation"], evaluation["test"]
    if val and test:
        return [f"train, validation, test = train_val_test_split(rows, val_size={val / 100!r}, "
                f"test_size={test / 100!r}, stratify={stratify}, seed={seed})"]
    if val or test:
        held = "validation" if val else "test"
        other = "test" if val else "validation"
        return [f"train, {held} = train_test_split(rows, test_size={(val or test) / 100!r}, "
                f"stratify={stratify}, seed={seed})", f"{other} = rows[:0]"]
    return ["train, validation, test = rows, rows[:0], rows[:0]"]


def _preprocessing_lines(choices, target, supervised):
    """The rows left out before the split, and the model wrapped with its preparation, which fits on the
    training rows only (within each fold under k-fold) and prepares every X it later reads."""
    lines = []
    if choices["impute"] == "drop":
        lines.append("table = table.drop_missing(features + ([target] if target else []))  # rows missing a value")
    elif supervised:
        lines.append("table = table.drop_missing([target])  # rows without a target value")
    impute = None if choices["impute"] == "drop" else choices["impute"]
    return lines, f"Preprocessor(impute={impute!r}, standardize={choices['standardize']!r})"


def sample_lines(sample, label, n_rows, take):
    """A learner with a row limit trained on a seeded random sample (workbench.training): the same draw,
    from the rows left after the missing-value steps, in table order. n_rows and take are the table's
    row count and row selection as the script writes them."""
    if not sample:
        return []
    draw = f"np.sort(np.random.default_rng({sample['seed']}).choice({n_rows}, size={sample['rows']}, replace=False))"
    return [f"# {label} works on up to {sample['rows']:,} rows: the page trained it on this random sample of them",
            f"table = {take.format(draw)}"]


def _report_lines(task, fitted_on):
    if task == "classification":
        what, call = "accuracy", "model.score(X.take(part), y[part])"
    elif task == "regression":
        what, call = "R^2", "model.score(X.take(part), y[part])"
    elif task == "clustering":
        return ["labels = model.predict(X)",
                "print('rows per cluster:', np.bincount(labels).tolist())"]
    else:
        return ["print('variance explained per component:', model.model.explained_variance_ratio_.tolist())"]
    return [f"for name, part in {fitted_on}:",
            "    if len(part):",
            f"        print(f\"{{name}} {what}: {{{call}!r}}\")"]


def _date_lines(features):
    """A date feature is learned from as its parts (tabular/dates.py), so the script takes the table's date
    columns apart too before it selects them."""
    if not any(name.endswith(tuple(" " + part for part in PARTS)) for name in features or []):
        return []
    return ["from pellucid.tabular.dates import expand_dates",
            "table, _ = expand_dates(table, table.columns)  # each date column gains its year, month, "
            "day of week, day of year"]


def _import_lines(learner, reader="read_csv"):
    """The estimator comes from pellucid itself, or from the module that defines a learner added later."""
    tools = f"{reader}, train_test_split, train_val_test_split, cross_validate"
    preparation = "from pellucid.preprocessing import Pipeline, Preprocessor"
    if learner.script_import == "pellucid":
        return [f"from pellucid import {learner.name}, {tools}", preparation]
    return [f"from pellucid import {tools}", preparation, f"from {learner.script_import} import {learner.name}"]


def python_script(setup):
    """{filename, script} for `setup`: {file, target, features, model, params, evaluation, kinds?,
    missing?, preprocessing?, header?, sheet?, sample?} (kinds: {column: kind} re-read before use; missing: [{strategy,
    columns}] table steps in order; preprocessing: {standardize, impute}, defaults from the learner's
    descriptor; header: the user's say on the file's first row, None to let read_csv decide; sheet: the sheet
    of an Excel workbook that was read; sample: {rows, seed}
    when a learner with a row limit was trained on a random sample of the rows)."""
    if not isinstance(setup, dict):
        raise DataError("export_python needs the run's setup: file, target, features, model, params, "
                        "evaluation.")
    model = setup.get("model")
    learner = registry.get(model)
    cls = learner.estimator
    params = {k: v for k, v in (setup.get("params") or {}).items() if k != "trace"}
    cls(**params)._check_params()
    evaluation = check_evaluation(setup.get("evaluation"))
    target, features, file = setup.get("target"), setup.get("features"), setup.get("file") or "data.csv"
    supervised = cls.task in SUPERVISED
    if supervised and not target:
        raise DataError(f"{learner.label} needs a target column in the setup.")
    args = ", ".join(f"{k}={v!r}" for k, v in params.items())
    drops, preprocessor = _preprocessing_lines(check_choices(setup.get("preprocessing"), learner), target,
                                               supervised)
    lines = [f'"""{learner.label} on {file}, as trained in the pellucid workbench."""', "",
             "import numpy as np", "", *_import_lines(learner, "read_xlsx" if is_xlsx(file) else "read_csv"), "",
             _read_line(file, setup.get("header"), setup.get("sheet")),
             *_kind_lines(setup.get("kinds")),
             *_missing_lines(setup.get("missing")),
             f"target = {target if supervised else None!r}",
             f"features = {features!r}" if features else "features = [c for c in table.columns if c != target]",
             *_date_lines(features),
             *drops, *sample_lines(setup.get("sample"), learner.label, "table.n_rows", "table.take({})"),
             "X = table.select(features)", "y = table.column(target) if target else None",
             "rows = np.arange(table.n_rows)",
             "# imputation and standardisation are fitted on the training rows only, then applied to every row",
             f"model = Pipeline({preprocessor}, {model}({args}))"]
    if evaluation["method"] == "kfold" and supervised:
        stratified = evaluation["stratify"] and cls.task == "classification"
        lines += [f"cv = cross_validate(model, X, y, k={evaluation['k']}, stratified={stratified}, "
                  f"shuffle=True, seed={evaluation['seed']})",
                  "print('fold scores:', cv['test_scores'])",
                  "print(f\"mean {cv['mean']!r}, std {cv['std']!r}\")",
                  "model.fit(X, y)  # the final model: trained on all rows"]
        lines += _report_lines(cls.task, '[("all rows", rows)]')
    else:
        lines += (_split_lines(evaluation, cls.task == "classification") if evaluation["method"] == "split"
                  else ["train, validation, test = rows, rows[:0], rows[:0]"])
        lines += ["model.fit(X.take(train), None if y is None else y[train])"]
        lines += _report_lines(cls.task, '[("train", train), ("validation", validation), ("test", test)]')
    name = pathlib.PurePath(file).stem or "data"
    return {"filename": f"{name}_{model}.py", "script": "\n".join(lines) + "\n"}
