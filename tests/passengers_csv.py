"""A CSV shaped like what people bring (a passenger list crossed with a customer export), for the
profile tests: row IDs, 18-digit references, names, tickets, cabins, dates in three formats, free text,
missing values written as NA, #N/A, ? or nothing, and numbers on scales from 0.01 to 10,000."""

import datetime

import numpy as np

FIRST = ["Owen", "John", "Laina", "Lily", "William", "Elisabeth", "Anna", "Karl", "Marit", "Jonas"]
LAST = ["Braund", "Cumings", "Heikkinen", "Futrelle", "Allen", "Moran", "McCarthy", "Palsson", "Nasser"]
TITLES = ["Mr.", "Mrs.", "Miss.", "Master."]
WORDS = ["the", "cabin", "was", "cold", "and", "staff", "friendly", "food", "late", "great", "noisy"]


def passengers_csv(n=20_000, seed=0):
    """(csv text, what each column is expected to be profiled as: kind and role)."""
    rng = np.random.default_rng(seed)
    start = datetime.date(2012, 1, 1)
    booked = [start + datetime.timedelta(days=int(d)) for d in rng.integers(0, 900, n)]
    born = [datetime.date(1930, 1, 1) + datetime.timedelta(days=int(d)) for d in rng.integers(0, 25_000, n)]
    # Who survived depends on sex and on the month booked, so a model has something to find in a date's parts.
    chance = np.where(np.arange(n) % 2, 0.75, 0.2) + np.where([d.month in (6, 7, 8) for d in booked], 0.2, 0)
    survived = (rng.random(n) < chance).astype(int)
    fare = np.round(10 ** rng.uniform(-2, 4, n), 2)  # 0.01 .. 10,000
    age = rng.integers(1, 80, n).astype(object)
    age[rng.random(n) < 0.08] = None
    markers = np.array(["NA", "#N/A", "", "?"])
    rows = []
    for i in range(n):
        name = f'"{LAST[i % 9]}, {TITLES[i % 4]} {FIRST[i % 10]} {FIRST[(i * 7) % 10]} {i}"'
        ticket = f"A/5 {21171 + i // 2}" if i % 3 else f"{113803 + i // 2}"
        cabin = f"{'ABCDEF'[(i * 7) % 400 % 6]}{(i * 7) % 400}" if i % 2 else ""  # 400 cabins, shared
        review = " ".join(rng.choice(WORDS, 8))
        age_text = markers[i % 4] if age[i] is None else str(age[i])
        rows.append([str(i + 1), f"{900000000000000000 + i * 7919}", name, ticket, cabin,
                     ["male", "female"][i % 2], age_text, f"{fare[i]:.2f}", booked[i].isoformat(),
                     born[i].strftime("%d/%m/%Y"), booked[i].strftime("%Y/%m/%d"), review,
                     str(rng.integers(0, 4)), str(survived[i])])
    header = ["PassengerId", "order_ref", "Name", "Ticket", "Cabin", "Sex", "Age", "Fare", "Booked",
              "Born", "Paid", "Review", "Siblings", "Survived"]
    text = "\n".join(",".join(row) for row in [header] + rows) + "\n"
    expected = {"PassengerId": ("id", "ignore"), "order_ref": ("id", "ignore"), "Name": ("text", "ignore"),
                "Ticket": ("category", "ignore"), "Cabin": ("category", "ignore"),
                "Sex": ("category", "feature"), "Age": ("number", "feature"), "Fare": ("number", "feature"),
                "Booked": ("date", "feature"), "Born": ("date", "feature"), "Paid": ("date", "feature"),
                "Review": ("text", "ignore"), "Siblings": ("number", "feature"),
                "Survived": ("number", "target")}
    return text, expected
