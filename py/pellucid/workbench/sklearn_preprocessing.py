"""The data part of the scikit-learn script (workbench.sklearn_script): the CSV (or Excel sheet) read as the
page read it, and the preprocessing the run applied, as scikit-learn steps.

`data_lines` reads the file; `preprocessing_lines` replays the table's missing-value steps and the rows the
run left out, then builds `preprocess`, the pipeline's first steps: the run's preparation (workbench.prepare:
missing cells imputed, numeric columns standardised, fitted on the training rows) and the twin's reading of
the columns (one-hot, or category codes). A new kind of preprocessing step is written here.
"""

import re

from ..core.errors import DataError
from ..core.settings import IMPUTE_KEEP, MISSING_MARKERS
from ..tabular.cells import NUMBER_ONLY_MARKERS
from ..tabular.xlsx import is_xlsx
from ..tabular.dates import PARTS, date_format, part_name
from .runs import SUPERVISED
from .script import sample_lines


def data_lines(table, file_name, info=None):
    """Read the CSV as the page read it into `table`: every cell as text, the page's missing-value cells as
    missing, then the numeric columns as numbers."""
    info = info or getattr(table, "read_info", None)
    delimiter = getattr(info, "delimiter", None) or ","
    header = "0" if getattr(info, "header", True) else "None"
    skip = ", skiprows=1" if getattr(info, "sep_line", False) else ""
    numeric = [c for c in table.columns if table.kinds[c] == "numeric"]
    decimal_comma = [c for c in getattr(info, "decimal_comma", ()) if c in numeric]
    lines = ["# The data, read as the page read it: these cells (stripped, any case) are missing values.",
             f"MISSING = {sorted(MISSING_MARKERS)!r}",
             f"COLUMNS = {list(table.columns)!r}",
             f"NUMERIC = {numeric!r}"]
    if is_xlsx(file_name):
        lines += _sheet_lines(file_name, getattr(info, "sheet", None), getattr(info, "header", True))
    else:
        lines.append(f"table = pd.read_csv({file_name!r}, sep={delimiter!r}, header={header}{skip}, names=COLUMNS, "
                     "dtype=object, keep_default_na=False)")
    lines.append("table = table.mask(table.apply(lambda column: column.str.strip().str.lower().isin(MISSING)))")
    if decimal_comma:
        lines += [f"for column in {decimal_comma!r}:  # written with a decimal comma",
                  "    table[column] = table[column].str.replace(',', '.')"]
    if numeric:
        lines += [f"# In a column of numbers, {sorted(NUMBER_ONLY_MARKERS)!r} is missing too (as pandas reads it).",
                  "table[NUMERIC] = table[NUMERIC].apply(lambda column: pd.to_numeric(column.str.strip().mask(",
                  f"    column.str.strip().str.lower().isin({sorted(NUMBER_ONLY_MARKERS)!r}))))"]
    return lines


def _sheet_lines(file_name, sheet, header):
    """An Excel sheet read as the page reads one (tabular/xlsx.py): every cell as the text Excel writes in a
    CSV, error values and empty cells empty, rows with no value skipped, the first row the names if it was."""
    return [
        "EXCEL_ERRORS = {'#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A', '#GETTING_DATA'}",
        "",
        "",
        "def cell_text(value):",
        '    """A cell as the page reads it: the text Excel writes for it in a CSV (dates as 2024-03-01)."""',
        "    if value is None or value is pd.NaT or (isinstance(value, float) and value != value):",
        "        return ''",
        "    if isinstance(value, bool):",
        "        return 'TRUE' if value else 'FALSE'",
        "    if isinstance(value, float):",
        "        return str(int(value)) if value.is_integer() and abs(value) < 2 ** 53 else repr(value)",
        "    if hasattr(value, 'year') and hasattr(value, 'hour'):  # a date and time",
        "        midnight = (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0)",
        "        return value.strftime('%Y-%m-%d') if midnight else value.isoformat(' ')",
        "    if hasattr(value, 'isoformat'):  # a date or a time of day alone",
        "        return value.isoformat()",
        "    return '' if isinstance(value, str) and value in EXCEL_ERRORS else str(value)",
        "",
        "",
        f"cells = pd.read_excel({file_name!r}, sheet_name={sheet if sheet is not None else 0!r}, header=None, "
        "dtype=object, na_filter=False)",
        "cells = cells.apply(lambda column: column.map(cell_text))",
        "cells = cells[(cells != '').any(axis=1)]  # a row with no value is skipped, as a blank line of a CSV",
        f"table = cells.iloc[{1 if header else 0}:, :len(COLUMNS)].reset_index(drop=True)",
        "table.columns = COLUMNS",
    ]


