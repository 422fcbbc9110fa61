"""Fixed ground truth for HumanEval/124 (valid_date).

category: bad-logic
witness: ["01-30-2000"]
reason: the original accepts dates not written mm-dd-yyyy (rule 4), such as "1-3-0", and,
since `and` binds tighter than `or` in `month in [...] and day < 1 or day > 30`, it rejects
day 30 of every month and day 31 of the 31-day months (e.g. "01-30-2000").
"""

import re


def valid_date(date):
    if re.fullmatch(r"[0-9]{2}-[0-9]{2}-[0-9]{4}", date) is None:
        return False
    month, day, _year = (int(part) for part in date.split("-"))
    if month in (1, 3, 5, 7, 8, 10, 12):
        longest = 31
    elif month in (4, 6, 9, 11):
        longest = 30
    elif month == 2:
        longest = 29
    else:
        return False
    return 1 <= day <= longest
