"""How two headlines are recognised as the same story: links left out, case, punctuation and
spacing folded.

The news tool drops syndicated copies with it and the importer drops retweets and reposts with
it, so both agree on what a duplicate is. Links are left out because every copy of a tweet
carries its own shortened link (`https://t.co/...`) to the same story.
"""

from __future__ import annotations

import re

PUNCTUATION = re.compile(r"[^\w\s]")
LINK = re.compile(r"https?://\S*|\bt\.co/\S*|\bwww\.\S+", re.IGNORECASE)


def normalise_headline(headline: str) -> str:
    return " ".join(PUNCTUATION.sub(" ", LINK.sub(" ", headline).casefold()).split())
