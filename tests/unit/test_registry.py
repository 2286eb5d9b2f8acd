"""The registry is the one place that knows the learners: every learner has a descriptor, no code outside
a learner's own module and its descriptor names its class, every key a descriptor names has its table
entry in the workbench, and the package's modules import one another without a circle."""

import ast
import re
from pathlib import Path

import pytest

import pellucid
from pellucid.core.descriptor import CAPABILITIES, Learner, Task
from pellucid.core.errors import DataError
from pellucid.learners import registry
from pellucid.workbench import exercises, explain, menus, steps, summaries

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "py" / "pellucid"
NAMES = registry.names()

# Files that may name a learner's class besides its own module and its catalog module, and why.
ALLOWED = {
    "__init__.py": "the package's public names: `from pellucid import KMeans`",
    "learners/tree/__init__.py": "the tree package's public names",
    "learners/ensemble/__init__.py": "the ensemble package's public names",
    "learners/network/__init__.py": "the network package's public names",
    "learners/ensemble/growers.py": "an ensemble is made of the notes' trees: it grows them as its members",
    "learners/ensemble/gradient_boosting.py": "gradient boosting grows the notes' regression trees as its members",
    "learners/ensemble/adaboost.py": "AdaBoost grows the notes' classification trees (stumps) as its members",
    "learners/catalog/boosting.py": "AdaBoost's twin names scikit-learn's tree, the estimator it boosts",
    "learners/catalog/ensembles.py": "the bagging twins name scikit-learn's trees, the estimator its bagging takes",
    "workbench/boundary.py": "draws any model over the plane of the first two principal components: "
                             "it uses PCA as a tool, not as the run's learner",
    "evaluation/cluster_metrics.py": "the elbow curve is defined on k-means: it runs it for each k",
}


def _own_files(learner):
    """The learner's own module and its descriptor's catalog module, relative to the package."""
    own = Path(*learner.estimator.__module__.split(".")[1:]).with_suffix(".py")
    catalog = next(Path("learners/catalog") / f"{module}.py" for module, members in _catalog_members().items()
                   if learner.name in members)
    return {own.as_posix(), catalog.as_posix()}


def _catalog_members():
    from pellucid.learners import catalog
    return {name: {d.name for d in getattr(catalog, name).LEARNERS}
            for name in ("trees", "ensembles", "boosting", "linear", "bayes", "neighbours", "kernels", "network",
                         "clustering",
                         "projection")}


def _names_in_python(tree):
    """Identifiers and whole string constants (not prose) that equal a learner's class name, and the
    arguments of startswith/endswith that a class name starts or ends with (a test by name)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.name.split(".")[-1])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("startswith", "endswith"):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.update(n for n in NAMES if n.startswith(arg.value) or n.endswith(arg.value))
    return found & set(NAMES)


def test_every_public_estimator_has_a_descriptor():
    public = {name for name in pellucid.__all__ if isinstance(getattr(pellucid, name), type)
              and getattr(getattr(pellucid, name), "task", None) is not None}
    assert public == set(NAMES)
    for learner in registry.learners():
        assert isinstance(learner.task, Task) and learner.task == learner.estimator.task
        assert learner.capabilities <= set(CAPABILITIES)


def test_no_learner_class_is_named_outside_its_module_and_descriptor():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALLOWED:
            continue
        for name in _names_in_python(ast.parse(path.read_text(encoding="utf-8"))):
            if rel not in _own_files(registry.get(name)):
                offenders.append(f"py/pellucid/{rel}: {name}")
    quoted = re.compile(r"""["'`]({})["'`]""".format("|".join(NAMES)))
    for path in sorted((ROOT / "web" / "js").rglob("*.js")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALLOWED:
            continue
        offenders += [f"{rel}: {m.group(1)}" for m in quoted.finditer(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_every_family_key_has_its_workbench_entry():
    for learner in registry.learners():
        if learner.steps:
            assert learner.steps in steps._BUILDERS, learner.name
        if learner.exercise:
            assert learner.exercise in exercises._MAKERS, learner.name
        assert learner.explain in explain._KINDS, learner.name
        assert learner.summary is None or learner.summary in summaries._KINDS, learner.name


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(DataError, match="Unknown model 'Forest'; choose one of: DecisionTreeClassifier"):
        registry.get("Forest")


def test_a_descriptor_that_contradicts_its_estimator_fails_when_written():
    tree = registry.get("DecisionTreeClassifier").estimator
    with pytest.raises(ValueError, match="task regression differs"):
        Learner(tree, "Tree", "Trees", Task.REGRESSION)
    with pytest.raises(ValueError, match="does not match capability 'steps'"):
        Learner(tree, "Tree", "Trees", Task.CLASSIFICATION, {"steps"})
    with pytest.raises(ValueError, match="unknown capabilities"):
        Learner(tree, "Tree", "Trees", Task.CLASSIFICATION, {"flying"})


def test_a_starting_grid_names_known_hyperparameters_and_values_their_rules_accept():
    tree = registry.get("DecisionTreeClassifier").estimator
    with pytest.raises(ValueError, match="tune names 'depth'"):
        Learner(tree, "Tree", "Trees", Task.CLASSIFICATION, tune=(("depth", (1, 2)),))
    with pytest.raises(ValueError, match="tune value 0 of 'max_depth'"):
        Learner(tree, "Tree", "Trees", Task.CLASSIFICATION, tune=(("max_depth", (0, 2)),))
    with pytest.raises(ValueError, match="one or two"):
        Learner(tree, "Tree", "Trees", Task.CLASSIFICATION,
                tune=(("max_depth", (1,)), ("min_samples_leaf", (1,)), ("min_samples_split", (2,))))
    menu = {model["name"]: model for model in menus.models()}
    assert menu["RandomForestClassifier"]["tune"] == [{"name": "n_estimators", "values": [10, 25, 50, 100]},
                                                      {"name": "max_depth", "values": [None, 3, 6, 10]}]
    assert menu["DecisionTreeClassifier"]["tune"] == []


def test_registering_twice_or_removing_an_unknown_learner_fails():
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.get("KMeans"))
    with pytest.raises(DataError):
        registry.unregister("Forest")
