"""The folders a served deployment writes to are fixed when it is served: a flow run that asks
for another is refused in one line before anything is made, links included; and `serve` warns
when the Prefect API it registers with is reachable beyond loopback with no credentials."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract.errors import InputError
from flows.night.deploy import exposure_warning
from flows.run.config import OUT_ROOT_ENV, RunConfig
from flows.run.preflight import check_night, check_out_root


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    served = tmp_path / "served"
    served.mkdir()
    monkeypatch.setenv(OUT_ROOT_ENV, str(served))
    return served


def test_a_folder_inside_the_root_is_allowed(root: Path) -> None:
    check_out_root(root)
    check_out_root(root / "night" / "2024")


@pytest.mark.parametrize("where", ["../elsewhere", "/tmp", "../served-not"])
def test_a_folder_outside_the_root_is_one_line(root: Path, where: str) -> None:
    with pytest.raises(InputError) as refused:
        check_out_root(root / where if not where.startswith("/") else Path(where))
    assert "outside" in refused.value.message and "\n" not in refused.value.message


def test_a_link_inside_the_root_that_leads_out_is_refused(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside)
    with pytest.raises(InputError):
        check_out_root(root / "link")


def test_a_run_asking_for_another_folder_makes_nothing(
    root: Path, tmp_path: Path, small_data: Path
) -> None:
    elsewhere = tmp_path / "elsewhere" / "out"
    with pytest.raises(InputError, match="outside"):
        check_night(RunConfig(data_dir=small_data, out_dir=elsewhere, provider="offline"))
    assert not (tmp_path / "elsewhere").exists()


def test_without_a_served_root_any_folder_is_the_callers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(OUT_ROOT_ENV, raising=False)
    check_out_root(tmp_path / "anywhere")


@pytest.mark.parametrize(
    ("url", "environ", "warned"),
    [
        ("http://127.0.0.1:4200/api", {}, False),
        ("http://localhost:4200/api", {}, False),
        ("http://10.0.0.5:4200/api", {}, True),
        ("http://prefect.example.com/api", {}, True),
        ("http://10.0.0.5:4200/api", {"PREFECT_API_AUTH_STRING": "admin:pass"}, False),
        ("https://api.prefect.cloud/api/accounts/a/workspaces/w", {"PREFECT_API_KEY": "k"}, False),
    ],
)
def test_serve_warns_of_an_open_api(url: str, environ: dict[str, str], warned: bool) -> None:
    line = exposure_warning(url, environ)
    assert (line is not None) is warned
    if line:
        assert url in line and "\n" not in line
