"""What sleep marks as possibly out of date (consolidation/maybe_replaced.py), replayed.

Each scenario of ``bench/currency_cases/replayed.jsonl.gz`` (written by hand by writers who
never read this code: a business, a club, a household … over five weeks) is replayed as a user
would live it: each day's notes taken with ``micro_rest``, then an offline ``sleep_cycle``
that night. At the end, each mark (an older MEMORY.md entry with ``newer=`` naming a current
entry) is read against the scenario's labelled pairs of notes (``pairs``: 1 where a later note
tells a change of what an earlier one said, 0 where the earlier one holds a value that stays
and the later one shares a content word with it):

- a mark on a told change: the newer entry cites a note that tells a change of a note the
  older entry cites;
- a mark on a value that stays: they cite a pair labelled 0;
- unlabelled: neither (the pair shares no content word, or is of notes not compared).

It also counts the changes left standing (a told change whose later note and earlier note are
cited by two current entries: sleep kept both) and how many of them are marked, and what sleep
settled itself: the told changes whose earlier note's entry was replaced by one citing the later
note ("changes replaced", of all the told changes), and the pairs labelled 0 replaced so
("values replaced": a true fact filed in History by a look-alike), and what the next session's
start shows at the default ``max_memory_chars`` (3,000): how many entries, and of the changes
left standing, how many it shows side by side with nothing telling which came last (no day said,
no mark), and how many with the older entry alone. The last six
scenarios (r192-r197) were never used to fit or choose anything; the mark's constants were
chosen on the others. Figures are printed for the fitted scenarios, the held-out ones and all::

    python bench/bench_marks.py [--sets r192,r193] [--jobs 2]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REPLAYED = ROOT / "bench" / "currency_cases" / "replayed.jsonl.gz"
HELD_OUT = frozenset(f"r{n}" for n in range(192, 198))
SESSION_CHARS = 3000  # get_context's max_memory_chars default


def scenarios(only: frozenset[str] | None = None) -> list[dict]:
    with gzip.open(REPLAYED, "rt", encoding="utf-8") as f:
        sets = [json.loads(line) for line in f]
    return [s for s in sets if only is None or s["set"] in only]


def replay(scenario: dict) -> dict:
    """One scenario replayed night by night in a new workspace: its marks and stale changes."""
    from agent_sleep import micro_rest, sleep_cycle
    from agent_sleep.core import notes as fmt
    from agent_sleep.core.memory import marked
    from agent_sleep.core.workspace import Workspace
    from agent_sleep.retrieval import context

    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        Workspace.at(ws).ensure()
        index: dict[str, int] = {}  # note id -> its position in the scenario
        notes = scenario["notes"]
        for day in sorted({n["day"] for n in notes}):
            start = dt.datetime.fromisoformat(day) + dt.timedelta(hours=9)
            todays = [(i, n) for i, n in enumerate(notes) if n["day"] == day]
            for k, (i, n) in enumerate(todays):
                when = start + dt.timedelta(minutes=5 * k)
                index[micro_rest(n["text"], n["type"], workspace=ws, when=when)] = i
            sleep_cycle(ws, "both", "offline", now=start + dt.timedelta(hours=13))
        memory = (ws / "MEMORY.md").read_text()
        entries = {n.id: n for n in fmt.notes_in(memory) if n.id}
        # the next session's start: which entries it shows, and what it says after each
        next_day = dt.date.fromisoformat(max(n["day"] for n in notes)) + dt.timedelta(days=1)
        shown = {n.id for n in context._memory_view(memory, SESSION_CHARS, next_day)[1]}
        marks = marked(entries.values())
        told = {eid for eid in shown if context._said(entries[eid], marks, next_day)}
        banked = [
            n for p in sorted((ws / "bank").rglob("*.md")) for n in fmt.notes_in(p.read_text())
        ]
    retired = {n.id: n for n in banked if n.id and n.meta.get("superseded_by")}  # in History
    # every entry sleep wrote that still exists, current or not: the notes each cites
    sources = {
        n.id: {index[s] for s in n.meta.get("sources", "").split(",") if s in index}
        for n in [*banked, *entries.values()]
        if n.id
    }
    cites = {eid: sources[eid] for eid in entries}
    label = {(a, b): y for a, b, y in scenario["pairs"]}
    out = {"marks": 0, "change": 0, "stays": 0, "unlabelled": 0, "stale": 0, "stale_marked": 0,
           "replaced": 0, "wrongly": 0, "both_shown": 0, "untold": 0, "only_old": 0}  # fmt: skip
    examples = []
    for eid, e in entries.items():
        newer = e.meta.get("newer", "")
        if newer not in entries:
            continue
        ys = {label.get((a, b)) for a in cites[newer] for b in cites[eid]}
        kind = "change" if 1 in ys else "stays" if 0 in ys else "unlabelled"
        out["marks"] += 1
        out[kind] += 1
        examples.append((kind, e.text, entries[newer].text))
    by_note: dict[int, set[str]] = {}
    for eid, cited in cites.items():
        for i in cited:
            by_note.setdefault(i, set()).add(eid)
    seen = set()
    for a, b, y in scenario["pairs"]:
        if not y:
            continue
        for new in by_note.get(a, ()):
            for old in by_note.get(b, ()):
                if new != old and (new, old) not in seen:
                    seen.add((new, old))
                    out["stale"] += 1
                    out["stale_marked"] += entries[old].meta.get("newer") == new
                    if new in shown and old in shown:  # side by side at the session start
                        out["both_shown"] += 1
                        out["untold"] += not (new in told and old in told)
                    out["only_old"] += old in shown and new not in shown
    # each labelled pair's outcome: the earlier note's entry replaced by one that cites the
    # later note (right for a told change, wrong for a value that stays)
    replaced_by: dict[int, set[int]] = {}  # earlier note -> the notes of what replaced it
    for eid, e in retired.items():
        by = sources.get(e.meta.get("superseded_by", ""), set())
        for b in sources.get(eid, ()):
            replaced_by.setdefault(b, set()).update(by)
    for a, b, y in scenario["pairs"]:
        if a in replaced_by.get(b, ()):
            out["replaced" if y else "wrongly"] += 1
            if not y:
                examples.append(("value replaced", notes[b]["text"], notes[a]["text"]))
    out["changes"] = sum(1 for _, _, y in scenario["pairs"] if y)
    out["entries"], out["shown"] = len(entries), len(shown)
    return {"set": scenario["set"], **out, "examples": examples}


def _line(name: str, rows: list[dict]) -> str:
    t = {k: sum(r[k] for r in rows) for k in ("marks", "change", "stays", "unlabelled")}
    stale, marked = sum(r["stale"] for r in rows), sum(r["stale_marked"] for r in rows)
    told, replaced = sum(r["changes"] for r in rows), sum(r["replaced"] for r in rows)
    wrongly = sum(r["wrongly"] for r in rows)
    return (
        f"{name:<22} {len(rows):>9} {t['marks']:>6} {t['change']:>13} {t['stays']:>12} "
        f"{t['unlabelled']:>11} {f'{marked} of {stale}':>12} "
        f"{f'{replaced} of {told}':>12} {wrongly:>10}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", help="comma-separated scenario names (default: all 95)")
    ap.add_argument("--jobs", type=int, default=2, help="scenarios replayed at once")
    ap.add_argument("--show", action="store_true", help="print every mark and every value replaced")
    args = ap.parse_args()
    only = frozenset(args.sets.split(",")) if args.sets else None
    todo = scenarios(only)
    if not todo:
        sys.exit("bench_marks: no such scenario")
    rows = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for k, row in enumerate(pool.map(replay, todo)):
            rows.append(row)
            print(f"  {row['set']} ({k + 1}/{len(todo)})", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    print(
        f"{'':<22} {'':>9} {'':>6} {'marks':>13} {'':>12} {'':>11} {'standing,':>12} "
        f"{'changes':>12} {'values':>10}"
    )
    print(
        f"{'scenarios':<22} {'replayed':>9} {'marks':>6} {'on a change':>13} "
        f"{'on a value':>12} {'unlabelled':>11} {'marked':>12} {'replaced':>12} {'replaced':>10}"
    )
    fitted = [r for r in rows if r["set"] not in HELD_OUT]
    held = [r for r in rows if r["set"] in HELD_OUT]
    if fitted:
        print(_line("constants chosen on", fitted))
    if held:
        print(_line("held out (r192-r197)", held))
    print(_line("all", rows))
    t = {k: sum(r[k] for r in rows) for k in ("entries", "shown", "stale", "both_shown", "untold")}
    print(
        f"\nThe next session's start (max_memory_chars={SESSION_CHARS}), all: {t['shown']} of "
        f"{t['entries']} MEMORY.md entries shown; of the {t['stale']} changes left standing, "
        f"{t['both_shown']} shown side by side, {t['untold']} of them with nothing telling which "
        f"came last (no day, no mark); the older alone: {sum(r['only_old'] for r in rows)}"
    )
    if args.show:
        for r in rows:
            for kind, old, new in r["examples"]:
                print(f"  {r['set']} {kind}: {old[:90]} | {new[:90]}")


if __name__ == "__main__":
    main()
