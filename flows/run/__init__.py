"""A run's configuration and what it needs before and around the flow: preflight checks, the
provider, the attempts ledger, progress, and the verdict of each answer."""
