"""A new time of day put right in the entry, the rest of it kept.

Found replaying a law firm's IT admin's five weeks of notes: "Backup job moved to 01:30 so it
doesn't clash with partners working late" replaced "Nightly backup runs at 22:00 from the
Synology DS920+ to Backblaze B2" whole, and the NAS and where the backup goes left MEMORY.md.
"""

from __future__ import annotations

from agent_sleep.analysis import currency
from tests.currency_support import rewritten

BACKUP = "Nightly backup runs at 22:00 from the Synology DS920+ to Backblaze B2."


def test_the_time_is_put_right_and_the_rest_stays() -> None:
    new = "Backup job moved to 01:30 so it doesn't clash with partners working late."
    assert rewritten(("W", BACKUP), ("W", new)) == (
        "Nightly backup runs at 01:30 from the Synology DS920+ to Backblaze B2."
    )


def test_a_note_with_more_than_the_time_takes_the_place() -> None:
    new = "Backup job moved to 01:30 and now goes to Wasabi instead of Backblaze."
    assert currency.clock_put_right(new, BACKUP) is None


def test_a_time_alone_is_replaced_whole() -> None:
    assert currency.clock_put_right("Standup moved to 10:15.", "Standup is at 9:30.") is None


def test_a_version_is_no_time() -> None:
    assert (
        currency.clock_put_right("The API runs on Python 3.12 now.", "The API runs on Python 3.11.")
        is None
    )
