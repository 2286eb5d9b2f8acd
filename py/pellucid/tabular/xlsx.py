"""Excel workbooks (.xlsx): one sheet read into the Table read_csv makes of that sheet saved as CSV.

The cells are read with openpyxl (pure Python, so it runs in Pyodide too), its formulas as the values Excel
last calculated (data_only), and written out as the CSV text Excel would save: numbers exactly as stored
(Python's shortest round-trip form), dates as 2024-03-01 (with the time when there is one), TRUE/FALSE,
empty cells and Excel's error values (#DIV/0!, #N/A...) as empty. That text then goes through read_csv,
so a workbook gets the very same header rule, column kinds, codes kept as text, missing markers, limits
and notes as the CSV of it; dates become text the profile reads as dates (tabular/dates.py), as they do in a
CSV. Rows with no value are skipped, like blank lines in a CSV.

openpyxl is imported only here, when a workbook is read: pellucid's one dependency stays numpy. Without it,
a NotLoadedError says how to install it (in the page it is loaded the first time a workbook is opened).
"""

import csv
import dataclasses
import datetime
import importlib
import io
import os
import pathlib

from ..core.errors import DataError, NotLoadedError
from .csv_parse import raise_too_many_rows
from .csvio import read_csv
from .text_source import read_source

PACKAGE = "openpyxl"
_ENCRYPTED = b"\xd0\xcf\x11\xe0"  # an OLE compound file: an encrypted workbook, or the old .xls format
_ZIP = b"PK\x03\x04"
_EXACT_INT = 2 ** 53  # whole floats below this are written without ".0", as Excel shows them


def read_xlsx(source, *, sheet=None, header=None, progress=None, max_bytes=None, max_rows=None, name=None):
    """A Table from one sheet of an .xlsx workbook (a path, bytes or a binary file object).

    sheet: the sheet's name; None reads the first. header, progress, max_bytes, max_rows: as read_csv takes
    them (max_rows counts the rows below the header, and reading stops as soon as it is passed). name: the
    file's name for messages (a path's own name by default).
    The table's read_info lists the workbook's sheets and the one read, with a note saying so.
    """
    name = name or (pathlib.PurePath(source).name if isinstance(source, (str, os.PathLike)) else "The workbook")
    openpyxl = import_openpyxl()
    report = progress or (lambda fraction: None)
    data = read_source(source, max_bytes)
    if isinstance(data, str):
        raise DataError(f"{name} was opened as text; open the workbook in binary mode ('rb').")
    book = _open(openpyxl, data, name)
    try:
        sheets = [ws.title for ws in book.worksheets]
        chosen = _sheet(book, sheets, sheet, name)
        text, notes = _sheet_as_csv(chosen, name, max_rows, report)
    finally:
        book.close()
    if not text.strip():
        raise DataError(f"The sheet {chosen.title!r} of {name} is empty: it has no cells with values."
                        + (" Choose another sheet." if len(sheets) > 1 else ""), field="sheet")
    table = read_csv(text.encode("utf-8"), header=header, max_rows=max_rows,
                     progress=lambda fraction: report(0.8 + 0.2 * fraction))
    where = f"sheet {chosen.title!r}" + (f" (of {len(sheets)}: {', '.join(sheets)})" if len(sheets) > 1 else "")
    notes = [f"Read from the Excel workbook's {where}; formulas give the values Excel last calculated."] + notes
    table.read_info = dataclasses.replace(table.read_info, notes=tuple(notes) + table.read_info.notes,
                                          sheets=tuple(sheets), sheet=chosen.title)
    return table


def import_openpyxl():
    """The openpyxl module, or a NotLoadedError saying how to get it."""
    try:
        import openpyxl
    except ImportError:
        importlib.invalidate_caches()  # installed since the last look at site-packages (the page loads it then)
        try:
            import openpyxl
        except ImportError:
            openpyxl = None
    if openpyxl is None:
        raise NotLoadedError("Reading Excel workbooks (.xlsx) needs the openpyxl package: pip install openpyxl "
                             "(or save the sheet as CSV).", package=PACKAGE)
    return openpyxl


def is_xlsx(name):
    """Whether a file is read as an Excel workbook (by its name's extension)."""
    return isinstance(name, str) and name.lower().rstrip().endswith((".xlsx", ".xlsm"))


def _open(openpyxl, data, name):
    """The workbook, read-only; a DataError naming the file when it is encrypted, not a workbook or damaged."""
    if data.startswith(_ENCRYPTED):
        raise DataError(f"{name} is password-protected (or an old .xls workbook), so it cannot be read here. "
                        "In Excel, remove the password (or save it as .xlsx or CSV) and open it again.")
    if not data.startswith(_ZIP):
        raise DataError(f"{name} is not an Excel workbook (.xlsx files are zip archives; this one is not). "
                        "If it is a CSV, rename it to .csv.")
    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises whatever its zip and XML readers meet: all mean damaged
        raise DataError(f"{name} could not be read as an Excel workbook; it may be damaged "
                        f"({type(exc).__name__}: {str(exc)[:120]}). Open it in Excel and save it again, "
                        "or save the sheet as CSV.") from None


def _sheet(book, sheets, wanted, name):
    if not sheets:
        raise DataError(f"{name} has no sheets of cells (only charts).", field="sheet")
    if wanted is None:
        return book[sheets[0]]
    if wanted not in sheets:
        raise DataError(f"{name} has no sheet {wanted!r}; its sheets are: {', '.join(sheets)}.", field="sheet")
    return book[wanted]


def _sheet_as_csv(ws, name, max_rows, report):
    """(the sheet as CSV text, notes): rows with no value skipped, every row as wide as the widest."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    errors = {}
    total = ws.max_row or 0  # from the sheet's stored size, when it has one: for progress only
    kept, width = 0, 0
    rows = []
    try:
        for number, row in enumerate(ws.iter_rows(), start=1):
            texts = [_cell_text(cell, errors) for cell in row]
            while texts and texts[-1] == "":
                texts.pop()
            if not texts:
                continue
            kept += 1
            if max_rows is not None and kept > max_rows + 1:  # the header and max_rows rows of data
                raise_too_many_rows(max(total - 1, kept - 1), max_rows)
            rows.append(texts)
            width = max(width, len(texts))
            if total and number % 5000 == 0:
                report(0.8 * number / total)
    except DataError:
        raise
    except Exception as exc:  # a damaged sheet inside a readable workbook
        raise DataError(f"{name}: the sheet {ws.title!r} could not be read; the workbook may be damaged "
                        f"({type(exc).__name__}: {str(exc)[:120]}).") from None
    for texts in rows:
        writer.writerow(texts + [""] * (width - len(texts)))
    notes = []
    if errors:
        shown = ", ".join(f"{value} ({count})" for value, count in sorted(errors.items()))
        notes.append(f"Cells holding Excel's error values are read as missing: {shown}.")
    return out.getvalue(), notes


def _cell_text(cell, errors):
    """A cell's value as Excel writes it in a CSV; an error value (#DIV/0!) counted in `errors`, and empty."""
    value = cell.value
    if value is None:
        return ""
    if getattr(cell, "data_type", None) == "e":
        errors[str(value)] = errors.get(str(value), 0) + 1
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < _EXACT_INT else repr(value)
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d") if value.time() == datetime.time() else value.isoformat(" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)
