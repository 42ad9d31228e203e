"""The nightly Prefect flow, run configuration, publishing and the command line."""
