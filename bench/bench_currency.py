"""Currency benchmark: does sleep keep knowledge current?

A generator writes update scenarios (an old fact, then weeks later a new value for the same
subject and attribute) in eight families, and look-alike controls (two facts that resemble each
other but are both true), over six weeks with unrelated notes between, and one offline sleep
after each day (``now=`` / ``when=`` set the dates; no wall clock). Families 1-6 are the issue's
(relocation, role or owner change, version or configuration value, schedule, preference flip, a
number changed with no change word); ``contact`` and ``status`` are held out: their wording
shares no template with any other family. The generator's phrasing was written apart from the
detector (analysis/currency.py), which knows general change language, not these templates;
seed 7's failures were then used to find missing general rules (possessives, leading time
phrases, "took over … from"), so other seeds (--seed) and the held-out families are the fairer
check.

Printed:

- updates: share for which MEMORY.md shows only the new value *and* recall ranks a unit with
  the new value above any with the old one (target >= 95%), by family; recall asks for the
  10 best units, or with ``--budget-tokens N`` for what fits N tokens (600 or more is a deep
  request, which the learned rerank re-scores);
- stale entries left in MEMORY.md (a current entry holding the old value without the new one;
  target 0);
- controls with both facts kept current (MEMORY.md or current bank entries; target 100%);
- for updates of family ``list`` (one item of a list removed or swapped): the other items of
  the list, still current in MEMORY.md or the bank (a note that replaces the list whole
  passes the update and drops them; target all);
- with ``--locomo PATH``: on the LoCoMo dev conversations after day-by-day consolidation, the
  conflicting-entry ratio of MEMORY.md (pairs of current entries that the currency detector
  reads as the same subject and attribute with different values, per 100 entries) and the
  bench_consolidation headline figures (temporal preservation, compression, evidence cited).

With ``--cases FILE`` it replays update scenarios written by hand instead (a JSON list of
objects: ``kind`` "update" or "control", ``subject``, ``first``, ``second``, ``old``, ``new``,
``query``; a subject may name two alternatives, ``"laptop|ThinkPad"``, when the two notes
name it apart), placed on the same six weeks. ``bench/currency_cases/`` holds ten sets, each
written by hand apart from the detector and from the generator, in wording of its own:
``written_a`` (30 updates, 10 controls) to ``written_e``, ``written_g``, ``written_i`` and
``written_j`` (60, 20 each) were read to find rules, and fit the learned last word
(bench/fit_currency.py); ``written_f`` and ``written_h`` (60, 20) were never read nor fitted
on; ``written_k`` (30 updates of family ``list``: one item of a list fact removed or swapped,
10 controls) was written after the list rule (analysis/lists.py) and is not fitted on
(references/consolidation.md gives how each was used).

It runs against any checkout on ``PYTHONPATH`` (the public API only; ``now=`` is passed when
``sleep_cycle`` takes it), so the commit before this work can be measured with the same
scenarios. Without one, it measures the checkout it sits in (the first line printed names the
code under test): a copy run from a worktree used to measure whatever tree the environment had
installed in editable mode instead, as it stood at that moment::

    python bench/bench_currency.py [--seed 7] [--locomo ../shared/data/locomo/locomo-dev.json]
    python bench/bench_currency.py --cases bench/currency_cases/written_d.json --budget-tokens 1000
    PYTHONPATH=/work/base python bench/bench_currency.py   # the same scenarios, old code
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import os
import random
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _checkout_named() -> bool:
    """Whether ``PYTHONPATH`` names a checkout to measure (a folder holding ``agent_sleep``)."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return any(p and (Path(p) / "agent_sleep" / "__init__.py").is_file() for p in paths)


if not _checkout_named():  # this bench's own checkout, not an installed one
    sys.path.insert(0, str(ROOT))

import agent_sleep  # noqa: E402

START = dt.date(2026, 9, 7)
DAYS = 42
FILLER_PER_DAY = 3


@dataclass(frozen=True)
class Scenario:
    family: str
    subject: str  # a word every text about it contains
    first: str
    second: str
    old: str  # value of the first text
    new: str  # value of the second text ("" for a control: both must stay)
    query: str
    kind: str = "W"
    conf: tuple[float | None, float | None] = (None, None)


