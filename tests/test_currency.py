"""Currency: updates supersede what they replace; look-alikes stay; rollback is byte-exact."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.analysis import currency, update_model
from agent_sleep.consolidation import journal
from agent_sleep.consolidation.sleep import sleep_cycle
from agent_sleep.core import notes
from agent_sleep.core.rest import micro_rest
from agent_sleep.retrieval import currency as recall_currency

UPDATES = [
    ("The user lives in Berlin and works at Siemens.",
     "The user moved to Paris last week and now works at Airbus."),
    ("The deploy target for project Atlas is AWS us-east-1.",
     "Project Atlas migrated its deploy target from AWS us-east-1 to GCP europe-west1."),
    ("User prefers tabs over spaces.", "User now prefers spaces over tabs after the team vote."),
    ("The build timeout is 30 minutes.", "The build timeout is now 45 minutes."),
    ("The team has 8 engineers.", "The team has 11 engineers."),
    ("Maria owns the billing service.", "The billing service is now owned by Dev."),
    ("I drink coffee every morning.", "I switched to tea instead of coffee."),
    ("Maria leads the data team.", "Dev now leads the data team."),
    # a name that is also a verb ("Go", "Make") is not the verb of "targets" / "requires"
    ("The Orca service targets Go 1.21.", "The Orca service now targets Go 1.22."),
    ("The Orca repo requires Make 4.3.", "The Orca repo now requires Make 4.4."),
    # "takes place" is one verb, and a plural subject before it is not the verb
    ("The design office hours takes place on Fridays at 16:00.",
     "From now on the design office hours is on Mondays at 9:00."),
    # a log line that opens with its change verb: what the verb acts on is the subject
    ("The API base URL is https://api.staging.local/v1.",
     "Switched the API base URL to https://api.prod.local/v2."),
    ("The default branch is master.", "Renamed the default branch to trunk."),
    ("The test suite uses pytest 7.4.", "Bumped pytest to 8.2."),
    ("The repo lints with flake8.", "Replaced flake8 with ruff as the linter."),
    # a reason or an occasion after the value is not part of what is said
    ("Tom reports to Greta.", "Tom reports to Hiro after the reorg."),
    # "slipped to" is change language; "Daily" is not a name for being capitalised first
    ("The launch deadline is March 3.", "The launch deadline slipped to March 17."),
    ("Daily standup is at 9:30.", "Standup moved to 10:45."),
    # "instead of" naming a word of the old statement; "every second" is how often
    ("The user wants tabs for indentation.",
     "The user asked for spaces instead of tabs for indentation from now on."),
    ("The sprint retro happens every second Friday.", "The sprint retro is on Thursdays now."),
    # a label and its value; "(was A)" names the old value
    ("Daily standup is at 9:30.", "Standup: 10:15 (was 9:30)."),
    ("The request timeout for the payments client is 30 seconds.",
     "Payments client timeout: 45 seconds."),
    # a title's full stop does not end the sentence
    ("Wanjiru's doctor is Dr. Meyer at Riverside Clinic.",
     "Wanjiru's doctor is Dr. Adeyemi at Hillcrest Practice."),
    # "a new number" for the phone number; an address says it is an email
    ("Sofia's phone number is +44 7700 900123.", "Sofia got a new number: +44 7700 900456."),
    ("Mateus's email is mateus.silva@brightline.io.",
     "Mateus now uses mateus@silvaworks.com for everything."),
    # another port for the same gateway; a tool's version bumped in a log line
    ("The API gateway listens on port 8080.", "Switched the gateway to port 9443 for TLS."),
    ("The backend targets Node 18.", "Bumped Node to 22 across all services."),
    # a weekday for a weekday; "reports to" is the manager; "prod" is production
    ("Sprint retro is on Friday afternoons.", "Retro moved to Thursday mornings."),
    ("Kwame reports to Helga Strand.", "Kwame's new manager is Diego Alvarez after the reorg."),
    ("The production cluster runs Kubernetes 1.27.", "Prod cluster is on Kubernetes 1.29 now."),
    # "May" the month is no intention; "second author" adds nothing
    ("The renewal date for Kestrel Foods is 14 May.",
     "The renewal date for Kestrel Foods is now 30 June."),
    ("The second author on the tokenizer paper is Folasade.",
     "The second author on the tokenizer paper is now Joaquin."),
    # an arrow is a move
    ("The status page is hosted on Statuspage.io.", "status page -> Instatus, migration done."),
]  # fmt: skip
LOOK_ALIKES = [
    ("Ana is allergic to peanuts.", "Ana also avoids shellfish."),
    ("The Berlin office opens at 9am.", "The Paris office opens at 10am."),
    ("The staging server runs Postgres 14.", "The production server runs Postgres 15."),
    ("The team has 8 engineers.", "The team has 2 designers."),
    ("Carol lives in Lisbon.", "Carol's sister lives in Porto."),
    ("Caroline: I went to a support group yesterday.", "Caroline: I went to a pottery class."),
    # the same preference of two people: not a handover, as "Dev now leads" is
    ("Priya prefers trains over planes.", "Tomás now prefers trains over planes."),
    # a generic change verb about another attribute of the same project
    ("Falcon has 12 contributors.", "We raised the timeout for Falcon to 30 seconds."),
    # a leading participle is not a log line's change verb; another project's build
    ("The docs live in the repo.", "Updated docs are in the wiki."),
    ("Kestrel build pins Go 1.19.", "Marlin build now pins Go 1.23."),
    # a log line acting on another attribute; the old value as the new owner
    ("The test suite uses pytest 7.4.", "Bumped the coverage threshold to 85 percent."),
    ("Tom reports to Greta.", "Greta reports to Hiro after the reorg."),
    # class words in long chat turns ("the love and …", "options like …") are no shared head
    ("Joanna: Having that picture on my cork board reminds me of the love and encouragement "
     "from them every day.",
     "Joanna: Since I'm lactose intolerant I'm trying out dairy-free options like coconut or "
     "almond milk instead."),
    # two releases, two rooms; a speaker's label is not a value's label
    ("Release 4.1 shipped on June 2.", "Release 4.2 shipped on July 9."),
    ("The standup is in room 4.", "The retro is now in room 7."),
    ("Caroline: 3 kids is a lot.", "Caroline: I now have a new job at the library."),
    # a chat turn's "from that trip to England" names no old value; "wanting to" is an intention
    ("Maria: Last year I took a solo trip and took this pic in Spain.",
     "Maria: I got the idea from that trip to England a few years ago."),
    ("Nate: I love fantasy and sci-fi movies.",
     "Nate: I've been wanting to try your chocolate cake for a while now."),
    ("Ana adopted a cat in May.", "Ana adopted a second cat in June."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_updates_supersede(old: str, new: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_look_alikes_both_stay(old: str, new: str) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE


def test_equal_supersedes_replace_the_entry_that_says_most() -> None:
    from agent_sleep.providers.offline_currency import supersedes

    new = "We raised the retry limit for Falcon to 5."
    memory = [{"id": "retry", "text": "Falcon uses a retry limit of 3.", "date": "2026-11-01"},
              {"id": "conn", "text": "Falcon uses a connection limit of 20.",
               "date": "2026-11-10"}]  # fmt: skip
    assert {currency.relation(new, m["text"]).why for m in memory} == {"a generic change"}
    [update] = supersedes([("W", new, ["n1"], 0.9, "2026-11-20")], memory, [], frozenset()).values()
    assert update["replaces"] == "retry"  # not the newer entry that shares only "limit"


def test_equal_supersedes_replace_the_entry_of_the_same_owner() -> None:
    from agent_sleep.providers.offline_currency import supersedes

    new = "Heron was upgraded from Go 1.21 to Go 1.23."
    memory = [
        {"id": "heron", "text": "Heron runs on Go 1.21.", "date": "2026-11-01"},
        {"id": "falcon", "text": "Falcon runs on Go 1.21.", "date": "2026-11-10"},
    ]
    # the value named reads both alike, and they say alike but for the owner
    assert {currency.relation(new, m["text"]).why for m in memory} == {"the old value named"}
    [update] = supersedes([("W", new, ["n1"], 0.9, "2026-11-20")], memory, [], frozenset()).values()
    assert update["replaces"] == "heron"  # not the newer entry of another service


def test_values_differ_blocks_near_duplicate_merge() -> None:
    assert currency.values_differ("The limit is now 500.", "The limit is now 100.")
    assert currency.values_differ("User uses vim.", "User does not use vim.")
    assert not currency.values_differ("User uses vim daily.", "User uses vim daily!")


def _day(ws: Path, day: int, items: list[tuple[str, str, float | None]]) -> None:
    when = dt.datetime(2026, 11, day, 10, 0)
    for text, kind, conf in items:
        micro_rest(text, kind, workspace=ws, when=when, confidence=conf)
    sleep_cycle(ws, "both", "offline", now=when.replace(hour=22))


def _memory(ws: Path) -> list[notes.Note]:
    return [n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


def _seed(ws: Path) -> None:  # enough entries that the 25% cap lets the updates through
    facts = ["Redis listens on port 6379.", "The wiki lives on Confluence.",
             "Invoices go out on the first Monday.", "Kubernetes runs the batch jobs.",
             "Grafana dashboards track latency.", "Sentry collects frontend errors.",
             "The VPN requires a hardware key.", "Backups are kept for ninety days.",
             "Design reviews need two approvals.", "Release notes are written in Markdown.",
             "The office closes at 7pm on Fridays.", "Payroll is handled by Deel."]  # fmt: skip
    _day(ws, 1, [(f, "W", None) for f in facts])


def test_sleep_supersedes_and_files_history(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("The user lives in Berlin and works at Siemens.", "W", None),
                 ("User prefers tabs over spaces.", "O", 0.8),
                 ("Ana is allergic to peanuts.", "W", None)])  # fmt: skip
    logs = {p.name: p.read_bytes() for p in (ws / "memory").glob("*.md")}
    _day(ws, 20, [("The user moved to Paris last week and now works at Airbus.", "W", None),
                  ("User now prefers spaces over tabs after the team vote.", "O", 0.9),
                  ("Ana also avoids shellfish.", "W", None)])  # fmt: skip
    texts = [n.text for n in _memory(ws)]
    assert any("Paris" in t for t in texts) and not any("Berlin" in t for t in texts)
    assert any("spaces over tabs" in t for t in texts)
    assert not any(t.startswith("User prefers tabs") for t in texts)
    assert any("peanuts" in t for t in texts) and any("shellfish" in t for t in texts)
    prefs = [n for n in _memory(ws) if "tabs" in n.text]
    assert [n.confidence for n in prefs] == [0.9]  # the old one never reinforced
    history = (ws / "bank/concepts/memory-archive.md").read_text()
    old = [n for n in notes.parse(history).notes("History") if "Berlin" in n.text]
    assert old and old[0].meta["until"] == "2026-11-20"
    new = [n for n in _memory(ws) if "Paris" in n.text][0]
    assert old[0].meta["superseded_by"] == new.id and new.meta["supersedes"] == old[0].id
    for name, data in logs.items():  # daily logs are never edited (only appended to)
        assert (ws / "memory" / name).read_bytes().startswith(data)
    from agent_sleep.core.workspace import Workspace

    line = journal.entries(Workspace.at(ws))[-1]
    assert any(s.get("until") == "2026-11-20" for s in line["superseded"])


def test_rollback_restores_bytes(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("The build timeout is 30 minutes.", "W", None)])
    before = {p: p.read_bytes() for p in ws.rglob("*.md")}
    _day(ws, 3, [("The build timeout is now 45 minutes.", "W", None)])
    assert any("45 minutes" in n.text for n in _memory(ws))
    journal.rollback(ws)
    for p, data in before.items():
        if "memory/" not in p.as_posix():
            assert p.read_bytes() == data, p
    assert (
        not (ws / "bank/concepts/memory-archive.md").exists()
        or (ws / "bank/concepts/memory-archive.md") in before
    )


def test_weaker_opinion_contests_then_next_evidence_decides(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("User prefers dark mode over light mode.", "O", 0.9)])
    _day(ws, 3, [("User now prefers light mode over dark mode.", "O", 0.5)])
    [entry] = [n for n in _memory(ws) if "mode" in n.text]
    assert entry.text.startswith("User prefers dark") and entry.meta.get("contested")
    _day(ws, 4, [("User now prefers light mode over dark mode, confirmed.", "O", 0.5)])
    [entry] = [n for n in _memory(ws) if "mode" in n.text]
    assert "now prefers light mode" in entry.text and not entry.meta.get("contested")


def test_recall_ranks_replacement_first_and_labels(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("Project Atlas deploys to AWS us-east-1.", "W", None)])
    _day(ws, 9, [("Project Atlas migrated its deploy target from AWS us-east-1 to GCP "
                  "europe-west1.", "W", None)])  # fmt: skip
    from agent_sleep.retrieval.recall import recall

    hits = recall(ws, "Atlas deploy target AWS us-east-1", k=8)
    first_new = next(i for i, h in enumerate(hits) if "GCP" in h.text)
    stale = [i for i, h in enumerate(hits) if "AWS us-east-1" in h.text and "GCP" not in h.text]
    assert all(first_new < i for i in stale)
    assert all(not hits[i].current and hits[i].superseded_on == "2026-11-09" for i in stale)


def test_a_log_note_quoting_a_superseded_entry_ranks_below_its_replacement(
    tmp_path: Path,
) -> None:
    """A note sleep wrote about an entry ("A ↔ B", "Decide: …") quotes it as it stood: once the
    entry is superseded, the note ranks below what replaced it, even in a deep request."""
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("Project Atlas deploys to AWS us-east-1.", "W", None)])
    [old] = [n for n in _memory(ws) if "us-east-1" in n.text]
    _day(ws, 9, [("Project Atlas migrated its deploy target from AWS us-east-1 to GCP "
                  "europe-west1.", "W", None)])  # fmt: skip
    log = ws / "memory" / "2026-11-02.md"  # as sleep wrote it that night, before the update
    quote = ("- 22:30 S: Project Atlas deploys to AWS us-east-1. ↔ Project Atlas deploy target "
             f"AWS us-east-1 noted twice <!-- id=qqqqqqqqqq sources={old.id} -->\n")  # fmt: skip
    log.write_text(log.read_text() + quote)
    from agent_sleep.retrieval.recall import recall

    for ask in ({"k": 8}, {"budget_tokens": 1000}):
        hits = recall(ws, "Atlas deploy target AWS us-east-1", **ask)
        first_new = next(i for i, h in enumerate(hits) if "GCP" in h.text)
        [quoted] = [i for i, h in enumerate(hits) if "noted twice" in h.text]
        assert first_new < quoted, ask
        assert old.id in hits[quoted].sources  # the note's citation is its provenance


def test_finding_a_replacement_decodes_only_consolidated_units(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("Project Atlas deploys to AWS us-east-1.", "W", None)])
    _day(ws, 9, [("Project Atlas migrated its deploy target from AWS us-east-1 to GCP "
                  "europe-west1.", "W", None)])  # fmt: skip
    # more notes than a search's candidates (64 by BM25, as many by cosine, for k=8)
    _day(ws, 12, [(f"Unrelated note {i} about the zebra census.", "W", None) for i in range(150)])
    from agent_sleep.retrieval import index
    from agent_sleep.retrieval.index_records import UnitsView
    from agent_sleep.retrieval.recall import recall

    recall(ws, "warm the index", k=1)
    loaded = index._loaded.get(Path(ws).resolve())
    assert loaded is not None
    decoded: list[int] = []
    item = UnitsView._item
    monkeypatch.setattr(UnitsView, "_item", lambda self, i: decoded.append(i) or item(self, i))
    hits = recall(ws, "Atlas deploy target AWS us-east-1", k=8)
    assert any(not h.current for h in hits)  # a replacement was looked for
    zebra = [r for r, u in enumerate(loaded.records) if "zebra" in u.text and u.kind == "log"]
    assert len(zebra) == 150 and len(set(decoded) & set(zebra)) < 128


def test_hand_edited_metadata_warns_once_never_crashes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    page = ws / "bank/concepts/notes.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(
        "# Notes\n\n## History\n\n"
        "- W: A <!-- id=aaaaaaaaaa superseded_by=bbbbbbbbbb -->\n"
        "- W: B <!-- id=bbbbbbbbbb superseded_by=aaaaaaaaaa -->\n"
        "- W: C <!-- id=cccccccccc superseded_by=zzzzzzzzzz -->\n"
    )
    from agent_sleep.core.workspace import Workspace

    recall_currency._warned.clear()
    with caplog.at_level("WARNING"):
        sup = recall_currency.superseded_map(Workspace.at(ws))
        recall_currency.superseded_map(Workspace.at(ws))
    assert sup == {}  # the cycle keeps both current, the missing target is ignored
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 2


def test_search_history_and_context_labels(tmp_path: Path) -> None:
    import json

    from agent_sleep.retrieval.context import get_context
    from tests.conftest import run_cli

    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("The build timeout is 30 minutes.", "W", None)])
    _day(ws, 5, [("The build timeout is now 45 minutes.", "W", None)])
    r = run_cli("search", "build timeout", "-w", str(ws), "-k", "5", "--history", "--json")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    chains = [c for h in hits for c in h["history"]]
    assert chains and [v["text"] for v in chains[0]] == [
        "The build timeout is 30 minutes.",
        "The build timeout is now 45 minutes.",
    ]
    assert chains[0][0]["until"] == "2026-11-05"
    old = [h for h in hits if "30 minutes" in h["text"] and "45" not in h["text"]]
    assert old and all(not h["current"] and h["superseded_on"] == "2026-11-05" for h in old)
    text = run_cli("search", "build timeout", "-w", str(ws), "-k", "5", "--history").stdout
    assert "history: The build timeout is 30 minutes." in text and "[superseded 2026-11-05" in text
    block = get_context(ws, query="build timeout", today=dt.date(2026, 11, 30))
    memory_part, _, relevant = block.partition("## Relevant memories")
    assert "30 minutes" not in memory_part and "45 minutes" in memory_part
    stale = [line for line in relevant.splitlines() if line.endswith("is 30 minutes.")]
    assert stale and all(
        "[superseded 2026-11-05: now The build timeout is now 45" in x for x in stale
    )


def test_history_of_an_entry_without_git_shows_the_versions_its_files_keep(tmp_path: Path) -> None:
    """`agent-sleep history ID` refused a workspace not kept in git, so a user asking why a fact
    left MEMORY.md had no trail (exploratory tests): it now shows the entry's versions as the
    files keep them, with the notes each cites, and says git would keep every edit."""
    import json

    from tests.conftest import run_cli

    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("The build timeout is 30 minutes.", "W", None)])
    _day(ws, 5, [("The build timeout is now 45 minutes.", "W", None)])
    old = next(
        n
        for p in (ws / "bank").rglob("*.md")
        for n in notes.notes_in(p.read_text())
        if n.text == "The build timeout is 30 minutes."
    )
    r = run_cli("history", old.id, "-w", str(ws))
    assert r.returncode == 0, r.stderr
    assert "not kept in git" in r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"* {old.id} 2026-11-02 to 2026-11-05: The build timeout is 30")
    assert "(current): The build timeout is now 45 minutes." in r.stdout
    assert "    from " in r.stdout
    data = json.loads(run_cli("history", old.id, "-w", str(ws), "--json").stdout)
    assert [v["text"] for v in data] == [
        "The build timeout is 30 minutes.",
        "The build timeout is now 45 minutes.",
    ]
    assert data[1]["sources"] and data[1]["sources"][0]["text"].endswith("45 minutes.")
    # a page has no versions in the files: the command still asks for git
    page = run_cli("history", "MEMORY.md", "-w", str(ws))
    assert page.returncode == 2 and "git-init" in page.stderr


def test_replay_closes_its_loops(tmp_path: Path) -> None:
    from agent_sleep.core.workspace import Workspace

    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("Maybe the staging database needs a bigger disk?", "B", None),
                 ("Bob Marsh said the release train is unreliable.", "O", 0.4)])  # fmt: skip
    line = journal.entries(Workspace.at(ws))[-1]
    weak = [w["text"] for w in line["weakly_learned"]]
    assert any("release train" in w for w in weak)
    # the next run shows them to NREM (slow-track input) and lists them until settled
    from agent_sleep.providers.offline import OfflineProvider

    seen: list[dict] = []

    class Spy(OfflineProvider):
        def complete(self, system, payload, schema, *, repair=None):  # type: ignore[no-untyped-def]
            seen.append(payload)
            return super().complete(system, payload, schema, repair=repair)

    micro_rest("Lunch was noodles.", "B", workspace=ws, when=dt.datetime(2026, 11, 3, 12))
    sleep_cycle(ws, "both", Spy(), now=dt.datetime(2026, 11, 3, 22))
    nrem = [p for p in seen if p["task"] == "nrem"][0]
    assert any("release train" in w["text"] for w in nrem["weakly_learned"])
    assert any("release train" in w["text"] for w in journal.entries(Workspace.at(ws))[-1][
        "weakly_learned"])  # fmt: skip
    # a deleted bank page is rebuilt by the next sleep from the notes it cited
    pages = sorted((ws / "bank").rglob("*.md"))
    page = next(p for p in pages if "memory-archive" not in p.name and "release" in p.read_text())
    page.unlink()
    r = sleep_cycle(ws, "both", "offline", now=dt.datetime(2026, 11, 4, 22))
    assert r.notes_in >= 1 and any("release train" in p.read_text()
                                   for p in (ws / "bank").rglob("*.md"))  # fmt: skip


def test_contested_entry_becomes_a_next_session_action(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _seed(ws)
    _day(ws, 2, [("User prefers dark mode over light mode.", "O", 0.9)])
    _day(ws, 3, [("User now prefers light mode over dark mode.", "O", 0.5)])
    log = (ws / "memory/2026-11-03.md").read_text()
    assert "## Next session" in log and "Decide: User prefers dark mode" in log


# Changes the clause rules do not read, read by the bundled embedding model: the new note uses
# change language, speaks of the same owner and says what the old one says, values masked.
SAID_ALIKE_UPDATES = [
    ("CloudWatch log retention is set to 30 days.",
     "Dropped log retention to 14 days to save on storage."),
    ("Staging is reachable at staging.orbitlabs.io.", "Staging URL is now stg.orbitlabs.cloud."),
    ("Logging goes to Papertrail.", "Logging now ships to Datadog."),
    # a decision is a fact despite its "will"
    ("The fiscal year ends on 31 March.",
     "We decided the fiscal year will end on 31 December going forward."),
]  # fmt: skip
SAID_ALIKE_OTHERS = [
    # another owner's attribute, another qualifier, an intention, an added fact
    ("Yusuf's work email is yusuf@marrowgate.com.", "Rania's work email is now rania.70@mail.io."),
    ("The scheduler service is maintained by Ulla.",
     "The catalog service is now maintained by Kwame."),
    ("CloudWatch log retention is set to 30 days.", "We will drop log retention to 14 days."),
    ("Ana speaks Greek.", "Ana now also speaks Korean."),
    # a capitalised product name ("Spotify Family") is not the owner of "Family passwords"
    ("Household subscriptions include Spotify Family.", "Family passwords now live in 1Password."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), SAID_ALIKE_UPDATES)
def test_said_alike_supersedes_with_the_model(old: str, new: str, similar: Any) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE  # the rules alone miss it
    verdict = currency.relation(new, old, similar=similar)
    assert (verdict.kind, verdict.why) == (currency.SUPERSEDE, "said alike")


@pytest.mark.parametrize(("old", "new"), SAID_ALIKE_OTHERS)
def test_said_alike_keeps_look_alikes(old: str, new: str, similar: Any) -> None:
    assert currency.relation(new, old, similar=similar).kind != currency.SUPERSEDE


# Updates in no shape the rules read (no change word, another sentence shape), which the
# learned model (analysis/update_model.py) reads as updates, and look-alikes it keeps apart.
# (It reads about a third of what the rules miss: bench/fit_currency.py prints how many.)
LEARNED_UPDATES = [
    ("The staging cluster has 3 nodes.", "Staging cluster node count: 5."),
]
LEARNED_OTHERS = [
    ("The staging cluster has 3 nodes.", "The production cluster has 12 nodes."),
    ("Mia's swim class is on Tuesdays.", "Leo's swim class is on Thursdays."),
    ("Weekday parking costs $12 at the Elm garage.", "Weekend parking costs $8 at the Elm garage."),
    ("Invoices to Brightline are due in 30 days.", "Invoices to Corvex are due in 45 days."),
    ("The read replica is in eu-west-1.", "The primary database is in eu-central-1."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), LEARNED_UPDATES)
def test_the_learned_model_reads_updates_the_rules_miss(old: str, new: str, similar: Any) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE  # no model: the rules alone
    rules = currency.relation(new, old, similar=similar)
    assert rules.kind != currency.SUPERSEDE
    assert update_model.probability(new, old, rules.why, similar) >= update_model.THRESHOLD
    verdict = update_model.relation(new, old, similar=similar)
    assert (verdict.kind, verdict.why) == (currency.SUPERSEDE, "likely update")
    assert update_model.relation(new, old).kind != currency.SUPERSEDE  # no embedding: off


@pytest.mark.parametrize(("old", "new"), LEARNED_OTHERS)
def test_the_learned_model_keeps_look_alikes(old: str, new: str, similar: Any) -> None:
    assert update_model.relation(new, old, similar=similar).kind != currency.SUPERSEDE


def test_the_learned_model_has_a_weight_per_feature(similar: Any) -> None:
    x = update_model.features("Gym: Anytime Fitness.", "His gym is PureFit.", "no claim", similar)
    assert len(x) == len(update_model.FEATURES) == len(update_model.WEIGHTS)
    assert all(math.isfinite(v) for v in x) and x[0] == 1.0


def test_the_learned_model_is_not_asked_of_an_event_or_a_chat_turn() -> None:
    # an event does not go stale; a chat turn is a person's words; nothing shared, nothing asked
    assert update_model.asked("The eval runs on ImageNet-R.", "The eval runs on ImageNet-C.")
    assert not update_model.asked(
        "We ran the eval on ImageNet-R.", "We ran the eval on ImageNet-C."
    )
    assert not update_model.asked(
        "Maya visited the dentist on Friday.", "Maya visited the dentist on Monday."
    )
    assert not update_model.asked("Nate: I moved to Denver!", "Nate lives in Boston.")
    assert not update_model.asked("Rent is $1,520.", "The wifi password is tulip88.")


def test_a_field_label_is_no_chat_turn() -> None:
    assert not currency._chat("Physio: Dr. Brandt, Harrogate clinic.")
    assert not currency._chat("Linter: ruff")
    assert currency._chat("Caroline: I went to the support group yesterday.")
    assert currency._chat("Melanie: Wow, that looks great!")
    assert currency._chat("Nate: Painting with the kids this weekend. Then a long walk.")


def test_a_learned_update_on_the_same_day_leaves_both(similar: Any) -> None:
    """Two values on one day with no change word both stand: the model's reading too."""
    from agent_sleep.providers.offline_currency import supersedes

    old, new = LEARNED_UPDATES[0]
    memory = [{"id": "aaaaaaaaaa", "text": old, "date": "2026-11-02"}]
    later = supersedes([("W", new, ["bbbbbbbbbb"], 0.8, "2026-11-09")], memory, [],
                       frozenset(), similar)  # fmt: skip
    assert later[0]["replaces"] == "aaaaaaaaaa"
    same_day = supersedes([("W", new, ["bbbbbbbbbb"], 0.8, "2026-11-02")], memory, [],
                          frozenset(), similar)  # fmt: skip
    assert same_day == {}


