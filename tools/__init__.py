"""The read-only tools the model calls, over a locked-down DuckDB catalog pinned to one as-of moment."""
