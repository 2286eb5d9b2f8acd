"""Weka's ARFF files (pellucid.tabular.arff): the declared types are the column kinds, "?" is missing,
quoted names and values are unquoted, comments skipped, and bad input is a DataError naming its line.
The bridge's load_csv reads a file named .arff this way, with the same profile and limits."""

import numpy as np
import pytest

from bridgekit import session_with_csv
from pellucid.core.errors import DataError
from pellucid.tabular.arff import read_arff

WEATHER = """% The weather data (Witten & Frank)
% two comment lines

@RELATION 'weather nominal'

@attribute outlook {sunny, overcast, 'rainy day'}
@attribute temperature numeric
@attribute Humidity REAL
@attribute windy {TRUE, FALSE}
@attribute 'when seen' date "yyyy-MM-dd"
@attribute note string
@attribute play {yes,no}

@data
sunny,85,85,FALSE,2024-01-05,'hot, dry',no
% a comment between rows
overcast,?,86,FALSE,2024-01-06,calm,yes
'rainy day', 70 ,96,TRUE,?,"it said \\"rain\\"",yes
?,68,80.5,FALSE,2024-01-08,'?',?
"""


def test_the_declared_types_are_the_kinds_and_question_marks_are_missing():
    table = read_arff(WEATHER.encode())
    assert table.columns == ["outlook", "temperature", "Humidity", "windy", "when seen", "note", "play"]
    assert table.kinds == {"outlook": "categorical", "temperature": "numeric", "Humidity": "numeric",
                           "windy": "categorical", "when seen": "categorical", "note": "categorical",
                           "play": "categorical"}
    np.testing.assert_array_equal(table.column("temperature"), [85, np.nan, 70, 68])
    assert table.column("outlook").tolist() == ["sunny", "overcast", "rainy day", None]
    assert table.column("note").tolist() == ["hot, dry", "calm", 'it said "rain"', "?"]  # a quoted ? is text
    assert table.column("play").tolist() == ["no", "yes", "yes", None]
    assert table.missing == {"outlook": 1, "temperature": 1, "Humidity": 0, "windy": 0, "when seen": 1,
                             "note": 0, "play": 1}
    assert "ARFF" in table.read_info.notes[0] and "weather nominal" in table.read_info.notes[0]


def test_an_integer_column_of_codes_is_still_numbers_as_declared():
    table = read_arff(b"@relation r\n@attribute zip integer\n@attribute c {01,02}\n@data\n00501,01\n7,02\n")
    assert table.kinds == {"zip": "numeric", "c": "categorical"}
    assert table.column("zip").tolist() == [501.0, 7.0] and table.column("c").tolist() == ["01", "02"]


@pytest.mark.parametrize("text, line, words", [
    ("@relation r\n@attribute a numeric\n@data\n1\nx\n", 5, "not a number"),
    ("@relation r\n@attribute a {p,q}\n@data\np\nr\n", 5, "not one of the values"),
    ("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1,2\n3\n", 6, "1 values"),
    ("@relation r\n@attribute a numeric\n@data\n{0 1}\n", 4, "sparse"),
    ("@relation r\n@attribute a blob\n@data\n1\n", 2, "'blob'"),
    ("@relation r\n@attribute a relational\n@data\n1\n", 2, "relational"),
    ("@relation r\n@attribute a string\n@data\n'open\n", 4, "not closed"),
    ("@relation r\nhello\n@data\n1\n", 2, "not an ARFF header line"),
    ("@relation r\n@data\n1\n", 2, "before any @attribute"),
])
def test_bad_input_is_a_data_error_naming_the_line(text, line, words):
    with pytest.raises(DataError) as caught:
        read_arff(text.encode())
    assert f"Line {line}" in str(caught.value) and words in str(caught.value)


def test_no_data_line_and_the_row_limit():
    with pytest.raises(DataError, match="no @data"):
        read_arff(b"@relation r\n@attribute a numeric\n")
    rows = "".join(f"{i}\n" for i in range(50))
    with pytest.raises(DataError, match="50 rows; the limit here is 10"):
        read_arff(f"@relation r\n@attribute a numeric\n@data\n{rows}".encode(), max_rows=10)
    with pytest.raises(DataError):
        read_arff(f"@relation r\n@attribute a numeric\n@data\n{rows}".encode(), max_bytes=20)


def test_load_csv_reads_an_arff_file_by_its_extension(tmp_path):
    session = session_with_csv(tmp_path, WEATHER, name="weather.arff")
    table = session.tables[session.table_id]
    assert table.kinds["temperature"] == "numeric" and table.column("note").tolist()[0] == "hot, dry"
    reply = session.handle("load_csv", {"path": str(tmp_path / "weather.arff"), "name": "weather.arff"})
    profile = {column["name"]: column for column in reply["result"]["profile"]}
    assert profile["when seen"]["kind"] == "date" and profile["temperature"]["kind"] == "number"
    assert profile["outlook"]["missing"] == 1
    trained = session.handle("train", {"table_id": reply["result"]["table_id"], "target": "play",
                                       "features": ["outlook", "temperature", "windy"],
                                       "model": "DecisionTreeClassifier", "params": {}})
    assert trained["ok"], trained
