"""Benchmarks of shanghai-rummy; each prints JSON figures. Run ``python -m benchmarks``."""
