"""Bank page names. A business named with "&" ("Olive & Thyme", "Petal & Stem") is one name:
one page, titled as written (a wedding planner's notes had filed its entries on olive.md and
thyme.md); an acronym's page is titled as written; a past form is no topic."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from agent_sleep import micro_rest, sleep_cycle
from agent_sleep.analysis import distill


def test_a_name_joined_by_an_ampersand_is_one_name() -> None:
    known = frozenset({"Olive", "Thyme", "Sara"})
    assert distill.names("Sara at Olive & Thyme sent the menu & the costs.", known) == [
        "Sara",
        "Olive & Thyme",
    ]
    assert "Olive & Thyme Catering" in distill.names("Our caterer is Olive & Thyme Catering.")
    # a lower-case word after "&" is no part of a name
    assert distill.names("We paid Olive & the florist today.", known) == ["Olive"]


def _one_day(ws: Path, day: dt.datetime, texts: list[str]) -> None:
    for k, text in enumerate(texts):
        micro_rest(text, "B", workspace=ws, when=day + dt.timedelta(minutes=10 * k))
    sleep_cycle(ws, provider="offline", now=day.replace(hour=22))


def test_its_bank_page_is_one_page_titled_as_written(ws: Path) -> None:
    _one_day(
        ws,
        dt.datetime(2026, 10, 14, 9, 0),
        [
            "Paid Olive & Thyme the $2,000 catering deposit.",
            "Tasting at Olive & Thyme went well; Ana loved the short rib.",
            "Olive & Thyme needs the final headcount by May 1.",
        ],
    )
    pages = {p.name for p in (ws / "bank" / "entities").glob("*.md")}
    assert "olive.md" not in pages and "thyme.md" not in pages
    assert "olive-thyme.md" in pages
    assert "\n# Olive & Thyme\n" in (ws / "bank" / "entities" / "olive-thyme.md").read_text()


def test_an_acronym_page_is_titled_as_written_and_a_past_form_is_no_topic(ws: Path) -> None:
    """A health assistant's notes had a page titled "Bp" and a concept page "Felt"."""
    _one_day(
        ws,
        dt.datetime(2026, 10, 26, 8, 0),
        [
            "Home BP this morning 131/84.",
            "BP after the run was 128/80.",
            "Long run 16 km, felt good.",
            "Easy run 8 km, felt tired.",
            "Tempo run 10 km, felt strong.",
        ],
    )
    bank = ws / "bank"
    bp = bank / "entities" / "bp.md"
    assert bp.exists() and "\n# BP\n" in bp.read_text()
    assert not (bank / "concepts" / "felt.md").exists()


def test_a_title_is_no_name_and_starts_no_sentence() -> None:
    """A research assistant's notes had pages "Prof" (of "Prof. Okafor") and "Nan" (of "NaN
    loss") beside the okafor page."""
    assert distill.names("Emailed Prof. Okafor the draft; Dr. Feld replied.") == ["Okafor", "Feld"]
    assert distill.names("Dr. Greene changed the inhaler.") == ["Greene"]
    assert distill.names("Got a NaN loss again on run 7.") == []
    assert distill.known_names(["Prof. Okafor approved it.", "Emailed Prof. Okafor."]) == {"Okafor"}


def test_a_family_is_filed_on_its_name_and_a_model_number_names_no_page(ws: Path) -> None:
    """A photographer's notes split one family across brandt.md and brandts.md, and "return
    the R6 II" made a page titled "II"."""
    _one_day(
        ws,
        dt.datetime(2026, 4, 14, 9, 0),
        [
            "Hannah Brandt wants the formals done before the ceremony.",
            "The Brandts paid the $1,000 deposit.",
            "Met the Brandts at The Foundry for the walkthrough.",
            "Rented an R6 II for the Brandt wedding; return the R6 II on Monday.",
            "The R6 II rental is $85 a day; the R6 II battery grip is extra.",
        ],
    )
    pages = {p.stem for p in (ws / "bank").rglob("*.md")}
    assert "brandts" not in pages and "ii" not in pages, pages
    assert "brandt" in pages, pages