def date_columns(features, table):
    """{column: DateFormat} of the date columns of `table` whose parts ("<column> year", ...) are among
    `features`; a DataError for a feature that is neither a column of the table nor such a part."""
    dates, unknown = {}, []
    for feature in features:
        if feature in table.columns:
            continue
        source = next((feature[:-len(part) - 1] for part in PARTS if feature.endswith(" " + part)
                       and feature[:-len(part) - 1] in table.columns), None)
        fmt = date_format(table.column(source)) if source is not None else None
        if fmt is None:
            unknown.append(feature)
        else:
            dates[source] = fmt
    if unknown:
        raise DataError(f"The scikit-learn script reads the file's own columns, and {', '.join(map(repr, unknown))} "
                        "is not one of them nor a part of one of its dates.")
    return dates


def date_lines(dates):
    """Each date column taken apart as the page took it (tabular.dates): year, month, day of week (Monday
    0) and day of year, missing where a cell is missing or no real date."""
    if not dates:
        return []
    formats = {column: _date_pattern(fmt) for column, fmt in dates.items()}
    names = {column: [part_name(column, part) for part in PARTS] for column in dates}
    return ["# Date columns taken apart as the page took them: year, month, day of week (Monday 0), day of year.",
            f"DATES = {formats!r}",
            f"DATE_PARTS = {names!r}",
            "for column, (pattern, order) in DATES.items():",
            "    numbers = table[column].str.strip().str.extract(pattern).astype(float)",
            "    numbers.columns = list(order)",
            "    when = pd.to_datetime(pd.DataFrame({'year': numbers['y'], 'month': numbers['m'], "
            "'day': numbers['d']}), errors='coerce')",
            "    parts = [when.dt.year, when.dt.month, when.dt.dayofweek, when.dt.dayofyear]",
            "    for name, values in zip(DATE_PARTS[column], parts):",
            "        table[name] = values.astype(float)",
            "NUMERIC += [name for names in DATE_PARTS.values() for name in names]", ""]


def _date_pattern(fmt):
    """(regular expression of the date at the start of a cell, the order of its numbers)."""
    sep = re.escape(fmt.separator)
    if fmt.order == "ymd":
        return rf"^(\d{{4}}){sep}(\d{{1,3}}){sep}(\d{{1,3}})(?:[ T].*)?$", "ymd"
    return rf"^(\d{{1,3}}){sep}(\d{{1,3}}){sep}(\d{{4}})(?:[ T].*)?$", fmt.order


def preprocessing_lines(run, steps, prepare, params, dates=None):
    """The preprocessing, in the order the page applied it: the table's missing-value steps (before the
    split), the rows the run left out, then `preprocess`, the pipeline's first steps, fitted on the
    training rows: the run's preparation (missing cells imputed, numeric columns standardised) and the
    twin's reading of the columns (categorical ones one-hot, or every column numbered for a twin that
    reads codes; numeric ones standardised too when the model's own `standardize` is on). `dates`
    ({column: DateFormat}) are taken apart after the missing-value steps, as the page did at training; the
    run's table then has their parts as columns."""
    dated = {part_name(column, part) for column in dates or {} for part in PARTS}
    features, target = run.features, run.target if run.task in SUPERVISED else None
    choices = run.setup.get("preprocessing") or {}
    lines = [*_missing_lines(steps.get("missing") or [], [c for c in run.table.columns if c not in dated])]
    lines += date_lines(dates or {})
    left_out = ([target] if target else []) + (features if choices.get("impute") == "drop" else [])
    if left_out:
        lines.append(f"table = table.dropna(subset={left_out!r}).reset_index(drop=True)  # rows the run left out")
    lines += sample_lines(run.setup.get("sample"), run.label, "len(table)", "table.iloc[{}].reset_index(drop=True)")
    lines += ["", f"features = {features!r}", "X = table[features]",
              f"y = table[{target!r}].to_numpy()" if target else "y = None", "n = len(table)", ""]
    categorical = [c for c in features if run.table.kinds[c] == "categorical"]
    numeric = [c for c in features if c not in categorical]
    lines += _run_preparation_lines(run, numeric, categorical)
    if prepare == "ordinal" and prepares(run):
        return lines + ORDINAL_AFTER_PREPARATION
    if prepare == "ordinal":
        return lines + ["# Every column's values numbered (the twin reads category codes).",
                        "categories = [sorted(X[column].dropna().unique()) for column in features]",
                        "n_categories = [len(values) for values in categories]",
                        "preprocess.append(OrdinalEncoder(categories=categories))"]
    scaler = "StandardScaler()" if params.get("standardize") else None
    if not categorical:
        return lines + ([f"preprocess.append({scaler})  # the model's own standardize"] if scaler else [])
    parts = [f"    (\"onehot\", OneHotEncoder(handle_unknown=\"ignore\", sparse_output=False), {categorical!r})"]
    if numeric:
        parts.append(f"    (\"numeric\", {scaler or repr('passthrough')}, {numeric!r})")
    return lines + ["# Categorical columns one-hot encoded" + (", numeric ones standardised" if scaler else "")
                    + ", as the pellucid model reads them.",
                    "preprocess.append(ColumnTransformer([", ",\n".join(parts) + "]))"]


