"""A refused `nightdesk run` leaves the file system as it found it: every refusal, from a bad
option to a Prefect server that does not answer, run as a user runs it (the installed command,
in a folder of its own), with the folder's tree compared before and after."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REFUSALS = [
    (["--shards", "2"], {}, "--shards above 1 needs a Prefect server"),
    (["--portfolio", "NOPE"], {}, "unknown portfolio NOPE"),
    (["--date", "1999-01-04"], {}, "has no prices up to 1999-01-04"),
    (["--date", "2024-07-04"], {}, "is not a trading session"),
    (["--batch"], {}, "--batch needs --provider"),
    (["--run-tokens", "0"], {}, "invalid --run-tokens"),
    ([], {"PREFECT_API_URL": "http://127.0.0.1:9/api"}, "does not answer"),
]


def tree(root: Path) -> dict[str, int]:
    """Every path under `root` with its size (folders 0)."""
    return {
        str(path.relative_to(root)): path.stat().st_size if path.is_file() else 0
        for path in sorted(root.rglob("*"))
    }


def refuse(home: Path, data: Path, options: list[str], env: dict[str, str]) -> str:
    """`nightdesk run` in `home` with `options`: its one line on stderr (it must exit 2)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    cli = Path(sys.executable).with_name("nightdesk")
    done = subprocess.run(
        [cli, "run", "--data", str(data), "--out", "out/night", *options],
        cwd=home,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    return done.stderr


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "folder-in-use"])
def test_every_refusal_leaves_the_tree_as_it_was(
    small_data: Path, tmp_path: Path, existing: bool
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    if existing:  # an output folder with an earlier night's catalog cache and a file of the user's
        (home / "out" / "night" / ".catalog").mkdir(parents=True)
        (home / "out" / "night" / ".catalog" / "catalog-0000-earlier.duckdb").write_text("x")
        (home / "out" / "notes.txt").write_text("mine")
        (home / ".nightdesk" / "prefect").mkdir(parents=True)
        (home / ".nightdesk" / "prefect" / "profiles.toml").write_text("")
    before = tree(home)
    for options, env, said in REFUSALS:
        message = refuse(home, small_data, options, env)
        assert said in message and message.count("\n") == 1, message
        assert tree(home) == before, f"{options or env} left files behind"
