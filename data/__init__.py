"""The Parquet data contract, the bundled sample set and the deterministic generator."""
