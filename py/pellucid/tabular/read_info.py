"""What read_csv decided about a file, for the page to show (and to offer the header switch): the
delimiter, whether the first row was read as names, the columns read with decimal commas, the columns
renamed, and notes in plain sentences."""

from dataclasses import dataclass, field

from .dialect import delimiter_name


@dataclass(frozen=True)
class ReadInfo:
    """How a CSV was read. A Table made by read_csv carries one as `table.read_info`.

    delimiter: the character that separates values (",", ";", "\\t", or what a "sep=" line named);
        None for a file of one column, which has none.
    sep_line: True when the file's first line was Excel's "sep=X", which named the delimiter.
    header: True when the first row was read as the column names, False when it was read as data.
    header_detected: True when read_csv decided `header` itself (read_csv(header=None)); False when
        the caller said.
    decimal_comma: the columns read as numbers written with a decimal comma ("1,5" is 1.5).
    renamed: (name in the file, name given) for each blank or repeated header name.
    notes: sentences for people, one per thing worth telling (header decision, sep line, decimal
        commas, renamed columns, columns kept as text that look like numbers).
    sheets, sheet: an Excel workbook's sheets and the one read (tabular/xlsx.py); () and None for a CSV.
    """

    delimiter: str
    sep_line: bool
    header: bool
    header_detected: bool
    decimal_comma: tuple = ()
    renamed: tuple = ()
    notes: tuple = field(default=())
    sheets: tuple = ()
    sheet: str = None

    def to_dict(self):
        """Plain JSON data: the fields above, tuples as lists, plus delimiter_name ("comma", ...)."""
        named = "none (one column)" if self.delimiter is None else delimiter_name(self.delimiter)
        return {"delimiter": self.delimiter, "delimiter_name": named,
                "sep_line": self.sep_line, "header": self.header, "header_detected": self.header_detected,
                "decimal_comma": list(self.decimal_comma), "renamed": [list(pair) for pair in self.renamed],
                "notes": list(self.notes), "sheets": list(self.sheets), "sheet": self.sheet}


_WHY_TEXT = {
    "leading zero": "{cell!r} starts with a zero, so it is a code (a zip code, an ID), not a number",
    "too long": "{cell} is an integer too long to store exactly as a number (beyond 2^53), so it is kept "
                "as text, digit for digit",
    "digit separator": "{cell!r} is not written as a number (no digit separators such as _)",
    "not ASCII": "{cell!r} is written with characters other than the digits 0-9",
}


def text_column_note(name, cell, reason):
    """Why a column whose cells Python could read as numbers is read as text."""
    return f"Column {name!r} is read as text: " + _WHY_TEXT[reason].format(cell=cell.strip()) + "."


def header_note(header, reason, n_columns):
    """What read_csv decided about the first row, and why."""
    if header:
        return f"The first row is read as the column names: {reason}."
    called = "the column is called column_1" if n_columns == 1 else \
        f"the columns are called column_1 to column_{n_columns}"
    return f"The first row is read as data, not names: {reason}; {called}."
