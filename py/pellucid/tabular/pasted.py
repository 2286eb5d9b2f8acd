"""A table pasted from a spreadsheet or a web page: the clipboard's text, read as a CSV.

Excel, LibreOffice and Google Sheets put a copied range on the clipboard as tab-separated text, and so do
browsers for a copied HTML table; read_csv detects the tab (or the commas or semicolons of pasted CSV text),
so a paste gets the same reader, kinds, limits and notes as an upload. What read_csv cannot make a table of
here (nothing pasted, one cell, a single row) is said in terms of the paste, with field "paste" so the page
points at the box to paste into.
"""

from ..core.errors import DataError
from .csvio import read_csv
from .dialect import sniff_delimiter
from .text_source import decode, read_source

NAME = "pasted table"
FIELD = "paste"
_COPY_HOW = ("copy the table's cells (its header row and at least one row of data) in the spreadsheet or on "
             "the web page, then paste them here")


def read_pasted(source, *, header=None, progress=None, max_bytes=None, max_rows=None):
    """A Table from pasted text (bytes, a path or a file object, as read_csv takes them): a DataError with
    field "paste" when it is empty, one cell or a single row, or when read_csv refuses it."""
    try:
        raw = read_source(source, max_bytes)
        text = decode(raw) if raw.strip() else ""
    except DataError as exc:
        raise DataError(f"The pasted text cannot be read: {_as_paste(exc)}", field=FIELD) from None
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise DataError(f"Nothing was pasted: {_COPY_HOW}.", field=FIELD)
    if len(lines) == 1:
        cells = len(lines[0].split(sniff_delimiter(text)))
        what = "a single cell" if cells == 1 else f"a single row of {cells} cells"
        raise DataError(f"The pasted text is {what}, not a table: {_COPY_HOW}.", field=FIELD)
    try:
        return read_csv(text.encode("utf-8"), header=header, progress=progress, max_rows=max_rows)
    except DataError as exc:
        raise DataError(f"The pasted table cannot be read: {_as_paste(exc)}", field=FIELD) from None


def _as_paste(exc):
    """read_csv's message, as the second half of a sentence about the paste."""
    message = str(exc)
    return message[:1].lower() + message[1:]
