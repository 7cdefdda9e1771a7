"""Consolidation benchmark on LoCoMo: offline sleep, day by day, then what survived.

Each conversation goes into its own temporary workspace. Its sessions are replayed in date
order: the day's turns are written with micro_rest (B notes, dated by the session, ``dia_id`` as
source), then one offline ``sleep_cycle`` consolidates that day (``since`` = the session date).
Printed, per conversation and overall:

- temporal preservation: of the temporal expressions (dates, times, durations, ages, relative
  expressions) in the notes that MEMORY.md and bank entries cite, the share found in the
  entries citing that note, verbatim or as the date they resolve to (the paper measures 3% for
  generic summaries, 62% with one protecting sentence); also over all notes, pruned ones included;
- compression: words in MEMORY.md and bank entries against words in the raw daily notes;
- evidence cited: share of questions (categories 1-4) whose evidence turns are all cited by a
  MEMORY.md or bank entry, and the mean share of evidence turns cited, by category;
- answer words kept: of the answer's words found in a question's evidence turns (relative dates
  resolved), the share also found in the MEMORY.md and bank entries citing those turns. Citing
  a turn is not enough to keep what it said; this checks that condensation kept the words that
  matter. The questions and answers are read only to measure, never to consolidate.

Knobs for trade-off tables: ``--condense-words`` and ``--keep-words`` (word budgets of a
condensed note by tier) and ``--informative`` (the small-talk threshold).

    python bench/bench_consolidation.py [--path ../shared/data/locomo/locomo-dev.json] [--limit N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.analysis import distill, lexical, temporal  # noqa: E402
from agent_sleep.consolidation.sleep import sleep_cycle  # noqa: E402
from agent_sleep.core import notes  # noqa: E402
from agent_sleep.core.notes import sources_of  # noqa: E402
from agent_sleep.core.rest import micro_rest  # noqa: E402
from agent_sleep.core.workspace import Workspace  # noqa: E402
from agent_sleep.providers import offline  # noqa: E402
from bench import locomo  # noqa: E402


def _words(text: str) -> int:
    return len(text.split())


def run_one(sample: dict, budget: int | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace.at(Path(tmp) / "ws").ensure()
        by_day: dict[dt.date, list[locomo.Turn]] = defaultdict(list)
        for t in locomo.turns(sample):
            if t.text:
                by_day[t.when.date()].append(t)
        note_of: dict[str, str] = {}
        started = time.monotonic()
        for day in sorted(by_day):
            for t in by_day[day]:
                note_of[t.dia_id] = micro_rest(
                    t.note, "B", workspace=ws, when=t.when, source=t.dia_id
                )
            sleep_cycle(ws, "both", "offline", since=day, memory_budget_chars=budget)
        seconds = time.monotonic() - started

        raw: dict[str, tuple[str, dt.date]] = {}
        raw_words = 0
        for path in ws.daily_logs():
            day = dt.date.fromisoformat(path.stem)
            for n in notes.parse(ws.read_text(path)).notes("Retain"):
                raw[n.id] = (n.text, day)
                raw_words += _words(n.text)
        citing: dict[str, list[str]] = defaultdict(list)
        out_words = 0
        memory_chars = len(ws.read_text(ws.memory_md))
        for path in [ws.memory_md, *ws.bank_pages()]:
            for n in notes.notes_in(ws.read_text(path)):
                if not n.id:
                    continue
                out_words += _words(n.text)
                for s in sources_of(n):
                    citing[s].append(n.text)
        everything = "\n".join(t for texts in citing.values() for t in texts)

        kept: Counter[str] = Counter()
        total: Counter[str] = Counter()
        kept_all: Counter[str] = Counter()
        total_all: Counter[str] = Counter()
        for nid, (text, day) in raw.items():
            for e in temporal.extract(text):
                total_all[e.kind] += 1
                kept_all[e.kind] += locomo.survives(e, text, day, everything)
                if nid in citing:
                    total[e.kind] += 1
                    kept[e.kind] += locomo.survives(e, text, day, "\n".join(citing[nid]))

        covered: Counter[int] = Counter()
        share: dict[int, float] = defaultdict(float)
        asked: Counter[int] = Counter()
        answer_in_raw: Counter[int] = Counter()
        answer_kept: Counter[int] = Counter()
        for q in locomo.questions(sample):
            ev = [note_of[d] for d in q.evidence if d in note_of]
            asked[q.category] += 1
            if not ev:
                continue
            hit = sum(1 for e in ev if e in citing)
            covered[q.category] += hit == len(ev)
            share[q.category] += hit / len(ev)
            source = " ".join(temporal.resolve(*raw[e]) for e in ev if e in raw)
            kept_text = "\n".join(t for e in ev for t in citing.get(e, []))
            words = set(lexical.tokens(q.answer)) & set(lexical.tokens(source))
            answer_in_raw[q.category] += len(words)
            answer_kept[q.category] += len(words & set(lexical.tokens(kept_text)))
        return {
            "id": sample.get("sample_id", "?"),
            "days": len(by_day),
            "notes": len(raw),
            "cited_notes": sum(1 for n in raw if n in citing),
            "kept": kept,
            "total": total,
            "kept_all": kept_all,
            "total_all": total_all,
            "raw_words": raw_words,
            "out_words": out_words,
            "memory_chars": memory_chars,
            "covered": covered,
            "share": Counter(share),
            "asked": asked,
            "answer_in_raw": answer_in_raw,
            "answer_kept": answer_kept,
            "seconds": seconds,
        }


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:5.1f}%" if b else "   n/a"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--path", default=str(locomo.DEFAULT_PATH), help="LoCoMo JSON file")
    ap.add_argument("--limit", type=int, default=None, help="first N conversations only")
    ap.add_argument("--memory-budget", type=int, default=None, help="MEMORY.md budget (chars)")
    ap.add_argument("--condense-words", type=int, default=offline.CONDENSE_WORDS)
    ap.add_argument("--keep-words", type=int, default=offline.KEEP_WORDS)
    ap.add_argument("--informative", type=float, default=distill.INFORMATIVE)
    args = ap.parse_args()
    offline.CONDENSE_WORDS, offline.KEEP_WORDS = args.condense_words, args.keep_words
    distill.INFORMATIVE = args.informative
    print(
        f"settings: condense {args.condense_words} words, keep {args.keep_words} words, "
        f"informative >= {args.informative}"
    )
    samples = locomo.load(args.path)[: args.limit]
    results = []
    print("conversation  days  notes  cited  temporal kept  compression  MEMORY.md  seconds")
    for sample in samples:
        r = run_one(sample, args.memory_budget)
        results.append(r)
        print(
            f"{r['id']:<12}  {r['days']:>4}  {r['notes']:>5}  {r['cited_notes']:>5}  "
            f"{_pct(sum(r['kept'].values()), sum(r['total'].values())):>13}  "
            f"{r['out_words'] / max(r['raw_words'], 1):>11.2f}  {r['memory_chars']:>9}  "
            f"{r['seconds']:>7.1f}",
            flush=True,
        )
    tot: dict[str, Counter] = {
        k: sum((r[k] for r in results), Counter())
        for k in (
            "kept",
            "total",
            "kept_all",
            "total_all",
            "covered",
            "share",
            "asked",
            "answer_in_raw",
            "answer_kept",
        )
    }
    print("\nTemporal-expression preservation (verbatim or resolved date)")
    print("kind        in cited notes            in all notes")
    for kind in sorted(tot["total_all"]):
        print(
            f"{kind:<10}  {_pct(tot['kept'][kind], tot['total'][kind])} of {tot['total'][kind]:>5}"
            f"          {_pct(tot['kept_all'][kind], tot['total_all'][kind])} of "
            f"{tot['total_all'][kind]:>5}"
        )
    print(
        f"{'all':<10}  {_pct(sum(tot['kept'].values()), sum(tot['total'].values()))} of "
        f"{sum(tot['total'].values()):>5}          "
        f"{_pct(sum(tot['kept_all'].values()), sum(tot['total_all'].values()))} of "
        f"{sum(tot['total_all'].values()):>5}"
    )
    raw_words = sum(r["raw_words"] for r in results)
    out_words = sum(r["out_words"] for r in results)
    notes_total = sum(r["notes"] for r in results)
    cited_total = sum(r["cited_notes"] for r in results)
    print(
        f"\nCompression: {out_words} words in MEMORY.md + bank vs {raw_words} in raw notes "
        f"= {out_words / max(raw_words, 1):.2f}; notes cited {cited_total}/{notes_total} "
        f"({_pct(cited_total, notes_total).strip()})"
    )
    print("\nQuestions whose evidence turns are cited by a MEMORY.md or bank entry")
    print("category       questions   all evidence cited   mean share cited   answer words kept")
    for cat in sorted(tot["asked"]):
        n = tot["asked"][cat]
        print(
            f"{cat} {locomo.CATEGORIES[cat]:<11}  {n:>9}   {_pct(tot['covered'][cat], n):>18}   "
            f"{_pct(tot['share'][cat], n):>16}   "
            f"{_pct(tot['answer_kept'][cat], tot['answer_in_raw'][cat]):>17}"
        )
    n = sum(tot["asked"].values())
    print(
        f"{'all 1-4':<13}  {n:>9}   {_pct(sum(tot['covered'].values()), n):>18}   "
        f"{_pct(sum(tot['share'].values()), n):>16}   "
        f"{_pct(sum(tot['answer_kept'].values()), sum(tot['answer_in_raw'].values())):>17}"
    )
    print(f"\nSeconds: {sum(r['seconds'] for r in results):.1f} for {len(results)} conversations")


if __name__ == "__main__":
    main()
