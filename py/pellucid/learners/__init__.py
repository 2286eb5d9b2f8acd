"""The algorithms of the course notes, one module per learner, each reading beside its notes."""