PEOPLE = [
    "Aiko",
    "Bruno",
    "Chidi",
    "Dagny",
    "Emeka",
    "Farah",
    "Goran",
    "Hana",
    "Ilse",
    "Jomo",
    "Kaito",
    "Leila",
    "Mateo",
    "Nadia",
    "Oskar",
    "Pilar",
    "Quinn",
    "Rosa",
    "Soren",
    "Tariq",
    "Ulla",
    "Vikram",
    "Wanda",
    "Xiomara",
    "Yusuf",
    "Zofia",
    "Anders",
    "Beatriz",
    "Cosmin",
    "Dalia",
    "Esther",
    "Fionn",
    "Gaspar",
    "Hedda",
    "Ismael",
    "Juno",
    "Kasia",
    "Lorenzo",
    "Mirela",
    "Nikos",
    "Odile",
    "Pavel",
    "Rania",
    "Stellan",
    "Tomasz",
    "Uma",
    "Valeria",
    "Wim",
    "Yara",
    "Zoltan",
]
PEOPLE += [
    "Adaeze",
    "Bartosz",
    "Camila",
    "Desmond",
    "Elif",
    "Fumiko",
    "Gideon",
    "Halima",
    "Ivo",
    "Jarrah",
    "Keziah",
    "Lucian",
    "Maelle",
    "Njeri",
    "Orla",
    "Paavo",
    "Rafferty",
    "Saoirse",
    "Thiago",
    "Umaima",
    "Vesna",
    "Wiremu",
    "Xander",
    "Yolanda",
    "Zuberi",
    "Alarik",
    "Brisa",
    "Cassius",
    "Dunya",
    "Eero",
    "Folasade",
    "Gunnar",
    "Hyacinth",
    "Idris",
    "Jelena",
    "Kwame",
    "Linnea",
    "Marisol",
    "Nnamdi",
    "Ottilie",
    "Przemek",
    "Quilla",
    "Rasmus",
    "Sunniva",
    "Teodor",
    "Ulrike",
    "Viggo",
    "Wangari",
    "Yannick",
    "Zaira",
    "Anouk",
    "Bodhi",
    "Ciaran",
    "Delphine",
    "Ezra",
    "Fatou",
    "Giedre",
]
CITIES = [
    "Lisbon",
    "Porto",
    "Madrid",
    "Valencia",
    "Lyon",
    "Marseille",
    "Turin",
    "Bologna",
    "Krakow",
    "Gdansk",
    "Leipzig",
    "Dresden",
    "Utrecht",
    "Ghent",
    "Bergen",
    "Aarhus",
    "Tampere",
    "Riga",
    "Tallinn",
    "Vilnius",
    "Ljubljana",
    "Zagreb",
    "Brno",
    "Graz",
    "Salzburg",
    "Basel",
    "Geneva",
    "Seville",
    "Bilbao",
    "Nantes",
    "Bordeaux",
    "Cork",
    "Galway",
    "Malmo",
    "Uppsala",
    "Oulu",
    "Trieste",
    "Verona",
    "Palermo",
    "Split",
]
COMPANIES = [
    "Nordlys",
    "Quartzline",
    "Brightwave",
    "Hollowpine",
    "Tidemark",
    "Corvexa",
    "Lumenfold",
    "Ironbark",
    "Vantora",
    "Stillwater",
    "Pebbleworks",
    "Orbitale",
]
COMPANIES += ["Zephyrine", "Marrowgate", "Quillfeather", "Ostrander", "Valebrook", "Cindervale"]
SERVICES = [
    "billing",
    "invoicing",
    "search",
    "checkout",
    "ledger",
    "notifications",
    "payroll",
    "catalog",
    "ingest",
    "reporting",
    "onboarding",
    "scheduler",
]
PROJECTS = [
    "Kestrel",
    "Juniper",
    "Marlin",
    "Osprey",
    "Tundra",
    "Saffron",
    "Quokka",
    "Ember",
    "Cobalt",
    "Heron",
    "Lantern",
    "Mistral",
]
PROJECTS += [
    "Pelican",
    "Sorrel",
    "Bramble",
    "Nimbus",
    "Tamarind",
    "Quillon",
    "Wren",
    "Galena",
    "Basalt",
    "Yarrow",
]
TOOLS = [
    ("Python", "3.9", "3.12"),
    ("Node", "16", "22"),
    ("Postgres", "13", "16"),
    ("Kafka", "2.8", "3.7"),
    ("Terraform", "1.3", "1.9"),
    ("Go", "1.19", "1.23"),
    ("Redis", "6.2", "7.4"),
    ("Java", "11", "21"),
]
SETTINGS = [
    ("request timeout", "30 seconds", "90 seconds"),
    ("retry limit", "3", "7"),
    ("cache size", "512 MB", "2 GB"),
    ("worker count", "4", "12"),
    ("log retention", "14 days", "60 days"),
    ("batch size", "100", "250"),
]
MEETINGS = [
    "architecture sync",
    "release planning",
    "design critique",
    "customer review",
    "budget review\n",
    "hiring debrief",
    "incident review",
    "roadmap session",
    "data council",
    "security office hours",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
TIMES = ["8:30", "9:00", "10:15", "11:00", "13:30", "14:00", "15:45", "16:30"]
CHOICES = [
    ("green tea", "espresso"),
    ("trains", "flights"),
    ("paper notebooks", "tablets"),
    ("dark mode", "light mode"),
    ("standing desks", "regular chairs"),
    ("morning meetings", "afternoon meetings"),
    ("Vim", "Emacs"),
    ("jazz", "techno"),
]
TEAMS = ["platform", "mobile", "growth", "research", "support", "infra", "payments", "design"]
FILLER = [
    "Spent the afternoon reviewing pull request {n} for the docs site.",
    "The coffee machine on floor {n} is broken again.",
    "Read an article about sourdough starters; {n} grams of flour per feed.",
    "Cleaned up {n} stale branches in the monorepo.",
    "Fire drill scheduled by facilities; it took {n} minutes.",
    "Pair-programmed on the flaky date parser test for {n} minutes.",
    "Ordered {n} new whiteboard markers for the team room.",
    "Watched a talk on property-based testing during lunch.",
]


def _pick(rng: random.Random, pool: list[str], used: set[str]) -> str:
    free = [x for x in pool if x not in used] or pool
    x = rng.choice(free)
    used.add(x)
    return x


def _relocation(rng: random.Random, used: set[str]) -> Scenario:
    p, a, b = _pick(rng, PEOPLE, used), _pick(rng, CITIES, used), _pick(rng, CITIES, used)
    first = rng.choice(
        [
            "{p} rents a flat in {a}.",
            "{p}'s home base is {a}.",
            "{p} is living in {a} currently.",
            "{p} resides in {a}.",
        ]
    )
    second = rng.choice(
        [
            "{p} relocated to {b} over the summer.",
            "{p} has moved house to {b}.",
            "{p} now lives in {b}.",
            "{p} moved away from {a} and settled in {b}.",
            "These days {p} is based in {b} instead of {a}.",
        ]
    )
    return Scenario(
        "relocation",
        p,
        first.format(p=p, a=a),
        second.format(p=p, a=a, b=b),
        a,
        b,
        f"where does {p} live",
    )


def _owner(rng: random.Random, used: set[str]) -> Scenario:
    p, q, s = _pick(rng, PEOPLE, used), _pick(rng, PEOPLE, used), _pick(rng, SERVICES, used)
    first = rng.choice(
        [
            "{p} is the owner of the {s} service.",
            "The {s} service is maintained by {p}.",
            "{p} owns the {s} service.",
        ]
    )
    second = rng.choice(
        [
            "{q} took over the {s} service from {p}.",
            "The {s} service is now maintained by {q}.",
            "{q} is now responsible for the {s} service.",
            "Ownership of the {s} service moved from {p} to {q}.",
        ]
    )
    return Scenario(
        "owner",
        s,
        first.format(p=p, s=s),
        second.format(p=p, q=q, s=s),
        p,
        q,
        f"who owns the {s} service",
    )


def _version(rng: random.Random, used: set[str]) -> Scenario:
    proj = _pick(rng, PROJECTS, used)
    if rng.random() < 0.5:
        tool, v1, v2 = rng.choice(TOOLS)
        first = rng.choice(["{j} runs on {t} {v1}.", "The {j} build pins {t} {v1}."])
        second = rng.choice(
            [
                "{j} was upgraded from {t} {v1} to {t} {v2}.",
                "{j} moved to {t} {v2}.",
                "The {j} build now pins {t} {v2}.",
            ]
        )
        return Scenario(
            "version",
            proj,
            first.format(j=proj, t=tool, v1=v1),
            second.format(j=proj, t=tool, v1=v1, v2=v2),
            f"{tool} {v1}",
            f"{tool} {v2}",
            f"which {tool} version does {proj} use",
        )
    setting, n1, n2 = rng.choice(SETTINGS)
    first = rng.choice(["The {s} for {j} is {n1}.", "{j} uses a {s} of {n1}."])
    second = rng.choice(
        [
            "We raised the {s} for {j} to {n2}.",
            "The {s} for {j} changed to {n2}.",
            "The {s} for {j} is now {n2}.",
        ]
    )
    return Scenario(
        "version",
        proj,
        first.format(s=setting, j=proj, n1=n1),
        second.format(s=setting, j=proj, n2=n2),
        n1,
        n2,
        f"what is the {setting} for {proj}",
    )


def _schedule(rng: random.Random, used: set[str]) -> Scenario:
    m = _pick(rng, MEETINGS, used)
    d1, d2 = rng.sample(WEEKDAYS, 2)
    t1, t2 = rng.sample(TIMES, 2)
    first = rng.choice(["The {m} takes place on {d1}s at {t1}.", "The {m} is every {d1} at {t1}."])
    second = rng.choice(
        [
            "The {m} was moved to {d2}s at {t2}.",
            "From now on the {m} is on {d2} at {t2}.",
            "The {m} got rescheduled to {d2}s at {t2}.",
        ]
    )
    return Scenario(
        "schedule",
        m.split()[0],
        first.format(m=m, d1=d1, t1=t1),
        second.format(m=m, d2=d2, t2=t2),
        t1,
        t2,
        f"when is the {m}",
    )


def _preference(rng: random.Random, used: set[str]) -> Scenario:
    p = _pick(rng, PEOPLE, used)
    x, y = rng.choice(CHOICES)
    first = rng.choice(["{p} prefers {x} over {y}.", "{p} likes {x} better than {y}."])
    second = rng.choice(
        [
            "{p} now prefers {y} over {x}.",
            "{p} switched to {y} and no longer likes {x}.",
            "{p} changed their mind and prefers {y} to {x} these days.",
        ]
    )
    c1 = round(rng.choice([0.6, 0.7, 0.8]), 2)
    return Scenario(
        "preference",
        p,
        first.format(p=p, x=x, y=y),
        second.format(p=p, x=x, y=y),
        x,
        y,
        f"what does {p} prefer, {x} or {y}",
        "O",
        (c1, min(0.95, c1 + 0.1)),
    )


def _number(rng: random.Random, used: set[str]) -> Scenario:
    team = _pick(rng, TEAMS, used)
    n1, n2 = rng.sample(range(4, 40), 2)
    form = rng.choice(
        [
            "The {t} team has {n} engineers.",
            "The {t} team has {n} open tickets.",
            "The {t} team's budget is {n} thousand euros.",
        ]
    )
    return Scenario(
        "number",
        team,
        form.format(t=team, n=n1),
        form.format(t=team, n=n2),
        str(n1),
        str(n2),
        form.format(t=team, n="how many").rstrip("."),
    )


def _contact(rng: random.Random, used: set[str]) -> Scenario:  # held out
    p = _pick(rng, PEOPLE, used)
    e1, e2 = (
        f"{p.lower()}@{rng.choice(COMPANIES).lower()}.com",
        f"{p.lower()}.{rng.randint(1, 99)}@mail.io",
    )
    first = f"{p}'s work email is {e1}."
    second = rng.choice([f"{p}'s work email is now {e2}.", f"{p} changed the work email to {e2}."])
    return Scenario("contact", p, first, second, e1, e2, f"what is {p}'s email")


def _status(rng: random.Random, used: set[str]) -> Scenario:  # held out
    p, a, b = _pick(rng, PEOPLE, used), _pick(rng, COMPANIES, used), _pick(rng, COMPANIES, used)
    first = rng.choice([f"{p} works at {a}.", f"{p} is employed by {a}."])
    second = rng.choice(
        [
            f"{p} left {a} and joined {b}.",
            f"{p} now works at {b}.",
            f"{p} switched employers from {a} to {b}.",
        ]
    )
    return Scenario("status", p, first, second, a, b, f"where does {p} work")


def _control(rng: random.Random, used: set[str], k: int) -> Scenario:
    p, q = _pick(rng, PEOPLE, used), _pick(rng, PEOPLE, used)
    a, b = _pick(rng, CITIES, used), _pick(rng, CITIES, used)
    n1, n2 = rng.sample(range(3, 60), 2)
    j = _pick(rng, PROJECTS, used)
    kinds = [
        (
            p,
            f"{p} is allergic to walnuts.",
            f"{p} is also allergic to shellfish.",
            "walnuts",
            "shellfish",
            f"what is {p} allergic to",
        ),
        (
            p,
            f"{p} speaks Portuguese.",
            f"{p} speaks Finnish as well.",
            "Portuguese",
            "Finnish",
            f"which languages does {p} speak",
        ),
        (
            j,
            f"The staging cluster of {j} runs Postgres 14.",
            f"The production cluster of {j} runs Postgres 16.",
            "14",
            "16",
            f"{j} Postgres",
        ),
        (
            p,
            f"{p} lives in {a}.",
            f"{q}, who sits next to {p}, lives in {b}.",
            a,
            b,
            f"where does {p} live",
        ),
        (
            p,
            f"{p}'s birthday is on 12 March.",
            f"{p}'s wedding anniversary is on 3 June.",
            "12 March",
            "3 June",
            f"{p} dates",
        ),
        (
            j,
            f"{j} has {n1} contributors.",
            f"{j} has {n2} open issues.",
            f"{n1} contributors",
            f"{n2} open issues",
            f"{j} numbers",
        ),
        (
            p,
            f"{p} visited {a} in April.",
            f"{p} visited {b} in October.",
            a,
            b,
            f"where did {p} travel",
        ),
        (
            p,
            f"{p} drinks coffee in the morning.",
            f"{p} drinks tea in the evening.",
            "coffee",
            "tea",
            f"what does {p} drink",
        ),
    ]
    subject, first, second, v1, v2, query = kinds[k % len(kinds)]
    return Scenario("control", subject, first, second, v1, v2, query)


FAMILIES = [_relocation, _owner, _version, _schedule, _preference, _number, _contact, _status]


def generate(seed: int, per_family: int = 8, controls: int = 24) -> list[tuple[int, int, Scenario]]:
    """(day of the first text, day of the second, scenario)."""
    rng = random.Random(seed)
    used: set[str] = set()
    out = []
    for fam in FAMILIES:
        for _ in range(per_family):
            d0 = rng.randrange(0, DAYS - 16)
            out.append((d0, d0 + rng.randrange(3, 15), fam(rng, used)))
    for k in range(controls):
        d0 = rng.randrange(0, DAYS - 16)
        out.append((d0, d0 + rng.randrange(3, 15), _control(rng, used, k)))
    return out


def load_cases(path: str | Path, seed: int) -> list[tuple[int, int, Scenario]]:
    """Scenarios written by hand (a JSON list of objects with ``kind`` "update" or "control",
    ``subject``, ``first``, ``second``, ``old``, ``new``, ``query``), placed on the same six
    weeks as the generator's: the first note on a random day, the second 3-14 days later."""
    import json

    rng = random.Random(seed)
    out = []
    for c in json.loads(Path(path).read_text(encoding="utf-8")):
        family = "control" if c["kind"] == "control" else c.get("family", "written")
        s = Scenario(family, c["subject"], c["first"], c["second"], c["old"], c["new"], c["query"])
        d0 = rng.randrange(0, DAYS - 16)
        out.append((d0, d0 + rng.randrange(3, 15), s))
    return out


def _has(text: str, value: str) -> bool:
    return (
        re.search(rf"(?<![\w@.]){re.escape(value.lower())}(?![\w@]|\.\w)", text.lower()) is not None
    )


def _notes_module():
    try:
        from agent_sleep.core import notes
    except ImportError:  # the flat layout before the subpackages
        from agent_sleep import notes  # type: ignore[no-redef]
    return notes


NOT_CURRENT = {"History", "Contested"}
BUDGET = 20000  # MEMORY.md budget (chars): the default 8000 would evict facts this bench checks


def current_entries(ws: Path) -> tuple[list[str], list[str]]:
    """(MEMORY.md entry texts, current bank entry texts)."""
    notes = _notes_module()
    memory = [n.text for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]
    bank = []
    for page in sorted((ws / "bank").rglob("*.md")):
        for b in notes.parse(page.read_text()).blocks:
            if b.note is None or not b.note.id or b.section in NOT_CURRENT:
                continue
            if not b.note.meta.get("superseded_by"):
                bank.append(b.note.text)
    return memory, bank


def replay(ws: Path, plan: list[tuple[int, int, Scenario]], seed: int) -> float:
    rng = random.Random(seed + 1)
    by_day: dict[int, list[tuple[str, str, float | None]]] = {}
    for d0, d1, s in plan:
        by_day.setdefault(d0, []).append((s.first, s.kind, s.conf[0]))
        by_day.setdefault(d1, []).append((s.second, s.kind, s.conf[1]))
    takes_now = "now" in inspect.signature(agent_sleep.sleep_cycle).parameters
    started = dt.datetime.now()
    for d in range(DAYS):
        day = START + dt.timedelta(days=d)
        items = [
            (f.format(n=rng.randint(2, 99)), "B", None) for f in rng.sample(FILLER, FILLER_PER_DAY)
        ]
        items += by_day.get(d, [])
        rng.shuffle(items)
        for k, (text, kind, conf) in enumerate(items):
            when = dt.datetime.combine(day, dt.time(9 + k // 4, (k % 4) * 15))
            agent_sleep.micro_rest(text, kind, workspace=ws, when=when, confidence=conf)
        # the old code has no clock to set: its window starts at the day instead
        when = {"now": dt.datetime.combine(day, dt.time(22, 0))} if takes_now else {"since": day}
        agent_sleep.sleep_cycle(ws, "both", "offline", memory_budget_chars=BUDGET, **when)
    return (dt.datetime.now() - started).total_seconds()


def marked_pairs(ws: Path) -> list[tuple[str, str]]:
    """(older entry, newer entry) texts of each MEMORY.md entry sleep marked as one a newer
    entry may replace (``newer=``), the newer one current in MEMORY.md."""
    notes = _notes_module()
    entries = {n.id: n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id}
    return [
        (n.text, entries[n.meta["newer"]].text)
        for n in entries.values()
        if n.meta.get("newer") in entries
    ]


def _marked(marks: list[tuple[str, str]], old: str, new: str) -> bool:
    """Whether a mark says an entry holding ``old`` may be replaced by one holding ``new``."""
    return any(_has(o, old) and not _has(o, new) and _has(n, new) for o, n in marks)


def _about(text: str, subject: str) -> bool:
    """Whether an entry is about a scenario's subject: it holds the subject, or one of its
    alternatives ("laptop|notebook", for two notes that name their subject apart)."""
    return any(alt in text.lower() for alt in subject.lower().split("|"))


def _rank(hits: list, value: str) -> int | None:
    for i, h in enumerate(hits):
        if _has(h.text, value):
            return i
    return None


def _reindex(ws: Path) -> None:
    """Embed everything before the queries (recall may otherwise rank new units by BM25 alone
    while it embeds in the background)."""
    try:
        from agent_sleep.core.workspace import Workspace
        from agent_sleep.retrieval.index import update
    except ImportError:  # the flat layout before the subpackages
        from agent_sleep.index import update  # type: ignore[no-redef]
        from agent_sleep.workspace import Workspace  # type: ignore[no-redef]
    update(Workspace.at(ws))


_ITEM = r"[\w$€£@#+'’.-]+(?: [A-Z][\w'’.-]*)?"
_LIST_RE = re.compile(rf"((?:{_ITEM}, )*{_ITEM}),? (?:and|or|&) ({_ITEM})")


def _list_rest(s: Scenario) -> list[str]:
    """The items of the first note's list an update of family ``list`` leaves in place (the
    bench's own reading: "A, B and C" without the old value)."""
    m = _LIST_RE.search(s.first)
    if m is None:
        return []
    items = [i.strip() for i in [*m.group(1).split(", "), m.group(2)] if i.strip()]
    # a word before the list's first item ("do piano"): only the item itself, its last word
    items[0] = (
        items[0].split()[-1]
        if len(items) > 1 and " " in items[0] and not items[0][0].isupper()
        else items[0]
    )
    return [i for i in items if not _has(i, s.old) and not _has(s.old, i)]


def score(ws: Path, plan: list[tuple[int, int, Scenario]], budget: int | None = None) -> dict:
    _reindex(ws)
    memory, bank = current_entries(ws)
    marks = marked_pairs(ws)
    stale_marked = controls_marked = 0
    by_family: Counter[str] = Counter()
    ok_family: Counter[str] = Counter()
    stale = only_new = ranked = 0
    controls = kept = 0
    rest_items = rest_kept = 0
    failures = []
    for _d0, _d1, s in plan:
        about = [t for t in memory if _about(t, s.subject)]
        if s.family == "list":
            for item in _list_rest(s):
                rest_items += 1
                rest_kept += any(_has(t, item) for t in memory + bank)
        if s.family == "control":
            controls += 1
            cur = [t for t in memory + bank if _about(t, s.subject)]
            both = any(_has(t, s.old) for t in cur) and any(_has(t, s.new) for t in cur)
            kept += both
            controls_marked += _marked(marks, s.old, s.new) or _marked(marks, s.new, s.old)
            if not both:
                failures.append(("control", s.first, s.second))
            continue
        by_family[s.family] += 1
        old_left = [t for t in about if _has(t, s.old) and not _has(t, s.new)]
        stale += bool(old_left)
        stale_marked += bool(old_left) and _marked(marks, s.old, s.new)
        good_memory = not old_left and any(_has(t, s.new) for t in about)
        only_new += good_memory
        ask = {"budget_tokens": budget} if budget else {"k": 10}
        hits = agent_sleep.recall(ws, s.query, **ask)
        r_new, r_old = _rank(hits, s.new), _rank(hits, s.old)
        # a unit holding both ("moved from A to B") counts as the new value
        good_recall = r_new is not None and (r_old is None or r_new <= r_old)
        ranked += good_recall
        if good_memory and good_recall:
            ok_family[s.family] += 1
        else:
            why = ("memory" if not good_memory else "") + (" recall" if not good_recall else "")
            failures.append((s.family, why.strip(), s.first, s.second))
    updates = sum(by_family.values())
    return {
        "updates": updates,
        "ok": sum(ok_family.values()),
        "only_new": only_new,
        "ranked": ranked,
        "stale": stale,
        "stale_marked": stale_marked,
        "marks": len(marks),
        "controls_marked": controls_marked,
        "controls": controls,
        "kept": kept,
        "list_items": rest_items,
        "list_items_kept": rest_kept,
        "by_family": by_family,
        "ok_family": ok_family,
        "failures": failures,
        "memory_entries": len(memory),
    }


def locomo_memories(path: str, limit: int | None, out_dir: Path) -> int:
    """Replay LoCoMo conversations day by day (offline sleep after each day) and save each
    final MEMORY.md into ``out_dir``; returns the number of conversations."""
    sys.path.append(str(ROOT))
    from bench import locomo

    takes_now = "now" in inspect.signature(agent_sleep.sleep_cycle).parameters
    samples = locomo.load(path)[:limit]
    for sample in samples:
        with tempfile.TemporaryDirectory() as tmp:
            ws = Path(tmp) / "ws"
            by_day: dict[dt.date, list] = {}
            for t in locomo.turns(sample):
                if t.text:
                    by_day.setdefault(t.when.date(), []).append(t)
            for day in sorted(by_day):
                for t in by_day[day]:
                    agent_sleep.micro_rest(t.note, "B", workspace=ws, when=t.when, source=t.dia_id)
                extra = {"now": dt.datetime.combine(day, dt.time(23, 0))} if takes_now else {}
                agent_sleep.sleep_cycle(ws, "both", "offline", since=day, **extra)
            (out_dir / f"{sample.get('sample_id', len(samples))}.md").write_text(
                (ws / "MEMORY.md").read_text()
            )
    return len(samples)


def conflicts(folder: Path) -> tuple[int, int]:
    """(conflicting pairs, entries) over the MEMORY.md files in ``folder``, judged by this
    checkout's currency detector (run in this checkout, whichever code wrote the files)."""
    from agent_sleep.analysis import currency, distill
    from agent_sleep.core import notes

    pairs = entries = 0
    for path in sorted(folder.glob("*.md")):
        texts = [n.text for n in notes.notes_in(path.read_text()) if n.id]
        known = distill.known_names(texts)
        entries += len(texts)
        for i, a in enumerate(texts):
            for b in texts[i + 1 :]:
                if currency.SUPERSEDE in (
                    currency.relation(a, b, known).kind,
                    currency.relation(b, a, known).kind,
                ):
                    pairs += 1
    return pairs, entries


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:5.1f}%" if b else "  n/a"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--per-family", type=int, default=8)
    ap.add_argument("--controls", type=int, default=24)
    ap.add_argument("--locomo", default=None, help="LoCoMo JSON: also the conflicting-entry ratio")
    ap.add_argument("--limit", type=int, default=None, help="first N LoCoMo conversations")
    ap.add_argument(
        "--budget-tokens",
        type=int,
        default=None,
        help="recall within N tokens (600 or more: a deep request, learned rerank) "
        "instead of the 10 best",
    )
    ap.add_argument(
        "--cases",
        default=None,
        help="replay scenarios written by hand (JSON, see bench/currency_cases/) instead of "
        "the generator's",
    )
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument("--keep", default=None, help="replay into this folder and keep it")
    ap.add_argument("--conflicts", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.conflicts:
        pairs, n = conflicts(Path(args.conflicts))
        print(f"{pairs} {n}")
        return
    print(f"code under test: {Path(agent_sleep.__file__).resolve().parent.parent}")
    plan = (
        load_cases(args.cases, args.seed)
        if args.cases
        else generate(args.seed, args.per_family, args.controls)
    )
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(args.keep or tmp) / "ws"
        seconds = replay(ws, plan, args.seed)
        r = score(ws, plan, args.budget_tokens)
    print(
        f"{r['updates']} updates in {len(r['by_family'])} "
        f"famil{'y' if len(r['by_family']) == 1 else 'ies'}, {r['controls']} controls, "
        f"{DAYS} days, a sleep after each ({seconds:.1f} s); MEMORY.md ends with "
        f"{r['memory_entries']} entries"
    )
    print("\nfamily       updates  current in MEMORY.md and ranked first")
    for fam in sorted(r["by_family"]):
        n = r["by_family"][fam]
        held = "  (held out)" if fam in ("contact", "status") else ""
        print(f"{fam:<12} {n:>7}  {_pct(r['ok_family'][fam], n):>8}{held}")
    print(f"{'all':<12} {r['updates']:>7}  {_pct(r['ok'], r['updates']):>8}   (target >= 95%)")
    print(
        f"\nMEMORY.md shows only the new value: {_pct(r['only_new'], r['updates'])}; "
        f"recall ranks the new value first: {_pct(r['ranked'], r['updates'])}"
        + (f" (within {args.budget_tokens} tokens)" if args.budget_tokens else " (k = 10)")
    )
    print(f"stale entries left in MEMORY.md: {r['stale']}   (target 0)")
    print(
        f"  of them marked 'may be out of date' beside the new value: {r['stale_marked']}; "
        f"marks in all: {r['marks']}; controls marked: {r['controls_marked']}/{r['controls']}"
    )
    if r["list_items"]:
        print(
            f"list items the updates leave in place, still current: {r['list_items_kept']}/"
            f"{r['list_items']}   (target all)"
        )
    print(
        f"controls with both facts kept: {r['kept']}/{r['controls']} "
        f"({_pct(r['kept'], r['controls']).strip()}; target 100%)"
    )
    if args.show_failures:
        for f in r["failures"]:
            print("  miss:", *f, sep=" | ")
    if args.locomo:
        import subprocess

        with tempfile.TemporaryDirectory() as tmp:
            n = locomo_memories(args.locomo, args.limit, Path(tmp))
            # the conflicts are judged by this bench's checkout, whichever code wrote the files
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            out = subprocess.run(
                [sys.executable, __file__, "--conflicts", tmp],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
        pairs, entries = int(out[0]), int(out[1])
        print(
            f"\nLoCoMo ({n} conversations, offline sleep per day): {pairs} conflicting pairs "
            f"among {entries} MEMORY.md entries = {100 * pairs / max(entries, 1):.2f} per 100"
        )


if __name__ == "__main__":
    main()
