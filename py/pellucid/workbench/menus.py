"""The page's two menus: the data sets (built-in examples and generators) and the models, with what the page
needs to build each model's controls. The bridge answers its "datasets" and "models" commands from here."""

from ..core.param_names import old_name_of
from ..core.settings import preprocessing_defaults
from ..learners import registry
from . import tables


def datasets():
    """The data menu: the built-in examples, then the generators with their parameters."""
    return tables.menu()


# Parameters the page does not offer: tracing is the steps view's business, and standardizing is the
# preprocessing step's (one switch for every learner, fitted on the training rows), not a second box.
# scikit-learn's C is logistic regression's l2 said the other way round (C = 1/(n l2)): the form offers the
# notes' l2 alone, so one setting has one box.
NOT_IN_THE_FORM = ("trace", "standardize", "C")


def models():
    """The model menu, from the learners' descriptors: each model's task, capabilities, the input it needs,
    whether it is sensitive to feature scale, its preprocessing defaults ({standardize, impute}: what
    `train` does when the page leaves them to the model), its hyperparameters for the page to build
    controls (each default the descriptor's form_defaults where it names one), the grid the Tune panel
    starts on ("tune": [{name, values}], empty: the page suggests values around each default), and whether
    it is its task's default ("task_default": the first of its task in the menu, the one the page switches
    to when a target implies that task)."""
    menu, tasks_seen = [], set()
    for learner in registry.learners():
        cls = learner.estimator
        defaults = {**cls().get_params(), **dict(learner.form_defaults)}
        # "was": the name before scikit-learn's, so a saved session or link that uses it still fills the form.
        params = [{"name": name, "default": defaults[name], "was": old_name_of(cls, name), **rule.describe()}
                  for name, rule in cls._param_rules.items() if name not in NOT_IN_THE_FORM]
        menu.append({"name": learner.name, "label": learner.label, "group": learner.group, "task": learner.task,
                     "capabilities": sorted(learner.capabilities), "needs": learner.needs,
                     "scale_sensitive": learner.scale_sensitive, "preprocessing": preprocessing_defaults(learner),
                     "max_rows": learner.max_rows, "params": params,
                     "tune": [{"name": name, "values": list(values)} for name, values in learner.tune],
                     "task_default": learner.task not in tasks_seen})
        tasks_seen.add(learner.task)
    return menu
