"""The data layer: reading CSVs into Tables, typing their cells, encoding columns into the numbers a
learner reads, and the built-in and generated example data sets."""
