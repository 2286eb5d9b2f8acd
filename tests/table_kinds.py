"""Six kinds of table people bring, made from a seed: hourly weather with a timestamp, priced items with
ordinal text columns and x/y/z dimensions, loans with a rare class, a wide table of spectra, a menu with a
many-valued text column, and a nine-class table. Each is shaped like a well-known public table, not copied
from one: the first view of the page is tested on each."""

import functools

import numpy as np


def _csv(header, rows):
    return "\n".join([",".join(header)] + [",".join(str(cell) for cell in row) for row in rows]) + "\n"


def hourly_weather(n=2_000, seed=0):
    """An hour a row: a timestamp, text summaries, a constant cloud-cover column and a constant year."""
    rng = np.random.default_rng(seed)
    header = ["when", "summary", "precip_type", "temperature_c", "apparent_temperature_c", "humidity",
              "wind_speed_kmh", "visibility_km", "cloud_cover", "pressure_mb", "year", "daily_summary"]
    rows = []
    for i in range(n):
        day, hour = divmod(i, 24)
        temperature = 10 + 8 * np.sin(2 * np.pi * (hour - 9) / 24) + 6 * np.sin(2 * np.pi * day / 365) + rng.normal()
        humidity = float(np.clip(0.9 - 0.02 * temperature + rng.normal(0, 0.05), 0.1, 1))
        wind = abs(rng.normal(10, 5))
        summary = "Rain" if humidity > 0.85 else ("Overcast" if humidity > 0.7 else "Clear")
        rows.append([f"2023-{1 + day // 31 % 12:02d}-{1 + day % 28:02d} {hour:02d}:00:00", summary,
                     "snow" if temperature < 0 else "rain", f"{temperature:.2f}",
                     f"{temperature - 0.1 * wind:.2f}", f"{humidity:.2f}", f"{wind:.1f}",
                     f"{rng.uniform(5, 16):.1f}", 0, f"{1013 + rng.normal(0, 8):.1f}", 2023,
                     f"\"{summary} until {'evening' if day % 2 else 'night'}.\""])
    return _csv(header, rows)


@functools.lru_cache(maxsize=1)  # 54,000 rows take seconds to write; the tests read them several times
def priced_items(n=54_000, seed=0):
    """Gems: weight, three graded text columns, proportions, the price, and the size in x, y and z."""
    rng = np.random.default_rng(seed)
    cuts, colors = ["Fair", "Good", "Very Good", "Premium", "Ideal"], list("JIHGFED")
    clarities = ["I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"]
    header = ["carat", "cut", "color", "clarity", "depth", "table", "price", "x", "y", "z"]
    rows = []
    for _ in range(n):
        carat = float(np.round(rng.gamma(2.2, 0.36) + 0.2, 2))
        cut, color, clarity = rng.integers(0, 5), rng.integers(0, 7), rng.integers(0, 8)
        price = 3800 * carat ** 1.7 * (1 + 0.04 * cut + 0.05 * color + 0.07 * clarity) * rng.lognormal(0, 0.1)
        size = 6.4 * carat ** (1 / 3)
        rows.append([carat, cuts[cut], colors[color], clarities[clarity], f"{rng.normal(61.7, 1.4):.1f}",
                     int(rng.normal(57, 2)), int(price), f"{size:.2f}", f"{size * rng.normal(1, 0.01):.2f}",
                     f"{0.62 * size:.2f}"])
    return _csv(header, rows)


