"""``shanghai-rummy serve --stdio``: the JSON-lines protocol over standard input and output.

Each line read is one request (:mod:`shanghai_rummy.protocol`); each reply is written as one
line and flushed at once, in the order of the requests. Blank lines are skipped; the end of
input ends the server with status 0. Nothing else is ever written to standard output, so a
front-end can start this as a child process and talk to it through two pipes.

>>> import io
>>> out = io.StringIO()
>>> serve_stdio(io.StringIO('{"id": 7, "op": "nothing"}\\n\\n'), out)
0
>>> out.getvalue()[:48]
'{"id":7,"ok":false,"error":{"code":"unknown_op",'
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from ..protocol import MAX_REQUEST_CHARS, Protocol

__all__ = ["serve_stdio"]


def serve_stdio(source: TextIO, out: TextIO, protocol: Protocol | None = None) -> int:
    """Answer every request line of ``source`` on ``out`` until the input ends."""
    protocol = Protocol() if protocol is None else protocol
    while True:
        line = source.readline(MAX_REQUEST_CHARS + 2)
        if not line:
            return 0
        if len(line) > MAX_REQUEST_CHARS and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # skip the rest of the long line
                line = source.readline(MAX_REQUEST_CHARS)
            reply: dict[str, Any] = protocol.handle("x" * (MAX_REQUEST_CHARS + 1))
        elif not line.strip():
            continue
        else:
            reply = protocol.handle(line.rstrip("\r\n"))
        out.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
