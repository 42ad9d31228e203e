"""The vocabulary every room shares: the trace, reason codes, errors, tool outcomes and traits.

It depends on nothing of the project; every other package may depend on it.
"""
