"""``python -m benchmarks``: the combined benchmark runner (see ``benchmarks/run.py``)."""

from benchmarks.run import main

main()
