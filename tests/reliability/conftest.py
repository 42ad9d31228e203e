"""The flow tests' Prefect test server, shared with the reliability suite."""

from tests.flows.conftest import collect_prefect_sockets, prefect_server

__all__ = ["collect_prefect_sockets", "prefect_server"]