# A twin that reads category codes after a preparation fitted on the training rows: the codes number each
# column's values over all rows as that preparation leaves them (a filled-in mean is a value too).
ORDINAL_AFTER_PREPARATION = [
    "",
    "def ordinal_encoder(train):",
    '    """The values of every column over all rows, as the preparation fitted on `train` leaves them."""',
    "    prepared = clone(preprocess[0]).fit(X.iloc[train]).transform(X)",
    "    categories = [sorted(prepared[column].unique()) for column in prepared.columns]",
    "    return OrdinalEncoder(categories=categories), [len(values) for values in categories]"]


def prepares(run):
    """Whether the run imputed or standardised before its model read the columns."""
    preprocessor = getattr(run, "preprocessor", None)
    return bool(getattr(preprocessor, "impute", None) or getattr(preprocessor, "standardize", False))


def _run_preparation_lines(run, numeric, categorical):
    """`preprocess = [...]`: the run's imputation and standardisation (workbench.prepare), as a
    ColumnTransformer that keeps the column names (pandas out) for the steps after it."""
    preprocessor = getattr(run, "preprocessor", None)
    impute = getattr(preprocessor, "impute", None)
    standardize = bool(getattr(preprocessor, "standardize", False))
    if not impute and not standardize:
        return ["preprocess = []  # the run imputed nothing and standardised nothing"]
    keep = impute == IMPUTE_KEEP  # missing numbers left to the tree, which scikit-learn's trees take too
    numeric_steps = ([f"SimpleImputer(strategy={impute!r})"] if impute and not keep else []) + \
        (["StandardScaler()"] if standardize else [])
    parts = []
    if numeric:
        steps = f"make_pipeline({', '.join(numeric_steps)})" if numeric_steps else "'passthrough'"
        parts.append(f"    (\"numeric\", {steps}, {numeric!r})")
    if categorical:
        fill = 'SimpleImputer(strategy="most_frequent")' if impute else "'passthrough'"
        parts.append(f"    (\"categorical\", {fill}, {categorical!r})")
    filled = "missing categories filled, missing numbers left to the tree" if keep else "missing cells imputed"
    done = " and ".join(what for what, on in ((filled, impute), ("numeric columns standardised", standardize)) if on)
    return [f"# The run's preparation, fitted on the training rows: {done}.",
            "preprocess = [ColumnTransformer([", ",\n".join(parts) + "],",
            "    verbose_feature_names_out=False).set_output(transform=\"pandas\")]", ""]


def _missing_lines(missing, columns):
    lines = []
    for step in missing:
        chosen = step.get("columns") or list(columns)
        if step.get("strategy") == "drop":
            lines.append(f"table = table.dropna(subset={chosen!r}).reset_index(drop=True)  # as the page dropped them")
        elif step.get("strategy") == "fill":
            lines += [f"for column in {chosen!r}:  # numeric: the mean; text: the most frequent, first seen on a tie",
                      "    present = table[column].dropna()",
                      "    fill = present.mean() if column in NUMERIC else present.value_counts(sort=False).idxmax()",
                      "    table[column] = table[column].fillna(fill)"]
    return lines
