"""Readings of a note that had kept a replaced fact current.

Found by four weeks of a coding agent's notes, each pair stayed current side by side:

- "We moved our metrics to Grafana Cloud." after "Metrics are shipped to Datadog.": the word
  that opens the older note is capitalised, and was read as a name apart from the user's own
  ("our metrics"), so the two were taken for two owners;
- "The v2.0 deadline slipped two weeks, to December 18." after "The v2.0 release deadline is
  December 4.": "two weeks" was read as what slipped, not by how much;
- "Decision: the public API will be GraphQL." was read as a speaker's intention ("Decision" as
  who speaks, "will" as a plan), so no later decision could replace it.

And from five weeks of an account manager's notes, a fact lost: "Umbrella Health renamed itself
to Umbrella Care." replaced "Carlos Oliveira handles procurement at Umbrella Health.".
"""

from __future__ import annotations

import pytest

from agent_sleep.analysis import currency, update_model
from agent_sleep.analysis.claims import claims
from agent_sleep.providers.offline_currency import similarity


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Metrics are shipped to Datadog.", "We moved our metrics to Grafana Cloud."),
        ("Invoices are sent from Xero.", "We moved our invoices to QuickBooks."),
        ("The v2.0 release deadline is December 4.",
         "The v2.0 deadline slipped two weeks, to December 18."),
        ("The launch date is May 3.", "The launch date slipped a few days, to May 7."),
        ("Decision: the public API will be GraphQL.",
         "Decision: the public API will be REST, not GraphQL."),
    ],
)  # fmt: skip
def test_replaced(old: str, new: str) -> None:
    assert currency.relation(new, old).kind == currency.SUPERSEDE


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Maria owns the billing service.", "Dev owns the search service."),
        ("Metrics are shipped to Datadog.", "Logs are shipped to Loki."),
        ("The v2.0 release deadline is December 4.", "The v3.0 deadline is March 2."),
        ("Decision: the public API will be GraphQL.", "Decision: the admin API will be REST."),
    ],
)  # fmt: skip
def test_not_replaced(old: str, new: str) -> None:
    assert currency.relation(new, old).kind != currency.SUPERSEDE


def test_an_amount_of_time_is_not_what_changed() -> None:
    (c,) = claims("The v2.0 deadline slipped two weeks, to December 18.")
    assert c.owner == {"deadline"}
    assert "week" not in c.owner | c.qualifiers


def test_a_decision_label_is_no_speaker_and_no_intention() -> None:
    (c,) = claims("Decision: the public API will be GraphQL.")
    assert c.speaker == ""
    assert not c.modal
    (plan,) = claims("The public API will be GraphQL.")
    assert plan.modal  # without the label, "will" is still an intention


@pytest.mark.parametrize(
    "new",
    [
        "Umbrella Health renamed itself to Umbrella Care.",
        "Umbrella Health is now called Umbrella Care.",
        "Umbrella Health rebranded as Umbrella Care.",
    ],
)
def test_a_new_name_keeps_what_is_said_under_the_old_one(new: str) -> None:
    """A company's new name says nothing against who handles its procurement: the learned
    model had read it as an update (p 0.72) and the fact was lost."""
    old = "Carlos Oliveira handles procurement at Umbrella Health."
    assert update_model.relation(new, old, similar=similarity()).kind != currency.SUPERSEDE
    assert currency.renamed_only(new, old)


def test_a_new_name_replaces_what_it_is_called() -> None:
    new = "Umbrella Health renamed itself to Umbrella Care."
    assert not currency.renamed_only(new, "Our client is called Umbrella Health.")
    assert not currency.renamed_only(
        "Renamed the default branch to trunk.", "Default branch: master"
    )


