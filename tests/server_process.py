"""``shanghai-rummy serve`` in a subprocess on 127.0.0.1, and throwaway PostgreSQL databases:
shared by the server's tests and ``benchmarks/server_load.py`` (so no pytest here)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

TIMEOUT = 20.0
"""Seconds any one wait may take before it fails."""


class ServerProcess:
    """``shanghai-rummy serve`` on 127.0.0.1 in a subprocess (port 0: any free one), its
    JSON-line logs read from stderr (the port from the ``listening`` line)."""

    def __init__(
        self,
        store: str,
        port: int = 0,
        env: Mapping[str, str] | None = None,
        keep_logs: bool = True,
    ) -> None:
        self.store = store
        environ = {**os.environ, "SHANGHAI_RUMMY_MESSAGES_PER_SECOND": "1000", **(env or {})}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "shanghai_rummy",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--store",
                store,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=environ,
            text=True,
        )
        self.keep_logs = keep_logs
        self.lines: list[dict[str, Any]] = []
        self.port = self._wait_for_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.process.pid

    def _wait_for_port(self) -> int:
        assert self.process.stderr is not None
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                raise RuntimeError(f"the server exited: {self.process.wait()}")
            event = json.loads(line)
            self.lines.append(event)
            if event["event"] == "listening":
                return int(event["port"])
        raise RuntimeError("the server did not start")

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if self.keep_logs:
                with contextlib.suppress(ValueError):
                    self.lines.append(json.loads(line))

    def events(self, name: str) -> list[dict[str, Any]]:
        """The log lines of one event."""
        return [line for line in list(self.lines) if line.get("event") == name]

    def kill(self) -> int:
        """SIGKILL (or wait for a process that killed itself)."""
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        return self.process.wait(TIMEOUT)

    def stop(self) -> None:
        """Stop it as Ctrl-C would."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(TIMEOUT)


@contextlib.contextmanager
def fresh_database(base_url: str, prefix: str = "sr_test") -> Iterator[str]:
    """A new, empty database on the PostgreSQL server of ``base_url`` (a database the caller
    may create others from); yields its URL, drops it after."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield base_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(base_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
