"""Integration start-up and SessionStart size, measured.

1. MCP server ready: from spawning ``agent-sleep mcp`` to the SDK's stdio client holding the
   ``initialize`` answer (median of ``--runs``), next to a bare ``from mcp.server import
   MCPServer`` in a fresh interpreter.
2. SessionStart and SessionEnd hook wall times (real subprocesses fed the hook JSON; SessionEnd
   returns once its detached sleep is started), next to
   ``python -c "import click"`` and ``python -c pass``, interleaved in the same run.
3. PreCompact on a 50 MB transcript (the test fixture's generator), and again with nothing new.
4. What SessionStart injects on the LoCoMo dev workspaces: each conversation is imported day by
   day (``bench/locomo.py``: every turn a B note dated by its session) with an offline sleep
   after each day, then the SessionStart block is built as of the last session's date (so that
   day's log counts as today's) and a week later (MEMORY.md and the next-session actions only).

    python bench/bench_integrations.py [--path ../shared/data/locomo/locomo-dev.json] [--runs 9]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import locomo  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "AGENT_SLEEP_PROVIDER": "offline"}


def wall(argv: list[str], stdin: str = "") -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, capture_output=True, text=True, env=ENV, check=True)
    return time.perf_counter() - started


def mcp_ready(ws: Path) -> float:
    import anyio
    from mcp.client import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def once() -> float:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "agent_sleep", "mcp", "--workspace", str(ws)],
            env={"PYTHONPATH": str(ROOT)},
        )
        started = time.perf_counter()
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return time.perf_counter() - started

    return anyio.run(once)


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms (min {min(values) * 1000:.0f})"


def _wait_for_workers(ws: Path, timeout: float = 120.0) -> None:
    """Let the detached sleeps the SessionEnd runs started finish before the folder goes."""
    journal = ws / ".agent-sleep" / "journal.jsonl"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        entries = [json.loads(line) for line in journal.read_text().splitlines()]
        started = sum(
            e.get("hook") == "session-end" and e.get("sleep") == "started" for e in entries
        )
        ended = sum(e.get("hook") == "session-end-sleep" for e in entries)
        if ended >= started:
            return
        time.sleep(0.2)


def startup(runs: int, ws: Path) -> None:
    from agent_sleep import micro_rest

    micro_rest("The staging database resets every Sunday", "W", workspace=ws)
    hook_in = json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "",
            "cwd": str(ws),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
    )
    end_in = hook_in.replace('"SessionStart"', '"SessionEnd"').replace('"source"', '"reason"')
    py = sys.executable
    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        times["python -c pass"].append(wall([py, "-c", "pass"]))
        times['python -c "import click"'].append(wall([py, "-c", "import click"]))
        times["agent-sleep hook session-start"].append(
            wall(
                [py, "-m", "agent_sleep", "hook", "session-start", "--workspace", str(ws)], hook_in
            )
        )
        times["agent-sleep hook session-end (returns)"].append(
            wall([py, "-m", "agent_sleep", "hook", "session-end", "--workspace", str(ws)], end_in)
        )
        times["from mcp.server import MCPServer"].append(
            wall([py, "-c", "from mcp.server import MCPServer"])
        )
        times["agent-sleep mcp: spawn to initialized"].append(mcp_ready(ws))
    _wait_for_workers(ws)
    print(f"Start-up, median of {runs} runs (interleaved):")
    for name, values in times.items():
        print(f"  {name:<40} {ms(values)}")


def locomo_sizes(path: Path) -> None:
    from agent_sleep import Workspace, micro_rest, sleep_cycle
    from agent_sleep.integrations.claude_code import OUTPUT_CHARS, session_start_context
    from agent_sleep.retrieval.context import get_context

    print("\nSessionStart on the LoCoMo dev workspaces (characters):")
    print(
        f"  {'conversation':<14}{'notes':>6}{'MEMORY.md':>11}{'full ctx':>10}"
        f"{'injected last day':>19}{'a week on':>11}  trimmed"
    )
    for sample in locomo.load(path):
        with tempfile.TemporaryDirectory() as tmp:
            ws = Workspace.at(Path(tmp) / "ws").ensure()
            by_day: dict[dt.date, list[locomo.Turn]] = defaultdict(list)
            for t in locomo.turns(sample):
                if t.text:
                    by_day[t.when.date()].append(t)
            count = 0
            for day in sorted(by_day):
                for t in by_day[day]:
                    micro_rest(t.note, "B", workspace=ws, when=t.when, source=t.dia_id)
                    count += 1
                end = dt.datetime.combine(day, dt.time(23, 0))
                sleep_cycle(ws, "both", "offline", since=day, now=end)
            last = max(by_day)
            full = get_context(ws, today=last)
            on_last = session_start_context(ws, today=last)
            later = session_start_context(ws, today=last + dt.timedelta(days=7))
            answer = json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "SessionStart",
                        "additionalContext": on_last,
                    }
                },
                ensure_ascii=False,
            )
            assert len(answer) < OUTPUT_CHARS + 500
            cuts = {  # what the block left out, by the line that says so
                "memory": "[MEMORY.md trimmed" in on_last,
                "log": "[older notes of" in on_last,
                "all": "more than fits" in on_last,
            }
            trimmed = ",".join(k for k, v in cuts.items() if v) or "no"
            memory = len(ws.read_text(ws.memory_md))
            print(
                f"  {sample.get('sample_id', '?'):<14}{count:>6}{memory:>11}"
                f"{len(full):>10}{len(on_last):>19}{len(later):>11}  {trimmed}"
                f"  (hook JSON {len(answer)})"
            )


def pre_compact_big(ws: Path, folder: Path) -> None:
    """PreCompact on a 50 MB transcript (mostly tool output), then again with nothing new."""
    from tests.fixtures import claude_transcript as ct

    facts = [f"Remember that service {i} deploys on Tuesdays at {i % 12 + 1} pm" for i in range(30)]
    noise = "src/module.py: def handler(event): return process(event)\n" * 1100
    transcript = ct.write(folder / "big.jsonl", ct.conversation(facts, noise) * 14)
    hook_in = json.dumps(
        {
            "session_id": ct.SESSION,
            "transcript_path": str(transcript),
            "cwd": str(folder),
            "hook_event_name": "PreCompact",
            "trigger": "auto",
        }
    )
    argv = [sys.executable, "-m", "agent_sleep", "hook", "pre-compact", "--workspace", str(ws)]
    first = wall(argv, hook_in)
    again = wall(argv, hook_in)
    size = transcript.stat().st_size / 1e6
    print(
        f"\nPreCompact on a {size:.0f} MB transcript: {first:.2f} s; "
        f"again, nothing new: {again:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--path", type=Path, default=locomo.DEFAULT_PATH)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--skip-locomo", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        startup(args.runs, Path(tmp) / "ws")
    with tempfile.TemporaryDirectory() as tmp:
        pre_compact_big(Path(tmp) / "ws", Path(tmp))
    if not args.skip_locomo:
        locomo_sizes(args.path)


if __name__ == "__main__":
    main()