# six weeks of a personal assistant's notes about one person: every note has the same owner,
# so what she did that day was read as a new value of what she is
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Inês is a member of APT, the Portuguese translators' association.",
         "Inês met two potential German clients at the conference."),
        ("Inês does all her translation work in memoQ.",
         "Inês attended an online webinar about machine translation post-editing."),
        ("Tomás, 13, is in 8th grade at Colégio Luso-Francês.",
         "Tomás scored well on his maths test; Inês was proud."),
        # a span of hours is no change from its first hour
        ("Inês charges a minimum fee of €40 for short jobs.",
         "Inês works from 9:00 to 14:30 while the kids are at school."),
        # two wishes of one person: a language is no value a sign-off replaces
        ("Inês wants the email drafts I prepare for her written in Portuguese.",
         "Inês wants client emails signed 'Cheers, Inês' from now on."),
        # another person, named through whose she is
        ("Inês lives at Rua do Almada 45, 3rd floor, Porto.",
         "Inês's mother, Graça, lives in Braga."),
        # what happened does not go stale
        ("Sofia forgot her lunchbox; Inês drove it over at noon.",
         "Inês corrected me: Sofia's pickup is actually at 16:15; 15:30 was last year's time."),
        ("Client payments go into Inês's business account at Millennium BCP.",
         "Inês delivered a short certificate translation for a private client."),
        # values of a kind, but said of two things
        ("Inês has physiotherapy for her shoulder every Wednesday at 8:30.",
         "Inês went to her Tuesday yoga class at 19:00 as usual."),
        ("Inês charges a minimum fee of €40 for short jobs.",
         "Inês booked Mudanças Rápidas for the move; their quote was €780."),
        # a light verb says the same only with values of a kind
        ("Inês goes to yoga every Tuesday at 19:00.",
         "These days Inês goes to Typographia coworking on Tuesdays and Thursdays."),
        ("Inês sends all her invoices on the last working day of the month.",
         "Inês cancelled Mudanças Rápidas and hired TransLar instead, since they had a free date."),
        # a place is no new rate; a task is no new value of another task
        ("Lumina Pharma pays Inês €0.11 per word for German>Portuguese pharma work.",
         "Lumina Pharma is headquartered in Basel."),
        ("Need to send the new address to Lumina's accounts department.",
         "Need to send the two German agencies her CV and rate sheet."),
        # a date is no value a phone number's digits give way to
        ("Inês got a new work number, +351 936 111 222; the old SIM stops working next week.",
         "Unpacked the office first so Inês can work tomorrow (2026-10-13)."),
        # a new one of another's ("Kwame's new manager"), or one more
        ("Marisol's manager is Ken Ito.", "Kwame's new manager is Diego Alvarez after the reorg."),
        ("Sofia's friend is Ana.", "Sofia made another new friend, Marta."),
        # a new one named first is the value, of the owner the older note names only
        ("Harbor House's head chef is Tomas Reyes.", "Ana Costa is the new head chef at Rua Nova."),
        ("Marisol Diaz manages the support team.", "Lee Park is Kwame's new manager."),
        ("Marta (Rua Nova manager) mobile: +351 912 345 678.",
         "Pedro's new mobile number is +351 936 111 222."),
        ("Sven's desk phone: +46 8 123 456 78.", "Sven's new office is room 4.12."),
        # a new one of another thing the older note names only in part ("piano" lessons)
        ("Sofia's piano lessons are on Wednesdays at 17:30.",
         "Sofia had her first lesson with Ms. Brandt, her new piano teacher, and came home happy."),
        # the change is of another thing ("flat" only places the new dentist)
        ("Inês lives at Rua do Almada 45, 3rd floor, Porto.",
         "Inês switched dentists: she sees Dr. Vasconcelos now, five minutes from the new flat."),
    ],
)  # fmt: skip
def test_what_happened_is_no_new_value(old: str, new: str) -> None:
    assert update_model.relation(new, old, similar=similarity()).kind != currency.SUPERSEDE


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Olusegun is vegetarian.", "Olusegun went fully vegan in March."),  # a state reached
        ("Initech has 25 seats on their license.", "Initech expanded to 40 seats last week."),
        ("Invoice INV-2041 to Brightwater Ltd is outstanding.",
         "Invoice INV-2041 was paid in full on 3 May."),  # a status given to what it names
        ("Standup is at 9:30.", "Standup moved from 9:30 to 10:00."),
        ("Rent: 1,150 euros, due on the 3rd.", "Rent goes from 1,150 to 1,240 euros next month."),
        ("Inês wants the email drafts I prepare for her written in Portuguese.",
         "Inês now prefers that I write her drafts in English."),
        ("Inês's mother lives in Coimbra.", "Inês's mother, Graça, lives in Braga now."),
        ("Astrid banks with Nordea.", "Astrid moved her accounts to Revolut."),
        ("Tomás goes to Escola Básica Fontes Pereira de Melo.",
         "These days Tomás goes to Colégio Luso-Francês."),
        ("Tom works at Google.", "Tom got a job at Stripe."),
        # the languages of the work are not what changed
        ("Lumina Pharma pays Inês €0.11 per word for German>Portuguese pharma work.",
         "Lumina Pharma agreed to raise Inês's rate to €0.13 a word, effective immediately."),
        ("Umaima likes jazz better than techno.",
         "Umaima changed their mind and prefers techno to jazz these days."),
        ("House wine by the glass is 6 euros, red or white.",
         "Supplier hiked prices, so a glass of house wine costs 7.50 euros."),
        # a new one of what the older note names, a name in place of its name
        ("Sofia's piano teacher is Mr. Okonkwo at the conservatoire annex.",
         "Sofia had her first lesson with Ms. Brandt, her new piano teacher, and loved it."),
        ("Inês's dentist is Dr. Pereira at the Boavista dental clinic.",
         "Inês switched dentists: she sees Dr. Vasconcelos now, five minutes from the new flat."),
        ("Dana uses VS Code as their editor.", "Dana switched editors: they use Neovim now."),
        ("Best number for Cormac at Sterling Freight: 555-0142.",
         "Cormac (Sterling Freight) asked us to call his mobile, 555-0199."),  # one shape
        ("Board demo of the forecasting feature scheduled for the 12th.",
         "The forecasting feature demo was moved up to the 8th by the CEO's office."),
        # a new one named first ("X is the new Y"), and a new number for a number of its shape
        ("Harbor House's head chef is Tomas Reyes.",
         "Ines Duarte is the new head chef at Harbor House, starting today."),
        ("The billing team's tech lead is Priya Nair.",
         "Omar Haddad is the new tech lead of the billing team."),
        ("Kwame's manager is Marisol Diaz.", "Lee Park is Kwame's new manager."),
        ("Sven's desk phone: +46 8 123 456 78.", "Sven's new phone number is +46 8 765 432 10."),
        ("Marta (Rua Nova manager) mobile: +351 912 345 678.",
         "Marta's new mobile number is +351 936 111 222."),
    ],
)  # fmt: skip
def test_an_event_that_changes_a_value_still_replaces_it(old: str, new: str) -> None:
    assert update_model.relation(new, old, similar=similarity()).kind == currency.SUPERSEDE
