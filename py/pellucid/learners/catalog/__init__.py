"""The built-in learners' descriptors, one module per family; `LEARNERS` is the page's menu order."""

from . import bayes, boosting, clustering, ensembles, kernels, linear, neighbours, network, projection, trees

LEARNERS = (trees.LEARNERS + ensembles.LEARNERS + boosting.LEARNERS + linear.LEARNERS + bayes.LEARNERS
            + neighbours.LEARNERS + kernels.LEARNERS + network.LEARNERS + clustering.LEARNERS + projection.LEARNERS)
