"""The Hessian's weighted Gram matrices when some features are one-hot (0/1 indicator) columns.

A categorical column one-hot encoded becomes a group of 0/1 columns of which each row has at most one
set. Between such columns the products x_a x_b are mostly zeros, and the dense products table
(logistic_fast.WeightedGram) multiplies and adds them all. Written with each row's category code in the
group instead, for weights c and a Gram matrix sum_i c_i x_i x_i^T:

- two columns of one group: zero off the diagonal (no row has both), and on it the sum of the weights of
  the rows in the category, one np.bincount of the codes;
- columns of two groups: the sums of the weights per pair of categories, one np.bincount of the pair codes;
- a group's columns against a dense column b: the sums of c_i x_ib per category, one np.bincount per
  dense column.

Several groups are taken together by one code for their joint category, so a row costs one
scatter-add per dense column for all of them, instead of one multiply-add per (indicator column, dense
column) and per pair of indicator columns. In Pyodide under Node (no BLAS), 35,000 rows of 20
standardised numbers and 5 one-hot columns of 5 categories, 3 weight vectors: 64 ms by the products
table of all 46 columns, 18 ms this way (10 of them the products table of the 21 dense columns).
tests/unit/test_logistic_indicator_blocks.py checks that both give the same matrices.
"""

import numpy as np

MAX_CODES = 2_000_000  # most category codes (dense columns x rows) in one np.bincount


def indicator_groups(XT):
    """[(rows of XT, codes)] for the groups of 0/1 rows of XT (D, n) that no column has two of: codes (n,)
    is 0 where none is set, k where the group's k-th row is. Rows are grouped greedily in order, as a
    one-hot encoder lays them out; a lone indicator row is no group (it gains nothing), nor is a row of
    ones (the bias)."""
    groups, members, covered = [], [], None
    for a in range(XT.shape[0]):
        row = XT[a]
        if row[0] != 0.0 and row[0] != 1.0:  # a measured feature, told from its first value
            continue
        ones = row == 1.0
        if not np.all(ones | (row == 0.0)) or ones.all():
            continue
        if members and members[-1] == a - 1 and not (covered & ones).any():
            members.append(a)
            covered |= ones
            continue
        if len(members) > 1:
            groups.append(members)
        members, covered = [a], ones.copy()
    if len(members) > 1:
        groups.append(members)
    return [(np.array(rows), _codes(XT, rows)) for rows in groups]


def _codes(XT, rows):
    codes = np.zeros(XT.shape[1], dtype=np.intp)  # (n,)
    for k, a in enumerate(rows, start=1):
        codes[XT[a] == 1.0] = k
    return codes


