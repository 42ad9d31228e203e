"""How two headlines are recognised as the same story: case, punctuation and spacing folded.

The news tool drops syndicated copies with it and the importer drops retweets with it, so
both agree on what a duplicate is.
"""

from __future__ import annotations

import re

PUNCTUATION = re.compile(r"[^\w\s]")


def normalise_headline(headline: str) -> str:
    return " ".join(PUNCTUATION.sub(" ", headline.casefold()).split())
