"""The compiled build of the library, for measuring: the wheel that pyproject.toml's mypyc hook
makes, unpacked into a folder.

Run: python benchmarks/compiled_build.py [--target build/compiled]
Builds the sdist and, from it, the wheel with the mypyc build hook on
(``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``): the modules that ``[tool.hatch.build.targets.wheel.hooks.
mypyc]`` in pyproject.toml names (the engine and the solver) compiled with mypyc, unchanged.
The wheel is built from the sdist, so no extension module is left in ``src/`` (an editable
install would import it). Needs ``build`` (the dev extra) and a C compiler; the build
environment fetches hatch-mypyc and mypy. The wheel is unpacked into ``TARGET``: run any
benchmark or test on it with ``PYTHONPATH=TARGET``, for example
``PYTHONPATH=build/compiled python benchmarks/engine.py``, or install the wheel (its path is
printed) into an environment of its own. Prints one JSON document: the wheel, where it was
unpacked, how many extension modules it holds, and how long the build took.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(target: Path, wheels: Path) -> dict[str, object]:
    """Build the compiled wheel into ``wheels`` and unpack it into ``target``."""
    wheels.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(wheels), str(ROOT)],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"},
    )
    seconds = time.perf_counter() - start
    (wheel,) = (path for path in wheels.glob("*.whl") if not path.name.endswith("-none-any.whl"))
    if target.exists():
        shutil.rmtree(target)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return {
        "wheel": str(wheel),
        "target": str(target),
        "extension_modules": len(list((target / "shanghai_rummy").rglob("*.so"))),
        "build_seconds": round(seconds, 1),
        "use": f"PYTHONPATH={target} python benchmarks/engine.py",
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, default=ROOT / "build" / "compiled")
    parser.add_argument(
        "--wheels", type=Path, help="where the sdist and wheel go (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    target = args.target.resolve()
    if args.wheels is not None:
        report = build(target, args.wheels.resolve())
    else:
        with tempfile.TemporaryDirectory() as folder:
            report = build(target, Path(folder))
            report["wheel"] = Path(str(report["wheel"])).name + " (not kept: --wheels keeps it)"
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