class IndicatorGram:
    """sum_i c_i x_i x_i^T / n for several weight vectors c, as logistic_fast.WeightedGram, with the
    indicator groups' blocks summed per category. `dense_gram` makes the dense columns' Gram matrices
    (the products table on those columns alone).

    Groups are taken together while their joint categories (the product of their sizes + 1) stay under a
    quarter of the rows: the sums per joint category of every dense column (with the rows sorted by the
    first such batch's category, sums of runs; for further batches one np.bincount) give each group's
    sums, and each pair's, as their margins. Groups that do not fit one such table are paired by their
    pair codes."""

    def __init__(self, XT, groups, dense_gram):
        self.D, self.n = XT.shape
        grouped = np.concatenate([rows for rows, _ in groups])
        self.dense = np.setdiff1d(np.arange(self.D), grouped)  # the other columns, the bias among them
        self.groups = groups
        self.batches = _batches([len(rows) + 1 for rows, _ in groups], max(self.n // 4, 1))
        joint = [_joint_codes([groups[g][1] for g in batch], [len(groups[g][0]) + 1 for g in batch])
                 for batch in self.batches]  # (n,) per batch
        # The rows in the order of the first batch's joint category: its sums are then sums of runs
        # (np.add.reduceat, read straight through) instead of scattered adds (natively 3.3 ms to 1.3 for
        # 35,000 rows, 21 dense columns and 3 weight vectors). Every sum here is over all rows, so any
        # order gives the same matrices.
        self.order = np.argsort(joint[0], kind="stable")  # (n,)
        self.joint = [codes[self.order] for codes in joint]
        self.dense_rows = np.ascontiguousarray(XT[self.dense][:, self.order])  # (Dd, n)
        self.dense_gram = dense_gram(self.dense_rows)
        batch_of = {g: b for b, batch in enumerate(self.batches) for g in batch}
        pair_codes = lambda g, h: groups[g][1] * (len(groups[h][0]) + 1) + groups[h][1]  # noqa: E731
        self.cross = [(g, h, pair_codes(g, h)[self.order])  # (n,) pair codes
                      for g in range(len(groups)) for h in range(g + 1, len(groups))
                      if batch_of[g] != batch_of[h]]
        self.chunk = max(1, MAX_CODES // len(self.dense))  # rows at a time
        self.runs = [_runs(self.joint[0][start:start + self.chunk]) for start in range(0, self.n, self.chunk)]

    def __call__(self, C):
        """(m, D, D) Gram matrices, one per row of C (m, n)."""
        m = len(C)
        C = np.take(C, self.order, axis=1)  # in the rows' order here (C-ordered: C[:, order] is not)
        grams = np.zeros((m, self.D, self.D))
        grams[(slice(None),) + np.ix_(self.dense, self.dense)] = self.dense_gram(C)
        across, counts, pairs = self._category_sums(C / self.n)
        for batch, sums, totals in zip(self.batches, across, counts):
            sizes = tuple(len(self.groups[g][0]) + 1 for g in batch)
            margins = _group_margins(sums.ravel(), len(self.dense) * m, sizes)  # [(m Dd, size)] per group
            totals = totals.reshape((m,) + sizes)  # c summed per joint category
            for p, g in enumerate(batch):
                rows = self.groups[g][0]
                margin = margins[p][:, 1:].reshape(m, len(self.dense), -1)  # column 0: "none of the group"
                grams[:, self.dense[:, None], rows] = margin
                grams[:, rows[:, None], self.dense] = margin.transpose(0, 2, 1)
                grams[:, rows, rows] = _margin(totals, (0, p + 1))[:, 1:]  # one group's rows share no column
                for q in range(p + 1, len(batch)):
                    _place(grams, rows, self.groups[batch[q]][0], _margin(totals, (0, p + 1, q + 1)))
        for (g, h, _), sums in zip(self.cross, pairs):
            sizes = (len(self.groups[g][0]) + 1, len(self.groups[h][0]) + 1)
            _place(grams, self.groups[g][0], self.groups[h][0], sums.reshape((m,) + sizes))
        return grams

    def _category_sums(self, C):
        """For weights C (m, n): per batch, the sums of c_i x_ib per weight vector, dense column and joint
        category (m, Dd * bins) and of c_i per weight vector and joint category (m, bins); per cross pair,
        the sums of c_i per weight vector and pair category (m, pair bins). A chunk of rows at a time
        (MAX_CODES products at most): the first batch's sums by runs of its sorted codes, the others' by
        one np.bincount per weight vector, its codes shared by the weight vectors (one bincount for all
        of them made its table too big for the cache: natively 14 ms a Hessian against 9)."""
        m, Dd = len(C), len(self.dense)
        bins = [int(np.prod([len(self.groups[g][0]) + 1 for g in batch])) for batch in self.batches]
        pair_bins = [(len(self.groups[g][0]) + 1) * (len(self.groups[h][0]) + 1) for g, h, _ in self.cross]
        across = [np.zeros((m, Dd, b)) for b in bins]
        counts = [np.zeros((m, b)) for b in bins]
        pairs = [np.zeros((m, b)) for b in pair_bins]
        for start, (run_starts, run_codes) in zip(range(0, self.n, self.chunk), self.runs):
            rows = slice(start, min(start + self.chunk, self.n))
            codes = [(np.arange(Dd, dtype=np.intp)[:, None] * b + joint[rows]).ravel()  # (Dd r,) per batch
                     for joint, b in zip(self.joint[1:], bins[1:])]
            for i, c in enumerate(C[:, rows]):
                weighted = self.dense_rows[:, rows] * c  # (Dd, r) c_i x_ib
                across[0][i][:, run_codes] += np.add.reduceat(weighted, run_starts, axis=1)
                counts[0][i][run_codes] += np.add.reduceat(c, run_starts)
                for j, joint in enumerate(self.joint[1:], start=1):
                    across[j][i] += np.bincount(codes[j - 1], weights=weighted.ravel(),
                                                minlength=Dd * bins[j]).reshape(Dd, -1)
                    counts[j][i] += np.bincount(joint[rows], weights=c, minlength=bins[j])
                for j, (_, _, pair_codes) in enumerate(self.cross):
                    pairs[j][i] += np.bincount(pair_codes[rows], weights=c, minlength=pair_bins[j])
        return across, counts, pairs


def _runs(sorted_codes):
    """(starts, codes) of the runs of equal values in sorted_codes (r,): where each begins and its value."""
    starts = np.flatnonzero(np.concatenate([[True], sorted_codes[1:] != sorted_codes[:-1]]))
    return starts, sorted_codes[starts]


def _batches(sizes, max_bins):
    """Consecutive groups whose sizes multiply to at most max_bins (a group alone always makes one)."""
    batches, bins = [], max_bins + 1
    for g, size in enumerate(sizes):
        if bins * size > max_bins:
            batches.append([])
            bins = 1
        batches[-1].append(g)
        bins *= size
    return batches


def _joint_codes(codes, sizes):
    """(n,) one code per row for its categories in several groups (mixed radix, the first group first)."""
    joint = np.zeros(len(codes[0]), dtype=np.intp)
    for group_codes, size in zip(codes, sizes):
        joint = joint * size + group_codes
    return joint


def _group_margins(sums, Dd, sizes):
    """[(Dd, size) per group]: the per-joint-category sums (Dd * prod(sizes),) summed, for each group, over
    the other groups' categories. The groups before it are summed out one at a time and shared, so each
    step reduces a contiguous block (a multi-axis sum of the whole table per group took twice as long)."""
    margins, table = [], sums.reshape(Dd, -1)  # (Dd, the groups from p on)
    for size in sizes:
        table = table.reshape(Dd, size, -1)
        margins.append(table.sum(axis=2))
        table = table.sum(axis=1)
    return margins


def _margin(table, keep):
    """The sums of `table` over every axis but those in `keep`."""
    return table.sum(axis=tuple(a for a in range(table.ndim) if a not in keep))


def _place(grams, rows_g, rows_h, sums):
    """Put the pair sums (m, m_g + 1, m_h + 1), "none" first on each category axis, in each of the m Gram
    matrices' two symmetric blocks."""
    grams[:, rows_g[:, None], rows_h] = sums[:, 1:, 1:]
    grams[:, rows_h[:, None], rows_g] = sums[:, 1:, 1:].transpose(0, 2, 1)
