"""The date that dateparser reads from a bare number ("18", "3", "2017") said on a DCT, without calling it.

``dateparser.parse(text, languages=["en"], settings={"RELATIVE_BASE": <the DCT at 12:00>, "PREFER_DATES_FROM":
"past", "RETURN_AS_TIMEZONE_AWARE": False})`` (dateparser 1.5.0) reads one number as the month if it can, else as
the day, else as the year, and takes the parts it lacks from the DCT. ``tests/test_times.py`` checks that the two
agree.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

# 10 digits and more may be a Unix timestamp, read in the local time zone: left to dateparser
BARE_NUMBER = re.compile(r" *([0-9]{1,9}) *")


def _clamped(year: int, month: int, day: int) -> dt.date:
    """The date of ``day`` in that month, or the month's last day when it has fewer days."""
    return dt.date(year, month, min(day, calendar.monthrange(year, month)[1]))


def _previous_leap_year(year: int) -> int:
    """The last leap year before ``year``."""
    year -= 1
    while not calendar.isleap(year):
        year -= 1
    return year


def bare_number_date(digits: str, dct: dt.date) -> dt.date | None:
    """Read the digits of a bare number as dateparser does against the DCT; returns the date or None.

    1-12 (or 01-09) is the month, on the DCT's day (the month's last day if shorter), in the DCT's year, or the
    year before when that date is after the DCT (the leap year before the DCT's when it was 29 February);
    13-31 the day in the DCT's month and year, even after the DCT, none when the month is shorter, but 29 February
    of the leap year before in a common year; 00 and 32-68 the year 2000 + N, 69-99 1900 + N, a century earlier
    when that date is after the DCT, and 4 digits but 0000 the year, each on the DCT's month and day (the month's
    last day if shorter); 0 and numbers of 3 or 5-9 digits no date."""
    number = int(digits)
    if len(digits) == 4 and number:
        return _clamped(number, dct.month, dct.day)
    if len(digits) > 2 or digits == "0":
        return None
    if 1 <= number <= 12:
        year = dct.year
        if _clamped(year, number, dct.day) > dct:
            on_29_february = number == 2 and dct.day >= 29 and calendar.isleap(year)
            year = _previous_leap_year(year) if on_29_february else year - 1
        return _clamped(year, number, dct.day)
    if 13 <= number <= 31:
        if dct.month == 2 and number == 29 and not calendar.isleap(dct.year):
            return dt.date(_previous_leap_year(dct.year), 2, 29)
        return dct.replace(day=number) if number <= calendar.monthrange(dct.year, dct.month)[1] else None
    year = 2000 + number if number < 69 else 1900 + number
    if _clamped(year, dct.month, dct.day) > dct:
        if dct.month == 2 and dct.day == 29 and calendar.isleap(year) and not calendar.isleap(year - 100):
            return None  # 29 February 2000 has no day in 1900
        year -= 100
    return _clamped(year, dct.month, dct.day)
