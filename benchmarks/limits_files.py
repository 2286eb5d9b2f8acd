"""The CSVs the limits benchmark reads: wide, narrow, tall, and a million rows as a program exports them."""

import numpy as np

MB = 1024 * 1024
WIDE_ROWS = [10_000, 50_000, 100_000, 200_000, 300_000, 400_000]
NARROW_ROWS = [1_000_000, 2_000_000, 4_000_000, 8_000_000]
TALL_ROWS = [12_000_000, 24_000_000]  # one column of one digit: the most rows 50 MB can hold


def wide_csv(path, n_rows, n_cols=20, seed=0):
    """n_rows of n_cols numbers (4 decimals) and a 3-class label that depends on the first two."""
    rng = np.random.default_rng(seed)
    with open(path, "w") as out:
        out.write(",".join(f"f{j}" for j in range(n_cols)) + ",label\n")
        for start in range(0, n_rows, 50_000):
            X = rng.normal(size=(min(50_000, n_rows - start), n_cols)).round(4)  # (b, n_cols)
            labels = np.where(X[:, 0] + X[:, 1] > 0.5, "a", np.where(X[:, 0] < -0.5, "b", "c"))  # (b,)
            body = np.char.add(np.array([",".join(map(str, row)) for row in X.tolist()]), ",")
            out.write("\n".join(np.char.add(body, labels).tolist()) + "\n")
    return path.stat().st_size


def million_csv(path, n_rows=1_000_000, seed=0):
    """n_rows x 10 as a program exports them: six measurements (2 decimals), two counts, a colour and a
    3-class label; a million rows fit under the 50 MB upload limit."""
    rng = np.random.default_rng(seed)
    colours = np.array(["red", "green", "blue", "amber", "violet"])
    with open(path, "w") as out:
        out.write("m1,m2,m3,m4,m5,m6,count1,count2,colour,label\n")
        for start in range(0, n_rows, 100_000):
            b = min(100_000, n_rows - start)
            M = rng.normal(size=(b, 6)).round(2)  # (b, 6)
            counts = rng.integers(0, 100, size=(b, 2))  # (b, 2)
            label = np.where(M[:, 0] + M[:, 1] > 0.5, "a", np.where(M[:, 0] < -0.5, "b", "c"))  # (b,)
            cells = [np.char.mod("%.2f", M[:, j]) for j in range(6)] + [counts[:, 0].astype(str),
                     counts[:, 1].astype(str), colours[rng.integers(0, 5, b)], label]
            out.write("\n".join(",".join(row) for row in zip(*[c.tolist() for c in cells])) + "\n")
    return path.stat().st_size


def narrow_csv(path, n_rows, seed=0):
    """n_rows of two small whole numbers: the most rows per megabyte a real file has."""
    rng = np.random.default_rng(seed)
    with open(path, "w") as out:
        out.write("x,y\n")
        for start in range(0, n_rows, 500_000):
            X = rng.integers(0, 100, size=(min(500_000, n_rows - start), 2))  # (b, 2)
            out.write("\n".join(f"{a},{b}" for a, b in X.tolist()) + "\n")
    return path.stat().st_size


def tall_csv(path, n_rows):
    """n_rows of one digit, one column."""
    with open(path, "w") as out:
        out.write("x\n")
        block = "".join(f"{i % 10}\n" for i in range(1_000_000))
        for start in range(0, n_rows, 1_000_000):
            out.write(block if n_rows - start >= 1_000_000 else block[:2 * (n_rows - start)])
    return path.stat().st_size
