"""One peer memory system fed LoCoMo turns and asked LoCoMo questions (run by bench_peers.py).

Runs under the peer's own interpreter (basic-memory needs Python >= 3.12), so it imports only
the standard library and the peer's package: never agent_sleep. Reads a job (JSON) and writes
(JSON) each question's ranked results as ``[dia_id, text]`` pairs, plus the mode that ran, the
ingest time per note and the query times; bench_peers.py packs and scores them.

    python bench/peer_worker.py mem0|basic-memory JOB.json OUT.json
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def run_mem0(job: dict[str, Any]) -> dict[str, Any]:
    os.environ.setdefault("MEM0_TELEMETRY", "False")
    from mem0 import Memory

    work = Path(job["work"])
    work.mkdir(parents=True, exist_ok=True)
    config = {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "path": str(work / "qdrant"),
                "collection_name": "locomo",
                "embedding_model_dims": 384,
                "on_disk": True,
            },
        },
        # the same MiniLM weights as agent-sleep, as a path string (a Path object is refused)
        "embedder": {"provider": "huggingface", "config": {"model": str(job["model"])}},
        # never called: every add() below passes infer=False (no LLM extraction)
        "llm": {"provider": "openai", "config": {"api_key": "not-used", "model": "not-used"}},
        "history_db_path": str(work / "history.db"),
    }
    memory = Memory.from_config(config)
    out: dict[str, Any] = {"mode": "vector search (qdrant local path, MiniLM), infer=False"}
    ingest = 0.0
    notes = 0
    results: dict[str, list[list[list[str]]]] = {}
    times: list[float] = []
    for conv in job["conversations"]:
        t = time.perf_counter()
        for turn in conv["turns"]:
            memory.add(
                [{"role": "user", "content": turn["text"]}],
                user_id=conv["id"],
                metadata={"dia_id": turn["dia_id"]},
                infer=False,
            )
        ingest += time.perf_counter() - t
        notes += len(conv["turns"])
        ranked = []
        for q in conv["questions"]:
            t = time.perf_counter()
            found = memory.search(
                q, top_k=job["depth"], filters={"user_id": conv["id"]}, threshold=0.0
            )
            times.append(time.perf_counter() - t)
            items = found.get("results", []) if isinstance(found, dict) else found
            ranked.append(
                [[str((r.get("metadata") or {}).get("dia_id", "")), r["memory"]] for r in items]
            )
        results[conv["id"]] = ranked
    out.update(ingest_s_per_note=ingest / max(notes, 1), query_s=times, results=results)
    return out


def run_basic_memory(job: dict[str, Any]) -> dict[str, Any]:
    """One Markdown note per turn in a project folder, indexed by ``basic-memory project add``;
    questions through its search tool in keyword (full-text) mode."""
    work = Path(job["work"])
    bm = str(Path(sys.executable).with_name("basic-memory"))
    env = {**os.environ, "HOME": str(work / "home"), "BASIC_MEMORY_DEFAULT_SEARCH_TYPE": "text"}
    os.environ.update(env)
    out: dict[str, Any] = {"mode": "keyword search (SQLite full-text), search_type=text"}
    ingest = 0.0
    notes = 0
    folders = {}
    for conv in job["conversations"]:
        folder = work / "projects" / conv["id"]
        folder.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        for n, turn in enumerate(conv["turns"]):
            body = f"---\ntitle: note {n}\ndate: {turn['when']}\n---\n\n{turn['text']}\n"
            (folder / f"note-{n}.md").write_text(body, encoding="utf-8")
        subprocess.run(
            [bm, "project", "add", conv["id"], str(folder)],
            env=env,
            check=True,
            capture_output=True,
        )
        ingest += time.perf_counter() - t
        notes += len(conv["turns"])
        folders[conv["id"]] = folder
    from basic_memory.mcp.tools.search import search_notes

    results: dict[str, list[list[list[str]]]] = {}
    times: list[float] = []

    async def ask() -> None:
        for conv in job["conversations"]:
            by_title = {f"note {n}": t for n, t in enumerate(conv["turns"])}
            ranked = []
            for q in conv["questions"]:
                t = time.perf_counter()
                found = await search_notes(
                    query=q,
                    project=conv["id"],
                    page_size=job["depth"],
                    search_type="text",
                    output_format="json",
                )
                times.append(time.perf_counter() - t)
                ranked.append(_bm_items(found, by_title))
            results[conv["id"]] = ranked

    asyncio.run(ask())
    out.update(ingest_s_per_note=ingest / max(notes, 1), query_s=times, results=results)
    return out


def _bm_items(found: Any, by_title: dict[str, dict[str, str]]) -> list[list[str]]:
    if isinstance(found, str):
        try:
            found = json.loads(found)
        except ValueError:
            return []
    items = found.get("results", []) if isinstance(found, dict) else []
    out = []
    for r in items:
        turn = by_title.get(str(r.get("title", "")))
        if turn is not None:
            out.append([turn["dia_id"], turn["text"]])
    return out


def main() -> None:
    peer, job_path, out_path = sys.argv[1:4]
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    try:
        result = run_mem0(job) if peer == "mem0" else run_basic_memory(job)
    except Exception as e:  # reported, not faked: the table says the peer did not run
        result = {"error": f"{type(e).__name__}: {e}"[:500]}
    Path(out_path).write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    main()