def test_a_known_name_in_the_old_value_is_not_the_new_owner() -> None:
    # "Family" is a known name here (from "Spotify Family"): "Family passwords" still says
    # nothing of the subscriptions, while "Node" alone is what the backend's "Node 18" names
    names = frozenset({"Family", "Spotify", "Node"})
    old = "Household subscriptions include Spotify Family."
    assert currency.relation("Family passwords now live in 1Password.", old, names).kind == (
        currency.OTHER
    )
    bumped = currency.relation(
        "Bumped Node to 22 across all services.", "The backend targets Node 18.", names
    )
    assert bumped.kind == currency.SUPERSEDE


def write_restated_notes(ws: Path) -> None:
    """Two days of notes, the second restating the first's pickup day with another value."""
    filler = ["The office plants need water on Mondays.", "Printer toner is in cabinet B."]
    for day, text in ((3, "Recycling is collected every other Tuesday."),
                      (9, "Recycling pickup happens on Thursdays.")):  # fmt: skip
        for t in [*filler, text]:
            micro_rest(t, "W", workspace=ws, when=dt.datetime(2026, 11, day, 10, 0))


def test_recall_ranks_a_newer_restatement_first(tmp_path: Path, monkeypatch: Any) -> None:
    """No sleep has read an update in these notes; recall still puts the newer one first when
    it restates the older with a value of its own, and only then."""
    from agent_sleep.retrieval.recall import recall

    ws = tmp_path / "ws"
    write_restated_notes(ws)

    def first(query: str) -> str:
        return recall(ws, query, k=4)[0].text

    assert "Thursdays" in first("when is recycling collected")
    monkeypatch.setattr(recall_currency, "RESTATED", 2.0)  # off: the older one reads closer
    assert "Tuesday" in first("when is recycling collected")


