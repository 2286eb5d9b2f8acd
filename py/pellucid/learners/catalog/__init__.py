"""The built-in learners' descriptors, one module per family; `LEARNERS` is the page's menu order."""

from . import bayes, clustering, kernels, linear, neighbours, projection, trees

LEARNERS = (trees.LEARNERS + linear.LEARNERS + bayes.LEARNERS + neighbours.LEARNERS + kernels.LEARNERS
            + clustering.LEARNERS + projection.LEARNERS)
