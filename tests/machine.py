"""Deadlines for tests, scaled to how loaded the machine is: a test that must give a legitimate
query room gives it room in proportion to the runnable tasks sharing each core."""

from __future__ import annotations

import os

LEGIT_QUERY_S = 120.0
"""A deadline no legitimate query of the test data comes near (they take milliseconds), even
on a machine loaded many times over."""


def load_factor() -> float:
    """Runnable tasks per core over the last minute, at least 1."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def scaled_s(seconds: float) -> float:
    """`seconds` stretched by the machine's load."""
    return round(seconds * load_factor(), 1)
