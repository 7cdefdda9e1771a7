"""A note stays pending until NREM consolidates it: nothing a run refuses, holds back or only
REM cites consumes it.

- every item a model gives for a note dropped by validation (unknown id, ungrounded, oversized,
  bad slug …): the note stays pending, the run says so, and the next sleep (asked again, not
  answered from the kept batch replies) consolidates it;
- a note whose changes the removal cap held back, though one applied change cites it, stays
  pending until a run takes the rest (the session-start notice then clears);
- an update that rewrites an entry goes through the gates of a supersede (a new note cited, the
  old text to History); a merge keeps the entry's text;
- a page REM seeds from notes NREM has not consolidated (``--phase rem``, or a note NREM left
  pending) does not consume them.

The model is the OpenAI-compatible stand-in on 127.0.0.1 (``tests/fake_openai_api.py``), driven
through the real ``openai`` SDK.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_sleep import get_context
from agent_sleep.consolidation.journal import rollback
from agent_sleep.consolidation.sleep import SleepResult, sleep_cycle
from agent_sleep.consolidation.status import status
from agent_sleep.core import notes
from agent_sleep.core.memory import ARCHIVE_SLUG
from agent_sleep.core.rest import micro_rest
from tests.fake_openai_api import FakeOpenAIAPI, Recorded, Reply, honest
from tests.test_hostile_support import NOW, TODAY, day, tree

Answer = Callable[[dict[str, Any]], dict[str, Any]]


@pytest.fixture
def api(openai_stand_in: FakeOpenAIAPI) -> FakeOpenAIAPI:
    return openai_stand_in


def _answering(api: FakeOpenAIAPI, nrem: Answer | None = None, rem: Answer | None = None) -> None:
    """The stand-in answers NREM with ``nrem`` and REM with ``rem`` (default: honestly)."""

    def respond(rec: Recorded) -> Reply:
        p = rec.payload
        chosen = {"nrem": nrem, "rem": rem}.get(str(p.get("task")))
        return Reply.json((chosen or honest)(p))

    api.responder = respond


def _nrem(*updates: dict[str, Any], bank: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "memory_md_updates": list(updates),
        "bank_updates": bank or [],
        "pruned_count": 0,
        "weakly_learned": [],
        "open_questions": [],
    }


def _item(action: str, text: str, sources: list[str], replaces: str = "") -> dict[str, Any]:
    return {
        "action": action,
        "type": "W",
        "confidence": 0.9,
        "text": text,
        "replaces": replaces,
        "sources": sources,
    }


def _note(p: dict[str, Any], words: str) -> str:
    return next(n["id"] for n in p["notes"] if words in n["text"])


def _entry(p: dict[str, Any], words: str) -> dict[str, Any]:
    return next(m for m in p["memory"] if words in m["text"])


def _seed(ws: Path, api: FakeOpenAIAPI, texts: list[str]) -> None:
    """MEMORY.md with one entry per text (notes two days old, each added as it was said)."""
    for i, text in enumerate(texts):
        micro_rest(text, "W", workspace=ws, when=day(2, 9 + i))
    _answering(api)
    sleep_cycle(ws, "nrem", "openai", now=day(2, 20))
    assert [e.text for e in _entries(ws)] == texts


def _entries(ws: Path) -> list[notes.Note]:
    return [n for n in notes.notes_in((ws / "MEMORY.md").read_text()) if n.id]


def _pending(ws: Path) -> int:
    return int(status(ws, today=TODAY)["pending_notes"])


def _run(ws: Path, phase: str = "both", **kw: Any) -> tuple[SleepResult, list[str]]:
    said: list[str] = []
    return sleep_cycle(ws, phase, "openai", now=NOW, progress=said.append, **kw), said


def _files(ws: Path) -> dict[str, bytes]:
    return tree(ws, skip_state=True)


# -- every item of a note refused: the note waits ---------------------------------------------

PG15 = "The staging database runs Postgres 15"
PG16 = "We upgraded the staging database to Postgres 16"


def _refused(kind: str) -> Answer:
    """An NREM answer whose one item for the Postgres 16 note validation drops as ``kind``."""

    def answer(p: dict[str, Any]) -> dict[str, Any]:
        nid, old = _note(p, "Postgres 16"), _entry(p, "Postgres 15")["id"]
        now = "The staging database now runs Postgres 16"
        if kind == "unknown_id":  # the entry's id with one character wrong
            typo = old[:-1] + ("x" if old[-1] != "x" else "y")
            return _nrem(_item("supersede", now, [nid], replaces=typo))
        if kind == "ungrounded":  # cites the note and an id it was never shown
            return _nrem(_item("add", now, [nid, "zzzzzzzzzz"]))
        if kind == "oversized":
            return _nrem(_item("add", now + " and more" * 200, [nid]))
        assert kind == "bad_slug"  # a name no slug can hold: no letter or digit at all
        page = {"slug": "—…—", "kind": "entity", "section": "Facts", "content": now}
        return _nrem(bank=[{**page, "sources": [nid]}])

    return answer


def _supersedes(p: dict[str, Any]) -> dict[str, Any]:
    """A correct NREM answer: the Postgres 16 note supersedes the Postgres 15 entry."""
    nid, old = _note(p, "Postgres 16"), _entry(p, "Postgres 15")["id"]
    return _nrem(_item("supersede", "The staging database now runs Postgres 16", [nid], old))


@pytest.mark.parametrize("kind", ["unknown_id", "ungrounded", "oversized", "bad_slug"])
def test_a_note_whose_every_item_is_dropped_stays_pending_and_the_next_sleep_takes_it(
    ws: Path, api: FakeOpenAIAPI, kind: str
) -> None:
    _seed(ws, api, [PG15])
    nid = micro_rest(PG16, "W", workspace=ws, when=day(0))
    _answering(api, _refused(kind))
    r, said = _run(ws)
    assert r.dropped.get(kind) == 1 and r.pending_left == 1 and _pending(ws) == 1
    assert r.unapplied == 1 and any("1 note stays pending" in line for line in said)
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert line["unapplied"] == 1 and line["pending_left"] == 1
    # the next sleep reads the note again; a correct answer now lands
    _answering(api, _supersedes)
    again, _ = _run(ws)
    assert again.notes_in == 1 and again.decisions.get("memory_supersede") == 1
    assert [e.text for e in _entries(ws)] == ["The staging database now runs Postgres 16"]
    assert nid in notes.sources_of(_entries(ws)[0]) and _pending(ws) == 0


def test_a_note_with_one_applied_item_or_no_item_at_all_is_consumed_as_before(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _seed(ws, api, [PG15])
    micro_rest(PG16, "W", workspace=ws, when=day(0, 9))
    micro_rest("Thanks, that helped!", "B", workspace=ws, when=day(0, 10))

    def half(p: dict[str, Any]) -> dict[str, Any]:
        good = _supersedes(p)
        bad = _refused("ungrounded")(p)["memory_md_updates"]
        return {**good, "memory_md_updates": good["memory_md_updates"] + bad, "pruned_count": 1}

    _answering(api, half)
    r, said = _run(ws)
    assert r.dropped == {"ungrounded": 1} and r.pending_left == 0
    assert not any("pending" in line for line in said)
    assert _pending(ws) == 0  # the pruned note is not asked about again either


def test_a_note_left_pending_is_asked_again_not_answered_from_the_kept_batch_replies(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small window splits the run into batches whose replies are kept for an interrupted
    run; a run that completes drops them, so the same request goes to the model again."""
    names = ("Caroline", "Melanie", "Jonas")
    facts = (
        "{n} started a pottery class at the community centre on 2023-05-0{i}.",
        "{n} said the museum trip with the kids took about three hours.",
        "{n} moved the team standup to 9am every Tuesday after the vote.",
        "{n} has been reading a novel about lighthouse keepers since last week.",
    )
    for i, fact in enumerate(facts):
        for name in names:
            micro_rest(fact.format(n=name, i=i + 1), "W", workspace=ws, when=day(0, 9))
    with FakeOpenAIAPI(models=[{"id": "tiny", "meta": {"n_ctx": 4096}}]) as server:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("AGENT_SLEEP_MAX_RETRIES", "0")
        monkeypatch.delenv("AGENT_SLEEP_MODEL", raising=False)

        def typo(p: dict[str, Any]) -> dict[str, Any]:  # every item cites an unknown id too
            out = honest(p)
            for item in out["memory_md_updates"]:
                item["sources"].append("zzzzzzzzzz")
            return out

        _answering(server, typo)
        first = sleep_cycle(ws, "nrem", "openai", now=NOW)
        assert first.tokens["batches"] >= 2 and _pending(ws) == 12
        assert first.unapplied == 12
        asked = len(server.completions())
        _answering(server)
        second = sleep_cycle(ws, "nrem", "openai", now=NOW)
        assert len(server.completions()) - asked == second.tokens["batches"] >= 2
    assert second.decisions.get("memory_add") == 12 and _pending(ws) == 0


