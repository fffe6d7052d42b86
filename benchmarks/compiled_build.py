"""A compiled copy of the library, for measuring: the typed engine and solver built with mypyc.

Run: python benchmarks/compiled_build.py [--target build/compiled]
Copies ``src/shanghai_rummy`` to ``TARGET/shanghai_rummy`` and compiles the modules of
:data:`COMPILED` there with mypyc (``pip install mypy`` gives it, and a C compiler is needed),
unchanged: the same source, type-checked under the same rules. Every other module stays
interpreted: ``cards``, ``actions``, ``contracts`` and ``variants`` build their values with a
custom ``__new__`` or attrs converters; mypyc refuses ``melds`` (its shape classes share a
plain base class) and ``bots`` (a runtime-checkable protocol); a compiled ``state`` reports
its fields' types so that the state's type check refuses every state; and compiling
``views``, ``event_log``, ``scoring`` and ``simulate`` as well gained about 7% more in
GreedyBot games. Then run any benchmark
or test on the copy with ``PYTHONPATH=TARGET``, for example
``PYTHONPATH=build/compiled python benchmarks/engine.py``. Prints one JSON document: what was
compiled, where, and how long it took.

This is a measurement, not a release: the wheel published and tested is pure Python.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMPILED = ("engine", "solver", "memo.py", "levels.py")
"""The modules (packages or files under ``shanghai_rummy/``) compiled by default: the
engine and the solver, and the two small modules they lean on."""


def build(target: Path, modules: tuple[str, ...]) -> dict[str, object]:
    """Copy the package to ``target`` and compile ``modules`` there with mypyc."""
    package = target / "shanghai_rummy"
    if package.exists():
        shutil.rmtree(package)
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "src" / "shanghai_rummy", package)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mypyc", *(f"shanghai_rummy/{name}" for name in modules)],
        cwd=target,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return {
        "target": str(target),
        "compiled": list(modules),
        "extension_modules": len(list(package.rglob("*.so"))),
        "build_seconds": round(time.perf_counter() - start, 1),
        "use": f"PYTHONPATH={target} python benchmarks/engine.py",
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, default=ROOT / "build" / "compiled")
    args = parser.parse_args(argv)
    print(json.dumps(build(args.target.resolve(), COMPILED), indent=2))


if __name__ == "__main__":
    main()