def loans(n=3_000, seed=0):
    """Loan applications: an ID, a date, incomes on very different scales, and a default about 1 in 30."""
    rng = np.random.default_rng(seed)
    header = ["loan_id", "applied_on", "applicant_income", "coapplicant_income", "loan_amount", "term_months",
              "credit_history", "property_area", "defaulted"]
    rows = []
    for i in range(n):
        income = rng.lognormal(8.5, 0.6)
        amount = rng.lognormal(4.9, 0.5)
        history = int(rng.random() > 0.15)
        risk = -4.6 + 0.02 * amount - 0.0001 * income - 1.5 * history + rng.normal(0, 0.5)
        rows.append([f"LP{100000 + i}", f"2022-{1 + i % 12:02d}-{1 + i % 27:02d}", f"{income:.0f}",
                     f"{max(0.0, rng.normal(1500, 1800)):.0f}", f"{amount:.0f}",
                     rng.choice([360, 360, 360, 180, 480]), history,
                     rng.choice(["Urban", "Semiurban", "Rural"]), "yes" if risk > -0.6 else "no"])
    return _csv(header, rows)


def spectra(n=215, bands=100, seed=0):
    """Absorbance at 100 wavelengths of meat samples and their fat content: wide, collinear, few rows."""
    rng = np.random.default_rng(seed)
    header = ["sample"] + [f"nm_{850 + 2 * b}" for b in range(bands)] + ["moisture", "fat", "protein"]
    rows = []
    wave = np.linspace(0, 1, bands)
    for i in range(n):
        fat = rng.uniform(1, 50)
        curve = 2.5 + 0.5 * np.sin(3 * wave + rng.normal(0, 0.1)) + 0.01 * fat * np.exp(-((wave - 0.6) / 0.1) ** 2)
        rows.append([f"S{i:03d}"] + [f"{v:.5f}" for v in curve + rng.normal(0, 0.002, bands)]
                    + [f"{70 - 0.6 * fat + rng.normal():.1f}", f"{fat:.1f}", f"{18 - 0.1 * fat + rng.normal():.1f}"])
    return _csv(header, rows)


def menu(n=560, seed=0):
    """A fast-food menu: a category, an item name nearly unique per row (about 500 values), the serving size
    as text and the nutrition facts."""
    rng = np.random.default_rng(seed)
    categories = ["Breakfast", "Beef & Pork", "Chicken & Fish", "Salads", "Snacks & Sides", "Desserts",
                  "Beverages", "Coffee & Tea", "Smoothies & Shakes"]
    header = ["category", "item", "serving_size", "calories", "total_fat_g", "saturated_fat_g", "sodium_mg",
              "carbohydrates_g", "sugars_g", "protein_g"]
    rows = []
    for i in range(n):
        category = int(rng.integers(0, len(categories)))
        hearty = category < 3
        fat, carbs, protein = rng.gamma(2, 6 + 3 * hearty), rng.gamma(3, 12), rng.gamma(2, 5 + 5 * hearty)
        calories = 9 * fat + 4 * carbs + 4 * protein + rng.normal(0, 10)
        item = f"\"Menu item {i % 505}, {['small', 'medium', 'large'][i % 505 % 3]}\""
        rows.append([f"\"{categories[category]}\"", item, f"{int(rng.integers(4, 22))} oz", f"{calories:.0f}",
                     f"{fat:.1f}", f"{fat * 0.4:.1f}", f"{rng.gamma(3, 300):.0f}", f"{carbs:.0f}",
                     f"{carbs * rng.uniform(0.1, 0.9):.0f}", f"{protein:.0f}"])
    return _csv(header, rows)


def nine_classes(n=3_000, features=20, seed=0):
    """Products in nine classes from twenty count features, an ID first."""
    rng = np.random.default_rng(seed)
    centres = rng.poisson(2, size=(9, features))
    header = ["id"] + [f"feat_{f + 1}" for f in range(features)] + ["target"]
    rows = []
    for i in range(n):
        label = int(rng.integers(0, 9))
        rows.append([i + 1] + list(rng.poisson(centres[label] + 0.3)) + [f"Class_{label + 1}"])
    return _csv(header, rows)


TABLE_KINDS = {"hourly-weather": hourly_weather, "priced-items": priced_items, "loans": loans,
               "spectra": spectra, "menu": menu, "nine-classes": nine_classes}
