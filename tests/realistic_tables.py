"""Tables that look like what people bring, for tests: made here from a seed, so no file is needed."""

import numpy as np


def churn_csv(n=20_000, seed=0):
    """A customer table as people export it: ids, names, dates, free text, missing values written
    several ways, columns on scales from 0.01 to 10,000, and an imbalanced target (about a quarter churn)."""
    rng = np.random.default_rng(seed)
    plans = np.array(["basic", "plus", "pro"])
    missing = np.array(["NA", "#N/A", "", "?"])
    lines = ["customer_id,name,signup,plan,monthly_fee,discount,tenure_months,comment,churned"]
    for i in range(n):
        plan = rng.integers(0, 3)
        fee = 10_000 * (0.2 + 0.3 * plan) * rng.lognormal(0, 0.2)
        discount = round(float(rng.random()) * 0.05, 4)
        tenure = int(rng.integers(1, 120))
        risk = 1.5 - tenure / 30 + (plan == 0) * 1.0 + rng.normal(0, 0.5)
        churned = "yes" if risk > 0.8 else "no"
        plan_text = plans[plan] if rng.random() > 0.05 else missing[rng.integers(0, 4)]
        comment = rng.choice(['"late, again"', "fine", "", "called twice"])
        lines.append(f"C{100000 + i},Person {i},2021-{1 + i % 12:02d}-{1 + i % 28:02d},{plan_text},"
                     f"{fee:.2f},{discount},{tenure},{comment},{churned}")
    return ("\n".join(lines) + "\n").encode()
