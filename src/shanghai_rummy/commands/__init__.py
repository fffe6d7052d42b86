"""The subcommands of the ``shanghai-rummy`` command, one module each: each adds its arguments
(``add_parser``) and runs (``run``); :mod:`shanghai_rummy.cli` parses and dispatches."""

__all__: list[str] = []
