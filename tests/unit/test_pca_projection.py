"""PCA.transform projects without a centred copy of the data (M U^T - mean U^T) unless the mean is so far from
the origin against the components' spread that the shift would cost digits: both ways give the coordinates
of the centred rows, (M - mean) U^T, computed here directly in extended precision."""

import numpy as np
import pytest

from pellucid import PCA


def centred_projection(model, M):
    return ((np.longdouble(1) * M - model.mean_) @ model.components_.T).astype(float)


@pytest.mark.parametrize("shift", [0.0, 50.0, 1e5, 1e9])
def test_coordinates_are_those_of_the_centred_rows_wherever_the_data_sit(shift):
    rng = np.random.default_rng(3)
    M = rng.normal(size=(500, 6)) * [1, 2, 3, 0.5, 0.1, 10] + shift
    model = PCA(n_components=3).fit(M)
    Z = model.transform(M)
    expected = centred_projection(model, M)
    spread = np.sqrt(model.explained_variance_)
    np.testing.assert_allclose(Z, expected, rtol=0, atol=1e-9 * spread.max())


def test_the_shift_is_taken_after_the_product_only_when_it_costs_few_digits():
    M = np.random.default_rng(0).normal(size=(200, 4))
    near = PCA(n_components=2).fit(M)
    far = PCA(n_components=2).fit(M + 1e9)
    assert np.all(np.abs(near.mean_ @ near.components_.T) <= 1e3 * np.sqrt(near.explained_variance_.max()))
    assert not np.all(np.abs(far.mean_ @ far.components_.T) <= 1e3 * np.sqrt(far.explained_variance_.max()))
    # Far from the origin the coordinates are still those of the near data, sign by sign.
    np.testing.assert_allclose(np.abs(far.transform(M + 1e9)), np.abs(near.transform(M)), atol=1e-5)
