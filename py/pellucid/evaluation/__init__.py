"""Judging models honestly: metrics, splits and cross-validation, curves, and clustering scores."""