def test_restatement_needs_the_same_owner_and_no_chat() -> None:
    assert currency.restates("Recycling pickup happens on Thursdays.",
                             "Recycling is collected every other Tuesday.")  # fmt: skip
    assert not currency.restates("Glass pickup happens on Thursdays.",
                                 "Recycling is collected every other Tuesday.")  # fmt: skip
    assert not currency.restates("Rania's work email is rania@mail.io.",
                                 "Yusuf's work email is yusuf@mail.io.")  # fmt: skip
    assert not currency.restates("Caroline: I walk the dog on Thursdays.",
                                 "Caroline: I walk the dog on Tuesdays.")  # fmt: skip


# the new note names a value of the old one as what it replaced, while the clause rules read two
# owners ("the cap" / "attachments", "Finance" / "the plan", "we" / "the wiki")
OLD_NAMED = [
    (
        "Max attachment size for support tickets is 10 MB.",
        "Ticket upload limit went from 10 MB to 50 MB after the storage upgrade.",
    ),
    (
        "Team plan is $12 per seat on the pricing page.",
        "Finance moved the Team plan from $12 to $15 per seat.",
    ),
    ("Internal wiki runs on Confluence Cloud.", "Swapped Confluence for Notion as the wiki."),
    (
        "Nightly backups are written to the Wasabi bucket db-dumps.",
        "Backups: Wasabi was retired; dumps now land in Backblaze B2.",
    ),
    ("The scheduler image is pinned to alpine 3.18.", "scheduler base image alpine 3.18 -> 3.20"),
    ("The nightly export runs at 02:00 UTC.", "The export was moved from 02:00 to 03:30 UTC."),
]
# a value named as replaced, yet the old note is another thing, an event, or only a count
OLD_NAMED_KEPT = [
    # another thing of the same kind: "car" and "home" insurance
    (
        "Home insurance is with Allianz, renewal in March.",
        "Switched car insurance from Allianz to HUK-Coburg.",
    ),
    # only a unit in common: a trial's 14 days are not the log's
    ("The free trial lasts 14 days.", "Cut log retention from 14 days to 7 days."),
    # the group names another thing than the old note ("Hotel Plaza" is not "Hotel Ritz")
    (
        "The Lisbon stay is at Hotel Ritz near the river.",
        "Switched the Madrid booking from Hotel Plaza to an apartment in Malasaña.",
    ),
    # an event happened and stays true
    (
        "We ran the load test against Postgres 14 on Monday.",
        "Upgraded the database from Postgres 14 to Postgres 16.",
    ),
    # an intention
    ("The team chat is on Slack.", "We might swap Slack for Zulip next quarter."),
    # two speakers' turns
    ("Ana: I use Firefox at work.", "Ben: I moved from Firefox to Chrome last month."),
    # only the clock time and its zone in common: the staging reset is not the export
    (
        "Staging database is reset every Sunday at 02:00 UTC",
        "Maria approved moving the export from 02:00 to 03:30 UTC starting next Monday.",
    ),
    ("The standup is at 9:30 am in room 4.", "Moved the demo from 9:30 to 11 am."),
]


@pytest.mark.parametrize(("old", "new"), OLD_NAMED)
def test_the_old_value_named_supersedes_whatever_the_owners(old: str, new: str) -> None:
    v = currency.relation(new, old)
    assert (v.kind, v.why) == (currency.SUPERSEDE, "the old value named"), v
    assert v.old_value and v.new_value


@pytest.mark.parametrize(("old", "new"), OLD_NAMED_KEPT)
def test_the_old_value_named_keeps_other_things(old: str, new: str) -> None:
    assert currency._old_named(new, old) is None
