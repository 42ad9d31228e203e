"""One grammar module per kind of claim: how the draft writes it, in English and Spanish."""
