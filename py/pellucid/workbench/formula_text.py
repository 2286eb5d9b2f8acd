"""Numbers and column names as a formula writes them: never a negative zero ("-0.000" reads as a sign
that is not there), and a column name that could pass for one of the formula's symbols ("z", "w", "B")
set in quotes, so it reads as the column."""

import re

# Words the formulas use as symbols or operators: a column named so is quoted like a one-letter name.
FORMULA_WORDS = frozenset({"Gain", "GainRatio", "SplitInfo", "Gini", "dof", "bias", "score", "mean", "variance",
                           "inertia"})
_SYMBOL = re.compile(r"^[^\W\d_]([_\d]\d*)?$")  # a letter, perhaps with an index: x, w1, x_2, β


def fixed(value, spec):
    """`format(value, spec)` without a negative zero: -0.0 and -0.0004 at ".3f" both write 0.000."""
    text = format(float(value), spec)
    if text.startswith("-"):
        try:
            if float(text) == 0:
                return text[1:]
        except ValueError:
            pass
    return text


def symbol_like(name):
    """True when a column name could be read as a symbol of the formula it is written into."""
    name = str(name)
    return bool(_SYMBOL.match(name)) or name in FORMULA_WORDS


def name_text(name):
    """A column name in a formula's plain text: quoted when it looks like a symbol."""
    return f"“{name}”" if symbol_like(name) else str(name)


def name_tex(name):
    """A column name in a formula's TeX: upright text, quoted when it looks like a symbol."""
    clean = str(name).replace("\\", "").replace("{", "").replace("}", "").replace("$", r"\$") \
        .replace("&", r"\&").replace("%", r"\%").replace("_", r"\_").replace("#", r"\#") \
        .replace("^", "").replace("~", "")
    return r"\text{" + (f"“{clean}”" if symbol_like(name) else clean) + "}"
