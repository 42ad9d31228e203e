"""The analysts' side: decisions on rejected cases, the review page, rebuilt reports, re-asked
questions."""
