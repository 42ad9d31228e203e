"""Token budgets: limits, the meters that decide before each call, and the ledger of a run."""
