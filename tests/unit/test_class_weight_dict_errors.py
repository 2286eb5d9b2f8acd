"""class_weight as a dict {label: weight}: what it gives each class, the DataErrors for a dict that does not
fit the target (a label that is not a class, a weight that is not a positive number), and model files that
keep such a dict (its labels as [label, weight] pairs) or hold one that disagrees with their weights."""

import json
import math
import warnings

import numpy as np
import pytest

import pellucid
from pellucid.core import serialize
from pellucid.core.errors import DataError

LEARNERS = (pellucid.DecisionTreeClassifier, pellucid.LogisticRegression, pellucid.Perceptron)

X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 0.0], [4.0, 1.5], [5.0, 3.0], [6.0, 2.5], [7.0, 0.2]])
CODES = np.array([0, 0, 1, 0, 1, 2, 2, 0])


def fit(learner, y, class_weight):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pellucid.ConvergenceWarning)  # the perceptron may not separate them
        return learner(class_weight=class_weight).fit(X, y)


@pytest.mark.parametrize("learner", LEARNERS)
def test_classes_left_out_weigh_one(learner):
    assert fit(learner, CODES, {2: 3.5}).class_weights_.tolist() == [1.0, 1.0, 3.5]
    texts = np.array(["no", "maybe", "yes"])[CODES]  # classes_ sorted: maybe, no, yes
    assert fit(learner, texts, {"yes": 0.5, "maybe": 4}).class_weights_.tolist() == [4.0, 1.0, 0.5]
    assert fit(learner, CODES, {0.0: 2.0}).class_weights_.tolist() == [2.0, 1.0, 1.0]  # 0.0 == 0, as in Python


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("y, class_weight, named", [
    (CODES, {0: 2.0, 5: 1.0}, "5"),  # no class 5
    (CODES, {"1": 2.0}, "'1'"),  # the text "1" does not name the number 1
    (np.array(["a", "b", "c"])[CODES], {"a": 2.0, "d": 1.0, 7: 3.0}, "'d', 7"),
    (np.array(["1", "2", "3"])[CODES], {1: 2.0}, "1"),  # the number 1 does not name the text "1"
])
def test_a_label_that_is_not_a_class_is_named(learner, y, class_weight, named):
    with pytest.raises(DataError, match="not a class") as caught:
        fit(learner, y, class_weight)
    assert caught.value.field == "params.class_weight"
    assert f"weight to {named}, which" in str(caught.value)
    assert "its classes are" in str(caught.value)


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("class_weight, shown", [
    ({0: 0}, "got 0 for class 0"), ({1: -2.0}, "got -2.0 for class 1"), ({0: math.nan}, "got nan"),
    ({0: math.inf}, "got inf"), ({0: "2"}, "got '2'"), ({0: True}, "got True"), ({0: None}, "got None"),
])
def test_a_weight_that_is_not_a_positive_number_is_refused(learner, class_weight, shown):
    with pytest.raises(DataError, match="positive number") as caught:
        fit(learner, CODES, class_weight)
    assert caught.value.field == "params.class_weight" and shown in str(caught.value)


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("class_weight", [{None: 2.0}, {(0, 1): 2.0}, {math.nan: 2.0}, "auto", 1, [1.0, 2.0]])
def test_other_values_are_refused_by_name(learner, class_weight):
    with pytest.raises(DataError, match="class_weight") as caught:
        fit(learner, CODES, class_weight)
    assert caught.value.field == "params.class_weight"


def test_the_page_is_offered_none_and_balanced_only():
    for learner in LEARNERS:
        rule = learner._param_rules["class_weight"].describe()
        assert rule["kind"] == "choice" and rule["none_ok"] and rule["options"] == ["balanced"]


# --- model files ------------------------------------------------------------------------------------

def test_a_dict_with_labels_that_are_not_texts_is_written_as_pairs():
    written = json.loads(json.dumps(serialize.encode({0: 2.0, np.float64(2.5): 1.0, "a": [3]})))
    assert written == {"__pairs__": [[0, 2.0], [2.5, 1.0], ["a", [3]]]}
    assert serialize.decode(written) == {0: 2.0, 2.5: 1.0, "a": [3]}
    assert serialize.encode({"a": 1, "b": np.int64(2)}) == {"a": 1, "b": 2}  # texts: an object, as before


@pytest.mark.parametrize("pairs, why", [("x", "list of"), ([[0, 1.0], [0, 2.0]], "twice"), ([[0]], "list of"),
                                        ([[[0], 1.0]], "keys that are")])
def test_damaged_pairs_are_refused(pairs, why):
    with pytest.raises(DataError, match=why):
        serialize.decode({"__pairs__": pairs}, "params")


@pytest.mark.parametrize("learner", LEARNERS)
def test_a_file_whose_weights_disagree_with_its_dict_is_refused(learner):
    d = json.loads(json.dumps(fit(learner, CODES, {1: 3.0}).to_dict()))
    assert d["params"]["class_weight"] == {"__pairs__": [[1, 3.0]]}
    assert pellucid.from_dict(d).class_weight == {1: 3.0}
    d["params"]["class_weight"] = {"__pairs__": [[1, 4.0]]}  # the state still holds 3
    with pytest.raises(DataError, match="class_weight") as caught:
        pellucid.from_dict(d)
    assert caught.value.field == "model_file"
    d["params"]["class_weight"] = {"__pairs__": [[9, 3.0]]}  # no class 9
    with pytest.raises(DataError, match="not a class") as caught:
        pellucid.from_dict(d)
    assert caught.value.field == "model_file"


@pytest.mark.parametrize("learner", LEARNERS)
def test_two_class_models_read_back(learner):
    model = fit(learner, CODES == 0, {True: 2.0})  # bool labels; a perceptron keeps one weight vector
    back = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
    assert back.class_weight == {True: 2.0}
    assert np.array_equal(back.predict(X), model.predict(X))
