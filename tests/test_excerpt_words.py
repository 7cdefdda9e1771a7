"""Sleep's quoted lines cut at a word's end and never show part of a number.

"Joe Bennett covers weekend mornings for Brightside. Joe's number is 07700 90048…" was a
connection line sleep wrote, and recall ranked it first for "what is Joe's phone number": the
cut left another, wrong number. "Lindqvist weddi…" was cut mid-word.
"""

from __future__ import annotations

import pytest

from agent_sleep.providers.offline_common import excerpt


def test_a_number_the_cut_would_break_is_left_out() -> None:
    text = "Joe Bennett covers weekend mornings for Brightside. Joe's number is 07700 900481."
    assert (
        excerpt(text, 76) == "Joe Bennett covers weekend mornings for Brightside. Joe's number is…"
    )


@pytest.mark.parametrize("n", [20, 33, 40, 57, 80])
def test_the_cut_is_at_a_words_end(n: int) -> None:
    text = "Lindqvist wedding at Rosewood Winery on June 20, ceremony at 3pm, dinner at 6pm after."
    out = excerpt(text, n)
    assert len(out) <= n and out.endswith("…")
    kept = out[:-1]
    assert text.startswith(kept) and text[len(kept)] in " ,", out


def test_short_text_is_whole_and_one_line() -> None:
    assert excerpt("Dad's GP is\nDr. Shah.", 80) == "Dad's GP is Dr. Shah."