# -- a note whose changes the removal cap held back ---------------------------------------------

HEROKU = [
    "The API service is hosted on Heroku",
    "The background worker is hosted on Heroku",
    "The cron jobs are hosted on Heroku",
    "User prefers dark mode in the editor",
]
MOVED = "We moved all services, the API, the worker and the cron jobs, from Heroku to Fly.io"


def _moves_everything(p: dict[str, Any]) -> dict[str, Any]:
    """The note supersedes every entry on Heroku. Read again, it also names the entry it
    already replaced (its text unchanged): that restatement must change nothing."""
    nid = _note(p, "Fly.io")
    return _nrem(
        *(
            _item("supersede", m["text"].replace("Heroku", "Fly.io"), [nid], m["id"])
            for m in p["memory"]
            if "Heroku" in m["text"] or "Fly.io" in m["text"]
        )
    )


def _held(ws: Path) -> bool:
    return "held back the changes of" in get_context(ws)


def test_a_note_whose_changes_the_cap_held_back_stays_pending_until_every_change_lands(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _seed(ws, api, HEROKU)  # four entries: the cap lets one change through a run
    nid = micro_rest(MOVED, "W", workspace=ws, when=day(0))
    _answering(api, _moves_everything)
    first, _ = _run(ws)
    assert first.decisions.get("memory_supersede") == 1 and first.dropped["removal_cap"] == 2
    assert first.deferred == 1 and first.pending_left == 1
    assert _pending(ws) == 1 and _held(ws)
    before_last = {}
    for run in range(2, 4):  # each run re-reads the note and lets one more change through
        before_last = _files(ws)
        r, _ = _run(ws)
        assert r.notes_in == 1 and r.decisions.get("memory_supersede") == 1
        assert r.dropped.get("unchanged", 0) == run - 1  # the entries it already replaced
        assert r.deferred == (1 if run == 2 else 0)
    texts = [e.text for e in _entries(ws)]
    assert texts == [t.replace("Heroku", "Fly.io") for t in HEROKU]
    assert all(nid in notes.sources_of(e) for e in _entries(ws)[:3])
    assert _pending(ws) == 0 and not _held(ws)
    assert _run(ws)[0].notes_in == 0  # nothing left to do
    # the last run undone, byte for byte: its note waits again for the change it made
    rollback(ws)
    assert _files(ws) == before_last
    assert _pending(ws) == 1


# -- update and merge ---------------------------------------------------------------------------

TEAM = [
    "The payments API is written in Go",
    "The CI pipeline runs on GitHub Actions",
    "Production deploys happen on Tuesdays",
    "The team standup is at 09:30 every weekday",
]


def test_an_update_that_rewrites_an_entry_without_a_new_note_is_refused(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _seed(ws, api, TEAM)
    micro_rest("Carol Diaz joined the payments team as an SRE", "W", workspace=ws, when=day(0))
    before = _files(ws)

    def wipe(p: dict[str, Any]) -> dict[str, Any]:  # the CI entry rewritten as the Go one
        ci, go = _entry(p, "CI pipeline"), _entry(p, "written in Go")
        return _nrem({**_item("update", go["text"], [go["id"]], ci["id"]), "type": "B"})

    _answering(api, wipe)
    r, _ = _run(ws)
    assert r.dropped == {"supersede_without_note": 1} and "memory_update" not in r.decisions
    assert _files(ws) == before  # MEMORY.md as it was: the CI fact still current


def test_an_update_that_changes_the_text_files_the_old_one_in_history(
    ws: Path, api: FakeOpenAIAPI
) -> None:
    _seed(ws, api, TEAM)
    nid = micro_rest("Production deploys moved to Thursdays", "W", workspace=ws, when=day(0))
    before = _files(ws)
    old = next(e for e in _entries(ws) if "Tuesdays" in e.text)

    def update(p: dict[str, Any]) -> dict[str, Any]:
        entry = _entry(p, "Tuesdays")
        return _nrem(_item("update", "Production deploys happen on Thursdays", [nid], entry["id"]))

    _answering(api, update)
    r, _ = _run(ws)
    assert r.decisions.get("memory_update") == 1 and "memory_supersede" not in r.decisions
    new = next(e for e in _entries(ws) if "deploys" in e.text)
    assert new.text == "Production deploys happen on Thursdays"
    assert new.meta["supersedes"] == old.id and notes.sources_of(new) == [nid]
    history = [
        n
        for p in (ws / "bank").rglob("*.md")
        for n in notes.notes_in(p.read_text(), "History")
        if n.id == old.id
    ]
    assert len(history) == 1 and history[0].text == old.text
    assert history[0].meta["superseded_by"] == new.id
    line = json.loads((ws / ".agent-sleep/journal.jsonl").read_text().splitlines()[-1])
    assert [s["why"] for s in line["superseded"]] == ["update"]
    rollback(ws)
    assert _files(ws) == before


def test_a_merge_keeps_the_entrys_text_and_gains_the_note(ws: Path, api: FakeOpenAIAPI) -> None:
    _seed(ws, api, TEAM)
    nid = micro_rest("Standup is still 09:30 on weekdays", "W", workspace=ws, when=day(0))
    old = next(e for e in _entries(ws) if "standup" in e.text)

    def merge(p: dict[str, Any]) -> dict[str, Any]:
        entry = _entry(p, "standup")
        return _nrem(_item("merge", "totally different text", [nid], entry["id"]))

    _answering(api, merge)
    r, _ = _run(ws)
    assert "removal_cap" not in r.dropped and r.dropped == {}
    texts = [e.text for e in _entries(ws)]
    assert texts == TEAM and "totally different text" not in (ws / "MEMORY.md").read_text()
    merged = next(e for e in _entries(ws) if "standup" in e.text)
    assert notes.sources_of(merged) == [*notes.sources_of(old), nid]


# -- REM cites, NREM consolidates ---------------------------------------------------------------


def _seeds_a_page(p: dict[str, Any]) -> dict[str, Any]:
    """REM: a bank page seeded from the Postgres 16 note."""
    out = honest(p)
    seed = {"slug": "staging-database", "kind": "concept", "seed_content": "About staging"}
    out["new_bank_suggestions"] = [{**seed, "sources": [_note(p, "Postgres 16")]}]
    return out


def test_rem_alone_leaves_the_notes_it_reads_pending_for_nrem(ws: Path, api: FakeOpenAIAPI) -> None:
    _seed(ws, api, [PG15])
    micro_rest(PG16, "W", workspace=ws, when=day(0, 9))
    micro_rest("Carol Diaz joined the payments team as an SRE", "W", workspace=ws, when=day(0, 10))
    assert _pending(ws) == 2
    _answering(api, rem=_seeds_a_page)
    r, said = _run(ws, "rem")
    assert r.decisions.get("bank_suggestions") == 1 and r.pending_left == 2
    assert "About staging" in (ws / "bank/concepts/staging-database.md").read_text()
    assert any("2 notes REM read are still pending" in line for line in said)
    assert _pending(ws) == 2
    # NREM is shown both notes and replaces the old version
    _answering(api, _supersedes)
    asked = len(api.completions())
    r, _ = _run(ws, "nrem")
    (req,) = api.completions()[asked:]
    assert len(req.payload["notes"]) == 2 and r.decisions.get("memory_supersede") == 1
    assert [e.text for e in _entries(ws)] == ["The staging database now runs Postgres 16"]
    assert _pending(ws) == 0


def test_a_rem_page_does_not_consume_a_note_nrem_refused(ws: Path, api: FakeOpenAIAPI) -> None:
    _seed(ws, api, [PG15])
    micro_rest(PG16, "W", workspace=ws, when=day(0))
    _answering(api, _refused("unknown_id"), _seeds_a_page)
    r, _ = _run(ws)
    assert r.decisions.get("bank_suggestions") == 1 and _pending(ws) == 1
    assert r.unapplied == 1
    _answering(api, _supersedes)
    _run(ws)
    assert [e.text for e in _entries(ws)] == ["The staging database now runs Postgres 16"]
    assert _pending(ws) == 0


def test_an_ordinary_rem_page_is_written_as_before(ws: Path, api: FakeOpenAIAPI) -> None:
    """A page REM seeds from notes this run's NREM consolidated carries no mark."""
    _seed(ws, api, [PG15])
    micro_rest(PG16, "W", workspace=ws, when=day(0))
    _answering(api, _supersedes, _seeds_a_page)
    _run(ws)
    page = (ws / "bank/concepts/staging-database.md").read_text()
    (seeded,) = notes.notes_in(page)
    assert "by" not in seeded.meta and _pending(ws) == 0
    assert (ws / f"bank/concepts/{ARCHIVE_SLUG}.md").exists()  # the old version's History
