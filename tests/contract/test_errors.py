"""One error tree: every project error carries its message and survives pickling (Prefect
results and worker processes carry them across processes)."""

from __future__ import annotations

import pickle

import pytest

from contract.errors import InputError, NightdeskError, ProviderError, ToolError


@pytest.mark.parametrize("kind", [InputError, ToolError, ProviderError])
def test_errors_pickle_with_their_message(kind: type[NightdeskError]) -> None:
    error = kind("pass --date a session of the data")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is kind and isinstance(again, NightdeskError)
    assert again.message == str(again) == "pass --date a session of the data"
