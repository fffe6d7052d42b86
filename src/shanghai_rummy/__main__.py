"""``python -m shanghai_rummy``: the ``shanghai-rummy`` command (see :mod:`shanghai_rummy.cli`)."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
