"""Fixed ground truth for HumanEval/124 (valid_date).

category: bad-logic
witness: ["01-30-0"]
reason: `month in [...] and day < 1 or day > 30` parses as `(... and day < 1) or day > 30`,
so the original rejects day 30 of every month and day 31 of the 31-day months.
"""


def valid_date(date):
    # Parsed as leniently as the original (surrounding whitespace, int() per field);
    # only the day ranges differ.
    try:
        month, day, year = (int(part) for part in date.strip().split("-"))
    except ValueError:
        return False
    if not 1 <= month <= 12:
        return False
    if month in (1, 3, 5, 7, 8, 10, 12):
        longest = 31
    elif month in (4, 6, 9, 11):
        longest = 30
    else:
        longest = 29
    return 1 <= day <= longest
