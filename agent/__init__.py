"""The model loop: providers, budgets, guardrails and the trace of everything a question did."""
