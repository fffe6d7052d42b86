"""Load on the game server, over loopback only: many WebSocket clients, each a seat at a table
of people whose moves a greedy bot chooses in the client, play short games at once.

It starts ``shanghai-rummy serve`` on 127.0.0.1 (any free port) in a subprocess, on a fresh
SQLite file or a fresh PostgreSQL database (``--postgres URL`` of a server the benchmark may
create a database on), makes ``--tables`` tables of ``--seats`` people, connects one client
per seat, and lets them play ``--deals`` deals each, for at most ``--seconds``. It prints JSON:
actions per second (moves acknowledged, over the whole run), the time from sending a move to
receiving the view that follows it (p50, p99, max, in ms), and the server's resident memory
per table (after the tables were made and connected, less before, over the number of tables),
the CPU time per move of the server process and of the clients' (figures that a busy machine
changes less than the time figures), and the load average at the end.

    python benchmarks/server_load.py                   # 50 tables x 4 clients, SQLite
    python benchmarks/server_load.py --postgres postgresql://postgres@127.0.0.1/postgres

The clients run in this process (asyncio), the server in another, both on this machine's
cores: the figures are the server's throughput with its clients beside it, not alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs
import httpx
from websockets.asyncio.client import connect

import shanghai_rummy as sr

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.server_process import ServerProcess, fresh_database


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    """The user and system CPU time a process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _server(store: str) -> ServerProcess:
    return ServerProcess(
        store,
        env={
            "SHANGHAI_RUMMY_MAX_CONNECTIONS": "5000",
            "SHANGHAI_RUMMY_MAX_TABLES_PER_CLIENT": "10000",
            "SHANGHAI_RUMMY_MESSAGES_PER_SECOND": "10000",
        },
        keep_logs=False,
    )


def _view_without_events(document: dict[str, Any]) -> sr.PlayerView:
    """The view the greedy bot needs, read without the deal's events (it does not look at
    them; reading them would be most of a client's work)."""
    data = {key: value for key, value in document["data"].items() if key != "events"}
    view: sr.PlayerView = sr.from_dict({**document, "data": data}, sr.PlayerView)
    return view


class Seat:
    """One client: plays its seat with the greedy bot's choices and times each move."""

    def __init__(self, url: str, table: str, seat: int, credential: str) -> None:
        self.url, self.table, self.seat, self.credential = url, table, seat, credential
        self.latencies: list[float] = []
        self.moves = 0

    async def play(self, deadline: float) -> None:
        async with connect(f"{self.url}/ws/{self.table}", max_size=2**22) as socket:
            await socket.send(
                json.dumps(
                    {"id": 0, "op": "hello", "seat": self.seat, "credential": self.credential}
                )
            )
            bot = sr.GreedyBot()
            waiting_for: int | None = None
            sent_at = 0.0
            next_id = 1
            while time.monotonic() < deadline:
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 30))
                except TimeoutError:
                    return
                if message.get("type") != "update":
                    continue
                if waiting_for is not None:
                    if message["action_count"] < waiting_for:
                        continue
                    self.latencies.append(time.perf_counter() - sent_at)
                    waiting_for = None
                if message["over"]:
                    return
                view = message["view"]["data"]
                if view["to_act"] != self.seat or not message["legal"]:
                    continue
                action = bot.choose(_view_without_events(message["view"]))
                sent_at = time.perf_counter()
                await socket.send(
                    json.dumps({"id": next_id, "op": "act", "action": sr.to_dict(action)})
                )
                next_id += 1
                self.moves += 1
                waiting_for = message["action_count"] + 1


async def run(args: argparse.Namespace, store: str) -> dict[str, Any]:
    server = _server(store)
    base = server.base
    variant = sr.to_dict(attrs.evolve(sr.get_variant("shanghai"), deal_count=args.deals))
    try:
        before = _rss_kib(server.pid)
        seats: list[Seat] = []
        async with httpx.AsyncClient(base_url=base, timeout=30) as lobby:
            for number in range(args.tables):
                made = await lobby.post(
                    "/api/tables",
                    json={"variant": variant, "seats": ["person"] * args.seats, "seed": number},
                )
                table = made.json()["table"]
                for seat in range(args.seats):
                    joined = (
                        await lobby.post(f"/api/tables/{table}/join", json={"seat": seat})
                    ).json()
                    seats.append(
                        Seat(base.replace("http", "ws"), table, seat, joined["credential"])
                    )
        started = time.perf_counter()
        server_cpu, client_cpu = _cpu_seconds(server.pid), time.process_time()
        deadline = time.monotonic() + args.seconds
        players = [asyncio.get_running_loop().create_task(seat.play(deadline)) for seat in seats]
        await asyncio.sleep(1.0)
        connected = _rss_kib(server.pid)
        await asyncio.gather(*players)
        elapsed = time.perf_counter() - started
        after = _rss_kib(server.pid)
        server_cpu = _cpu_seconds(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
    finally:
        server.stop()
    latencies = sorted(value for seat in seats for value in seat.latencies)
    moves = sum(seat.moves for seat in seats)

    def quantile(q: float) -> float:
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)

    return {
        "store": "postgresql" if store.startswith("postgresql") else "sqlite",
        "tables": args.tables,
        "clients": len(seats),
        "deals_per_game": args.deals,
        "seconds": round(elapsed, 2),
        "moves": moves,
        "actions_per_second": round(moves / elapsed, 1),
        "send_to_next_view_ms": {
            "p50": quantile(0.50),
            "p99": quantile(0.99),
            "max": round(1000 * latencies[-1], 2) if latencies else None,
            "mean": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        },
        "server_rss_kib": {"before_tables": before, "tables_connected": connected, "after": after},
        "memory_per_table_kib": round((connected - before) / args.tables, 1),
        "cpu_ms_per_move": {
            "server": round(1000 * server_cpu / max(1, moves), 2),
            "clients": round(1000 * client_cpu / max(1, moves), 2),
        },
        "load_average": [round(value, 2) for value in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1, help="deals per game (default 1)")
    parser.add_argument("--seconds", type=float, default=240.0, help="stop after (default 240)")
    parser.add_argument("--postgres", metavar="URL", help="also run on a PostgreSQL server")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as folder:
        results.append(asyncio.run(run(args, str(Path(folder) / "load.sqlite3"))))
    if args.postgres:
        with fresh_database(args.postgres, prefix="sr_load") as url:
            results.append(asyncio.run(run(args, url)))
    print(json.dumps({"server_load": results}, indent=2))


if __name__ == "__main__":
    main()
