"""The offline consolidator's currency step: which new notes replace which existing entries.

For each item NREM is about to file (in time order), the existing entries it could replace are
the MEMORY.md entries, the related bank entries of the payload, and the items filed earlier in
the same run. :func:`agent_sleep.analysis.currency.relation` decides; a ``supersede`` becomes a
``memory_md_updates`` item ``{"action": "supersede", "replaces": <id>}`` (a note id for an item
of this run), which the apply path gates like a model's. An item that supersedes something is
not also added: it takes the old entry's place. The embedding model, when installed, only
confirms that two claims with different verbs and change language talk about the same thing.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from agent_sleep.analysis import change_words as cw
from agent_sleep.analysis import currency, lexical, lists, plans, temporal, update_model, vital
from agent_sleep.analysis.claims import claims, lemma, tokens
from agent_sleep.providers import offline_common

log = logging.getLogger(__name__)
_encoder: list[Any] = []
_cache_dir: list[Path] = []  # where the model may keep its ONNX graph: the workspace's
_vectors: dict[str, Any] = {}  # text -> vector, for the process: every sleep run shares it
MAX_VECTORS = 8192


def cache_in(model_dir: Path) -> None:
    """Keep the model's ONNX graph in ``model_dir`` (a workspace's ``.agent-sleep/model``, as
    recall does): a sleep in a new process then loads it instead of building it again."""
    _cache_dir[:] = [model_dir]


def similarity() -> Callable[[str, str], float] | None:
    """Cosine of two short texts with the bundled MiniLM, or None without it (loaded once)."""
    if not _encoder:
        try:
            from agent_sleep.retrieval.embed import load_embedder

            _encoder.append(load_embedder(_cache_dir[0] if _cache_dir else None))
        except Exception as e:  # noqa: BLE001 - any failure only turns the check off
            log.info("currency: no embedding model (%s); lexical checks only", e)
            _encoder.append(None)
    if _encoder[0] is None:
        return None

    def cos(a: str, b: str) -> float:
        return float(_vector(a) @ _vector(b))

    return cos


def _vector(text: str) -> Any:
    if text not in _vectors:
        _embed([text])
    return _vectors[text]


def _embed(texts: list[str]) -> None:
    """Embed ``texts`` in one call of the model (in batches), keeping their vectors; past
    ``MAX_VECTORS`` the oldest kept go first (never those a run has just fetched together)."""
    over = len(_vectors) + len(texts) - MAX_VECTORS
    if over > 0:
        for old in list(_vectors)[:over]:
            del _vectors[old]
    for text, vec in zip(texts, _encoder[0].embed_documents(texts), strict=True):
        _vectors[text] = vec


class Lazy:
    """The similarity function, loaded on first use only (most runs never need it)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.fn: Callable[[str, str], float] | None = None

    def _ready(self) -> bool:
        """Load the model on first use; False (for good) without it."""
        if self.fn is None and self.enabled:
            self.fn = similarity()
            self.enabled = self.fn is not None
        return self.fn is not None

    def __call__(self, a: str, b: str) -> float:
        return self.fn(a, b) if self._ready() and self.fn is not None else 0.0

    def prefetch(self, texts: Iterable[str]) -> None:
        """Embed the texts a run will compare, together: one model call in batches costs a
        fraction of one call per text."""
        wanted = list(dict.fromkeys(t for t in texts if t not in _vectors))
        if wanted and self._ready():
            _embed(wanted)


STRENGTH = {
    "the old value named": 4,
    "a new value": 3,
    "a new version": 3,  # "Python 3.12" for "Python 3.11": a name and its version
    "a switch thrown": 3,  # "Turned on billing.async_invoices" for "… is off"
    "negation": 3,
    "change language": 2,
    "a new one": 2,  # "her new piano teacher, Ms. Brandt"
    "a generic change": 1,
    "said alike": 0,  # the embedding's reading, below every rule's
    "likely update": 0,  # the learned model's (analysis/update_model.py)
}


# the readings of likeness, not of the clause rules: the embedding's and the learned model's
WEAK = frozenset({"said alike", "likely update"})
# readings that say nothing of what changed: read only as alike, or a verb of change alone
UNSAID = WEAK | {"a generic change"}

# verdicts without change language: two such values on one day both stand (the learned model
# is not asked of two notes of one day at all)
IMPLICIT = frozenset({"a new value", "negation"})

# the newest entries an item is compared with: notes that all share their words (a log of
# "deployed X to staging" lines) would otherwise compare every note with every earlier one.
# The currency benchmarks offer at most 133 candidates to an item, so this never binds there
MAX_COMPARED = 256


def supersedes(
    items: Sequence[tuple[str, str, list[str], float, str]],
    memory: Sequence[dict[str, Any]],
    related: Sequence[dict[str, Any]],
    known: frozenset[str],
    similar: Callable[[str, str], float] | None = None,
) -> dict[int, dict[str, Any]]:
    """``{item index: supersede update}`` for ``items`` given as (type, text, sources,
    confidence, date), in time order."""
    targets: list[tuple[str, str, str]] = [
        (str(m["id"]), str(m["text"]), str(m.get("date") or "")) for m in [*memory, *related]
    ]
    # each entry's type: a fact read only as like an opinion never replaces it (below)
    types = {str(m["id"]): str(m.get("type") or "") for m in [*memory, *related]}
    # MEMORY.md's entries before a bank page's copy of one, all else alike
    held = {str(m["id"]) for m in memory}
    shown = {str(m["id"]) for m in related}  # bank entries shown to the run
    out: dict[int, dict[str, Any]] = {}
    common = frequent_names(known, [t for _r, t, _d in targets] + [i[1] for i in items])
    if isinstance(similar, Lazy):  # the texts the run will compare, embedded together
        similar.prefetch([*_compared(items, targets), *_alike_texts(items, targets, known)])
    if len(items) >= offline_common.PROGRESS_EVERY:
        offline_common.say(f"  NREM: currency: {len(items)} items against what they may replace")
    # the entries an item may replace, in order of adding; None once replaced. Only the pairs
    # the index offers can be a supersede (currency.Candidates): the others are not compared
    pool: list[tuple[str, str, str] | None] = []
    index = currency.Candidates(known)
    at: dict[str, list[int]] = {}  # ref -> positions in pool

    def add(target: tuple[str, str, str]) -> None:
        at.setdefault(target[0], []).append(index.add(target[1]))
        pool.append(target)

    for target in targets:
        add(target)
    every = offline_common.PROGRESS_EVERY
    for k, (kind, said, sources, conf, _date) in enumerate(items):
        if k and k % every == 0:
            offline_common.say(f"  NREM: currency checked for {k}/{len(items)} items")
        # a change told as one to come but in force already is read as done ("Communion moves
        # to 10:15am", "tickets will be £9.25 now"); the note is kept as written
        readings = [said] if kind == "S" else plans.readings(said, _date)
        text = readings[0]
        if kind == "S" and recap(text):
            add((sources[0], text, _date))  # a later note may still replace the recap itself
            types[sources[0]] = kind
            continue
        # a standing entry before one that tells what happened (a B entry), for a note that is
        # no such line itself ("Tom Becker has left Northwind" replaces who the main contact
        # is, not "Called Tom at Northwind …"), and before a plan (an S entry: "Afternoon
        # counter is Dmitri now" replaces who covers it, not "Put up a job ad for the
        # afternoon counter"); then the strongest evidence wins (the old value
        # named, then the same verb, then a generic one); among equals the entry most like the
        # new one (currency.likeness: "raised the retry limit" replaces the retry limit, not
        # the connection limit, and a one-fact entry rather than a merged one that holds it
        # among others); then the one that shares most names with it (its owner's); then the
        # newest: an item of this run, then bank, MEMORY.md
        hit: str | None = None
        for text in readings:  # as told, then without a reason after a dash
            hit, best, hit_text = None, (False, False, False, -1, False, -1.0, -1), text
            put_right: dict[str, str] = {}  # each entry the note puts right in place: its new text
            once = update_model.once_instead(text, kind == "B")  # of the note alone: read once
            live = [i for i in reversed(index.of(text)) if pool[i] is not None]
            for i in live[:MAX_COMPARED]:
                entry = pool[i]
                assert entry is not None
                ref, old_text, old_date = entry
                if _date and old_date and _date < old_date:
                    continue  # a note told before the entry (a backdated import) never replaces it
                if kind != "S" and types.get(ref) == "S" and recap(old_text):
                    continue  # a recap tells what stood that week: "Vantis Bank is no longer a
                    # Gold sponsor" rewrites no "Week 1: venue, caterer, … Gold sponsors in place"
                # a new phone number of someone the entry names: the entry with it put right
                number = currency.number_put_right(text, old_text)
                if (
                    number is not None
                    and types.get(ref) != "B"  # "Rang Dave on 07700 900123": the call was on it
                    and not _held_elsewhere(text, ref, live, pool)
                ):
                    rank = (True, True, True, STRENGTH["the old value named"], ref in held, 1.0, 0)
                    put_right[ref] = number
                    if rank > best:
                        hit, best, hit_text = ref, rank, number
                    continue
                if currency.number_of_another(text, old_text):
                    continue  # "The out-of-hours emergency line has a new number" is no new
                    # main practice number
                # the entry put right in place by what the note tells of the one thing it gives
                # (_PUT_RIGHT: a release done, another provider taken on, a day moved), never an
                # entry of a type the reading may not rewrite
                put = next(
                    (
                        (strength, placed, put_right)
                        for put_right, never, strength in _PUT_RIGHT
                        if (placed := put_right(text, old_text)) is not None
                        and (types.get(ref) not in never or _booked(put_right, old_text))
                        and not _told_again_as_done(put_right, kind, text)
                    ),
                    None,
                )
                if (
                    put is not None
                    and put[2] is not currency.correction_put_right  # what was wrong, put right
                    and (
                        _change_kept(put[1], old_text)
                        or update_model.kept_of_the_gone(put[1], old_text, text)
                    )
                ):
                    put = (put[0], text, put[2])  # the note, not a change that never was, nor
                    # the code of the one gone on the one taken on
                if put is not None:
                    # before an entry read otherwise, and among those put right the likeliest:
                    # "The Eden trip has been pushed back to Friday 16 October" moves the trip's
                    # day, not that of its risk assessment, due "for the Eden trip" by 25 September
                    like = 1.0 + currency.likeness(text, old_text, known)
                    shared = currency.shared_names(text, old_text)
                    rank = (True, True, True, STRENGTH[put[0]], ref in held, like, shared)
                    put_right[ref] = put[1]
                    if rank > best:
                        hit, best, hit_text = ref, rank, put[1]
                    continue
                # one item of a list removed or swapped ("We no longer use Memcached" for "We use
                # Redis and Memcached"): the entry rewritten without it replaces the entry
                # (never of an event: "Final walkthrough … with Aisha and Bellwether" keeps who
                # was there when "Bellwether pulled out of weddings")
                edit = lists.edited(text, old_text) if types.get(ref) != "B" else None
                if edit is not None:
                    rank = (
                        types.get(ref) != "B",
                        kind == "S" or types.get(ref) != "S",
                        kind == "O" or types.get(ref) != "O",
                        STRENGTH["the old value named"],
                        ref in held,
                        1.0,
                        currency.shared_names(text, old_text),
                    )
                    if rank > best:
                        hit, best, hit_text = ref, rank, edit.text
                    continue
                placed = None  # the entry with the note's one value put right, when read
                if lists.partial(text, old_text) or lists.about_one_item(text, old_text):
                    placed = currency.in_place(text, old_text, known)
                    # or the one figure it says again put right ("Weekday rehearsals run 7:30pm
                    # to 10pm": the days listed stay)
                    placed = placed or update_model.restated_put_right(text, old_text)
                    if placed is None:
                        continue  # never replaced whole: that would drop the list's other items
                verdict = currency.relation(text, old_text, known, similar)
                apart = verdict.why == "nothing shared"  # the rules found no word in common
                same_day = bool(old_date) and old_date == _date
                if not same_day:  # the model's reading is implicit too; of words in full ("temp")
                    verdict = update_model.last_word(
                        *currency.in_full(text, old_text), verdict, similar, common, known
                    )
                if not same_day and (
                    update_model.holder_left(text, old_text)
                    or update_model.holder_gone(text, old_text)
                ):
                    # "Priya Shah … is my accountant now; Gary has retired" for "Gary Mills … does
                    # Nadia's books and tax return": the one the entry gives the work of is gone
                    verdict = currency.Verdict(currency.SUPERSEDE, "the old value named")
                if (
                    verdict.why in UNSAID
                    and update_model.left_named(text, old_text)
                    or verdict.why == "another owner"
                    and update_model.left_named_of_it(text, old_text)
                    or verdict.why == "an intention, not a fact"
                    and update_model.pulled_out(text, old_text)
                ):
                    # "Rang Hillside Dairy … - we've switched from Greenfields" names the one the
                    # entry gives ("Milk supplier is Greenfields Dairy") as left
                    verdict = currency.Verdict(currency.SUPERSEDE, "the old value named")
                if verdict.why in IMPLICIT and same_day:
                    continue  # two values on the same day without a change word: both stand
                if (
                    types.get(ref) == "B"
                    and kind != "B"
                    and verdict.why in _CHANGED | WEAK
                    and not cw.found(cw.CHANGE_RE, old_text)
                    and not _BOOKED_RE.match(old_text)
                    and not _PUT_RIGHT_RE.search(text)
                ):
                    continue  # what happened stays what happened: "Jay no longer does weekend
                    # jobs" leaves "Shona covered the Pudsey job with Jay" as it was
                if (
                    verdict.why in _CHANGED
                    and update_model.alike_apart(text, old_text) == "a contact where there was none"
                ):
                    continue  # "The box office number is now 01632 960775" is no new ticketing
                    # system of "Box office runs on Ticketsolve"
                if verdict.why in _CHANGED and _corrects_another(text, old_text):
                    continue  # "…: the 2-bed local move is £685, not £695" puts right the
                    # entry that said £695, not "Standard 2-bed local move is £650"
                if once:
                    continue  # what happened once is no standing change: "Aalsmeer Direct
                    # short-delivered: 160 stems instead of 200" keeps the standing order of 200;
                    # a request turned down keeps what was asked to change
                if verdict.why in IMPLICIT and kind == "B" and types.get(ref) == "B":
                    continue  # "Plate reader: final MTT replicate" after "Plate reader: luciferase
                    # assay on HEK293T": two events, each told without a change word
                if verdict.why in WEAK and same_day and currency.number_dropped(text, old_text):
                    continue  # "Key safe code is 8093", then "Changed the key safe code ahead of
                    # the handover": the code that day's entry gives is the new one
                if verdict.why in _ANOTHER_PART and not same_day:
                    # the one part of the entry the note replaces, read on its own ("… uses Xero;
                    # year-end 30 September; payroll runs fortnightly" for "… now runs payroll
                    # monthly"): the rest of the entry stays
                    part = currency.sentence_put_right(
                        text, old_text, known, similar, judge=_held(known, similar)
                    )
                    if part is not None:
                        verdict, placed = (
                            currency.Verdict(currency.SUPERSEDE, "change language"),
                            part,
                        )
                if verdict.kind != currency.SUPERSEDE:
                    continue
                if verdict.why in _CHANGED | WEAK and update_model.money_for_none(text, old_text):
                    continue  # "Ava's ballet is now Saturdays at 11:15am" is no new price of it;
                    # "Early-bird extended by one week, to September 25" none of the tickets
                if (
                    verdict.why in OWNER_ONLY
                    and not update_model.one_thing(text, old_text, known)
                    and not currency.same_class(text, old_text)
                    and not currency.said_anew(text, old_text)
                ):
                    continue  # "The Olive Press wine supplier is now Liberty Wines": not its
                    # address
                if verdict.why == "an ending" and types.get(ref) == "O" and kind != "O":
                    continue  # "Cancelled the minibus booking" ends no view ("Annoying that Hartley
                    # only told us a week before; we'd already booked the minibus")
                if verdict.why in WEAK and types.get(ref) == "O" and kind != "O":
                    continue  # "the standup moved to 9:30" is no newer feeling about Globex
                if (
                    verdict.why in WEAK
                    and cw.found(_MAY_BE_RE, text)
                    and not cw.found(cw.DECIDED_RE, text)
                    and not cw.found(cw.CHANGE_RE, text)
                ):
                    continue  # to a reading of likeness alone, what only might be or holds on a
                    # condition replaces nothing: "If it rains, the Palm House is the backup for
                    # the ceremony", "The Loft floor should be finished by 12 October"
                if verdict.why in WEAK and update_model.day_for_none(text, old_text):
                    continue  # "The Okonkwo install needs a new condensate route" keeps its day
                if verdict.why in WEAK and (
                    update_model.anothers(text, old_text) or lists.none_named(text, old_text)
                ):
                    continue  # "… covering Dr Okafor's sessions" is no new doctor of "the
                    # Monday and Friday sessions"; "Retail stock is ordered from Brookfield"
                    # keeps the brands "we stock"
                if (
                    kind == "B"
                    and types.get(ref) != "B"
                    and update_model.of_someone_unnamed(text, old_text)
                ):
                    continue  # what happened to another, unnamed in the entry, changes none of
                    # it: "Colin Mays rang: Mrs Hebden from the delivery round has moved into a
                    # care home" keeps when the round runs
                if verdict.why in WEAK and update_model.alike_apart(text, old_text):
                    continue  # "Moira Kerr is standing for chair again" loses no mobile number
                if (
                    # (a new one with no name of its own: "training session on the new job app" is
                    # of the app the entry names, "her new piano teacher, Ms. Brandt" is another)
                    (
                        verdict.why in WEAK
                        or (
                            verdict.why == "a new one"
                            and not update_model.names_new(text, old_text)
                        )
                    )
                    and kind == "B"
                    and types.get(ref) != "B"
                    and update_model.event_apart(text, old_text)
                ):
                    continue  # an event told in the past, likened to a fact, is no new state of
                    # it: "Card reader 2 dropped its connection twice" for "Card payments go
                    # through SumUp readers"
                if verdict.why in WEAK and update_model.dates_apart(text, old_text):
                    continue  # "Hollis Mutual need a copy of the first aid certificate by 20
                    # October" is no new start of "… insurer to Hollis Mutual from 1 October"
                # the one value the note names as replaced, put right where the entry holds more
                # than that fact ("port 8443 and its Postgres on 5434": the port stays)
                placed = placed or currency.in_place(text, old_text, known)
                if placed is None:  # "Saturday opening is now 9am-1pm": the Saturday of the list
                    placed = currency.listed_part_put_right(text, old_text)
                if placed is None:  # "… confirmed for 12 November at 7pm": "in November"
                    placed = currency.day_put_right(text, old_text)
                if placed is None:  # "Backup job moved to 01:30": the NAS and where it goes stay
                    placed = currency.clock_put_right(text, old_text)
                if placed is None:  # "… wedding pushed back to 19 June 2027": the venue stays
                    placed = currency.date_put_right(text, old_text)
                if placed is None:  # "… switched to meeting on the first Wednesday": its room stays
                    placed = currency.weekday_put_right(text, old_text)
                if placed is None and verdict.why == "a new version":
                    placed = currency.version_put_right(text, old_text)
                if placed is None and verdict.why == "likely update" and vital.vital(old_text):
                    # the one sentence the note replaces, as the model reads each ("His hypo kit is
                    # kept in T12" of Tom's diabetes entry, for "… kept in the medical room")
                    placed = currency.sentence_put_right(
                        text, old_text, known, similar, judge=_guessed(known, similar, common)
                    )
                if (
                    verdict.why in WEAK
                    and placed is None
                    and update_model.apart_whole(text, old_text)
                ):
                    continue  # a reading of likeness alone replaces nothing whole that the note
                    # does not speak of: "Collection round covers Bramley, …" keeps who drives
                if (
                    verdict.why == "likely update"
                    and placed is None
                    and update_model.street_gone(text, old_text)
                ):
                    continue  # to a reading of likeness alone, no address is replaced by a note
                    # that gives none (a phone number forwarded to the practice at that address)
                if verdict.why in UNSAID and placed is None and _vital_apart(text, old_text):
                    continue  # "is vegetarian" is no newer name or pronouns; "went vegan" may be
                if (
                    verdict.why == "likely update"
                    and vital.vital(old_text)
                    and (
                        vital.terms(text) <= vital.terms(old_text)
                        or apart
                        or _vital_of_another(text, old_text)
                    )
                    and placed is None  # put right in place, the rest of it stays
                ):
                    continue  # the model's guess retires no allergy for a note that says nothing
                    # new of it ("Vueling lets us bring Isla's EpiPens"; "went vegan" does), nor
                    # a condition for a note that shares no word with it (a new drug's dose)
                if (
                    verdict.why in UNSAID
                    and (kind in ("B", "S") or update_model.logged(text))
                    and temporal.ROUTINE_RE.search(old_text)
                    and not temporal.ROUTINE_RE.search(text)
                    and not cw.found(cw.NEW_OF_RE, text)  # "signed off on the new rate: 80 euros"
                    # no change ("again" is once more here: "Grace minded Luca again"; money
                    # raised is money taken: "Uniform sale today raised £64")
                    and not cw.found(cw.CHANGE_RE, _RAISED_RE.sub("", _AGAIN_RE.sub("", text)))
                ):
                    continue  # "Daniel's Saturday visit; they fixed the gate": one time of a
                    # routine
                if (
                    verdict.why in WEAK
                    and kind == "S"
                    and types.get(ref) not in ("S", "")
                    and _TO_DO_RE.match(text)
                ):
                    continue  # "This week: deliver the mini galleries" is no new delivery time
                if (
                    (
                        (kind == "B" and verdict.why in WEAK | _CHANGED)
                        or (kind == "S" and verdict.why == "likely update")
                    )
                    and types.get(ref) not in ("S", "")
                    and currency.number_dropped(text, old_text)
                ):
                    continue  # a summary retells: to a reading of likeness alone, one that gives
                    # no figure puts none out ("End of September: all three projects on track,
                    # Marlow decision slipped" keeps the decision date, "2 October"), nor does an
                    # event ("Updated Kestrel's payroll calendar in Sage" keeps "… on the 25th"),
                    # even one told as a change ("Riverside confirmed their new number is on the
                    # letterheads now" keeps the new number itself)
                if verdict.why in WEAK and kind == "B" and update_model.many_gone(text, old_text):
                    continue  # an event only said alike puts out no entry of many values: "61
                    # harvest supper tickets sold now" keeps the supper's day, hall and price
                if verdict.why in WEAK and types.get(ref) == "B":
                    continue  # "Gym Wednesday: full body circuit": Monday's session happened too
                if (
                    (verdict.why in WEAK or verdict.why == "a new one")
                    and kind == "B"
                    and not update_model.tells_a_change(text, old_text)
                ):
                    continue  # what happened is no standing fact said again: "Van der Berg delivery
                    # in; ordered extra snake plants" keeps the £4.80 wholesale price, "U14s beat
                    # Hartley Town 3-1 in the county cup on Saturday" the tie's date, "Tom did the
                    # Wednesday van run; dropped 40 parcels" who drives it ("went fully vegan", "a
                    # new personal best" do tell a change; "fitted a new cooker circuit" none of a
                    # customer's house; "Reorganised the prep schedule around Dave's new days" none
                    # of his days)
                if verdict.why == "likely update" and not update_model.says_a_value(text, old_text):
                    continue  # to a reading of likeness alone, a note with no value of its own puts
                    # none out ("Renewed the landlord insurance online" keeps the £447 premium)
                if (
                    kind == "O"
                    and types.get(ref) not in ("O", "")
                    and (verdict.why in WEAK or (verdict.why in UNSAID and _BELIEF_RE.search(text)))
                ):
                    continue  # "prefers running in the early morning" is no new weekly distance;
                    # "now believes 4:00 is realistic" no new time of the club's run
                if verdict.why in WEAK and _named_apart(text, old_text, known):
                    continue  # "Cancelled the Glasgow Sunday-night hotel" is no new Manchester
                    # hotel
                if verdict.why in WEAK and update_model.subjects_apart(text, old_text):
                    continue  # "Mrs Penrose's key safe code is 4471" is no new code of Finch's
                if verdict.why in WEAK and currency.name_said_short(text, old_text):
                    continue  # "Fiona confirmed she'll stand again as commodore": still Fiona Blake
                if verdict.why in WEAK and update_model.aimed(text):
                    continue  # "aiming to submit by 14 October" is no new grant deadline
                if verdict.why in WEAK and currency.number_not_held(text, old_text):
                    continue  # "Mira Okafor's mobile is 07700 900231" is no new agent of hers
                if verdict.why in UNSAID and kind == "B" and _denied(text, verdict.new_value):
                    continue  # "Jake on site … today (no college on Wednesdays now)" gives no
                    # new college day
                if verdict.why in UNSAID and update_model.logged_work(text):
                    continue  # "Emailed Sara the updated guest count" gives no guest count
                if verdict.why == "likely update" and update_model.number_for_none(text, old_text):
                    continue  # "Zoom meeting ID for online lessons: 884 2210 5567" is no new tool
                    # of "Online lessons use Miro boards"
                if verdict.why in WEAK and update_model.when_for_none(text, old_text):
                    continue  # "handoffs now happen Wednesdays at 11am" / "shifts are two weeks"
                if verdict.why in UNSAID and _held_elsewhere(text, ref, live, pool):
                    continue  # "Priya asked for Karen's number again: 555-0193" is Karen's entry
                rank = (
                    types.get(ref) != "B",  # a fact before what happened (which stays true)
                    kind == "S" or types.get(ref) != "S",  # ... and before a plan or a summary
                    kind == "O" or types.get(ref) != "O",  # ... and before a view of it
                    STRENGTH.get(verdict.why, 0),
                    ref in held,
                    # an entry that says a word of the note's besides the value it replaces first
                    # ("Ordering Schwalbe tyres from Cyclepoint instead of Ridgeline" replaces
                    # "Schwalbe tyres come from Ridgeline", not "Shimano Deore brake pads from
                    # Ridgeline are £9 a pair"), then the likeliest
                    (
                        _shares_a_word(text, old_text, verdict.old_value)
                        + currency.likeness(text, old_text, known)
                    )
                    / 2,
                    currency.shared_names(text, old_text),
                )
                if rank > best:
                    # or the one sentence of it the note replaces
                    placed = placed or currency.sentence_put_right(text, old_text, known, similar)
                    if placed is None and verdict.why == "likely update":
                        # the model's reading of the whole: of one sentence of it, when one only
                        # ("… Quarterly review with Nadia booked for 14 May." for "Nadia pushed
                        # the review to 21 May": her software and fee stay)
                        guess = _guessed(known, similar, common, False)
                        placed = currency.sentence_put_right(text, old_text, known, similar, guess)
                        if placed is None and _no_part_replaced(text, old_text, guess):
                            continue  # "Tomas Lind's ebook royalty is confirmed at 25% …" says
                            # again one part of "Mira gets 10% of RRP …; Tomas Lind gets 25% …"
                            # and replaces none: the entry stays whole
                        if placed is None and update_model.many_gone(text, old_text):
                            continue  # an entry of several facts, none of them said: "Salt
                            # Orchard ebook ISBN is …" for "The Salt Orchard: hardback, 352 pages,
                            # publication date …; Hardback ISBN …"
                    # what would replace the entry whole puts right the one part of it the note
                    # gives anew ("The box office number is now …": its hours stay)
                    placed = placed or currency.shape_put_right(text, old_text)
                    if placed is None and verdict.why in WEAK:
                        # to a reading of likeness alone, the one part the note shares plain words
                        # with ("Ashdown want the renewal pack … by the end of October" for "…
                        # renews on 30 November; Mark wants the renewal pack ready …"): the day
                        # the contract renews stays
                        placed = currency.sentence_put_right(
                            text, old_text, known, similar, judge=_sharing(known)
                        )
                    if placed == old_text:
                        placed = None  # nothing put right: the note takes the entry's place
                        # ("Kerry's Zumba class is no longer hiring the hall on Tuesdays")
                    if placed is not None and _says_all_but_figures(text, old_text):
                        placed = None  # "AGM is on Wednesday 21 October at 7pm in the school
                        # hall" says all "AGM is on Wednesday 14 October at 7pm" did, and more
                    if placed is not None and _change_kept(placed, old_text):
                        placed = None  # put right, "Hobsons Best going up to £4.80 a pint from
                        # today (2026-09-07)" would tell of a change that never was: the note
                        # takes its place ("Pint of Best is now £4.95 …")
                    hit, best, hit_text = ref, rank, placed or text
            if hit is not None:
                break
        kept = plans.as_said(hit_text, text, said)  # in the note's own words
        if hit is not None:
            # entries sleep held before this run only: not this run's own notes
            before = {r: t for r, t in put_right.items() if r in held or r in shown}
            copies = _copies(hit, hit_text, before, pool, at, types)
            out[k] = {
                "action": "supersede",
                # an entry put right in place stays what it was (a fact, not the event that
                # told its new number), and so does one an event takes the place of: "Signed
                # with Castle Court Hotel today for the hotel block …" is the hotel block's
                # fact now, kept over the size budget as the fact it replaced was
                "type": (types.get(hit) or kind)
                if hit_text != text or (kind == "B" and types.get(hit) == "W")
                else kind,
                "confidence": conf,
                "text": kept,
                "replaces": hit,
                "sources": sources,
            }
            if copies:
                out[k]["copies"] = copies
            for ref in [hit, *copies]:
                for i in at.pop(ref, []):
                    pool[i] = None
        add((sources[0], kept, _date))
        types[sources[0]] = out[k]["type"] if k in out else kind
    return out


def _shares_a_word(new_text: str, old_text: str, gone: str) -> float:
    """1.0 when the two texts share a content word besides the values ``gone`` names, else 0.0."""
    values = {currency.lemma(w) for w in gone.split()}
    return 1.0 if currency._content(new_text) & currency._content(old_text) - values else 0.0


def _copies(
    hit: str,
    hit_text: str,
    put_right: dict[str, str],
    pool: Sequence[tuple[str, str, str] | None],
    at: dict[str, list[int]],
    types: dict[str, str],
) -> dict[str, str]:
    """``{entry id: its text put right}`` for the other entries that hold the value the note
    puts right in ``hit``, put right in place too (a number told twice, "Emma (reception) mobile
    is 07700 900123 - …" and "Emma's mobile is 07700 900123 if reception needs her …", then
    "Emma's mobile is 07700 900456": both carry the new number): each put right by the same
    reading, of the hit's type, the hit's every value gone from it and none left."""
    if hit not in put_right:
        return {}
    old_text = next((e[1] for i in at.get(hit, []) if (e := pool[i]) is not None), "")
    _fresh, gone = currency._values_apart(hit_text, old_text)
    if not gone:
        return {}
    out = {}
    for ref, placed in put_right.items():
        entry = next((e for i in at.get(ref, []) if (e := pool[i]) is not None), None)
        if ref == hit or entry is None or types.get(ref) != types.get(hit):
            continue
        if gone <= currency.strong_words(entry[1]) and not gone & currency.strong_words(placed):
            out[ref] = placed
    return out


def _no_part_replaced(
    text: str, old_text: str, judge: Callable[[str, str], currency.Verdict]
) -> bool:
    """Whether the note says one part of an entry of several (sentences, or parts between
    ";") again, every value of it, and ``judge`` reads it as replacing none: the model's
    reading of the whole then retires nothing."""
    parts = lexical.sentences(old_text)
    if len(parts) < 2:
        parts = re.split(r";\s+", old_text.strip())
    return (
        len(parts) >= 2
        and any(_said_again(text, p) for p in parts)
        and all(judge(text, p).kind != currency.SUPERSEDE for p in parts)
    )


def _said_again(text: str, part: str) -> bool:
    """Whether ``text`` says every value ``part`` gives, one at least (a name with a
    possessive too)."""
    fresh, gone = currency._values_apart(text, part)
    return bool(currency.strong_words(part)) and gone <= {lexical.unpossessed(v) for v in fresh}


# a day's or a month's name, or its short form: "Sunday-night", "Oct"
_DAY_WORDS = frozenset(
    [*temporal.WEEKDAYS, *temporal.MONTHS, *(w[:3] for w in (*temporal.WEEKDAYS, *temporal.MONTHS))]
)


def _named_apart(new: str, old: str, known: frozenset[str]) -> bool:
    """Whether a word both texts say in lower case ("hotel") is, in each, a named one's, each
    named by a name the other text never says ("the Glasgow Sunday-night hotel", "Manchester
    hotel is the Ibis Styles"): two things of one kind. A word opening a sentence is a name
    only among ``known`` ("Summary: standup moved" names no standup)."""
    names = {n.lower() for n in known}

    def bare(word: str) -> str:  # "Maya's" is Maya
        return re.sub(r"['’]s$", "", word.lower())

    def words(text: str) -> list[tuple[str, bool]]:  # each word, and whether it opens
        return [
            (m.group(0), not text[: m.start()].strip() or text[: m.start()].rstrip()[-1] in ".:;!?")
            for m in re.finditer(r"[\w'’-]+", text)
        ]

    def namers(told: list[tuple[str, bool]], word: str) -> set[str]:
        """The names written right before ``word`` ("the Glasgow Sunday-night hotel")."""
        out: set[str] = set()
        for k, (t, _opens) in enumerate(told):
            if t != word:
                continue
            j = k - 1
            while j >= 0 and told[j][0][:1].isupper():
                w, opens = told[j]
                if (
                    (not opens or bare(w) in names)
                    and w.lower() not in cw.STOP
                    and w.lower().split("-")[0] not in _DAY_WORDS
                ):
                    out.add(bare(w))
                j -= 1
        return out

    told_new, told_old = words(new), words(old)
    said_new, said_old = {bare(t) for t, _ in told_new}, {bare(t) for t, _ in told_old}
    shared = {t for t, _ in told_new if t.islower() and t not in cw.STOP} & {
        t for t, _ in told_old if t.islower()
    }
    for word in shared:
        a, b = namers(told_new, word), namers(told_old, word)
        if a and b and not a & said_old and not b & said_new:
            return True
    return False


_DENIED_RE = re.compile(r"\b(?:no|not|never|without)\s+(?:[\w'’-]+\s+){0,3}$", re.I)


def _denied(text: str, values: str) -> bool:
    """Whether each of ``values`` (a verdict's new value, words apart) is said in ``text`` only
    a few words after "no", "not", "never" or "without": a value denied is none given."""
    words = values.split()
    if not words:
        return False
    for word in words:
        spots = [m.start() for m in re.finditer(rf"\b{re.escape(word)}\b", text, re.I)]
        if not spots or not all(_DENIED_RE.search(text, 0, at) for at in spots):
            return False
    return True


# how a change was told, which no later value keeps: from when, by how it went ("instead of
# the Premier Inn" still holds of the hotel after the next)
_TOLD_CHANGE_RE = re.compile(
    r"\b(?:(?:going|goes|gone|went) (?:up|down) to|from (?:today|tomorrow|now on)|as of today)\b",
    re.I,
)


def _change_kept(placed: str, old: str) -> bool:
    """Whether an entry of one part, put right, still tells the change it was told as: from
    when, or that it went up ("Hobsons Best going up to £4.80 a pint from today"), which its
    new value never started from nor went up to; or why it moved."""
    if re.search(r";\s|[.!?]\s+[A-Z]", old.strip().rstrip(".")):
        return False  # an entry of parts: the others stay, put right in place
    if _MOVED_WHY_RE.search(old):
        return True  # "Whitby trip pushed back a week to Thursday 1 October - the minibus
        # needs a new tyre": the last move's reason is none of the next one's
    return any(m.group(0).lower() in placed.lower() for m in _TOLD_CHANGE_RE.finditer(old))


# a move told with its reason after it
_MOVED_WHY_RE = re.compile(
    r"\b(?:(?:pushed|put|moved) back|brought forward|moved|postponed|rescheduled)\b[^.;]*?"
    r"(?:\s[-–—]\s|\s(?:because|as|since|due to)\s)",
    re.I,
)


def _says_all_but_figures(new: str, old: str) -> bool:
    """Whether every word of ``old`` but its figures is a word of ``new``."""
    said = {t.lower() for t in tokens(new)}
    return all(t.lower() in said for t in tokens(old) if not any(ch.isdigit() for ch in t))


# what puts an entry right in place, the types of entry it never rewrites (what happened stays
# as told; a provider only of a standing fact) and the strength of its reading: a release of
# the one service the entry gives a release of, done ("Rolled out checkout-api v4.13.2 to
# production at 11:40; canary was clean"); another provider taken on for what the entry says
# of, told as what happened ("Signed with Medequip Vet Engineering today - they take over all
# our equipment servicing"); a day moved of what the entry gives the day of, named as the entry
# names it ("Kitchen fitting pushed back to 26 October"); a correction's value of the one
# thing it names ("Correction: our flight is TP1337"); and, of standing facts only, a move to
# another numbered place ("moved us to pitch 22"), a day said again ("Autoclave validation
# booked for 30 September"), a day now due (an event's entry too), a value said again after
# the same subject, and a role's new holder
_PUT_RIGHT: tuple[tuple[Callable[[str, str], str | None], tuple[str, ...], str], ...] = (
    (currency.correction_put_right, ("B",), "the old value named"),
    (currency.release_put_right, ("B",), "a new version"),
    (currency.provider_put_right, ("B", "S"), "a new one"),
    (currency.moved_day_put_right, ("B",), "the old value named"),
    (currency.moved_clock_put_right, ("B", "S", "O"), "a new value"),
    (currency.moved_place_put_right, ("B",), "the old value named"),
    (currency.email_put_right, ("B",), "the old value named"),
    (currency.numbered_place_put_right, ("B", "S", "O"), "the old value named"),
    (currency.venue_put_right, ("B", "S", "O"), "a new value"),
    (currency.restated_day_put_right, ("B", "S", "O"), "a new value"),
    (currency.restated_slot_put_right, ("B", "S", "O"), "a new value"),
    (currency.restated_clock_put_right, ("B", "S", "O"), "a new value"),
    (currency.named_swap_put_right, ("B", "S"), "the old value named"),
    (currency.price_moved_put_right, ("B", "S", "O"), "a new value"),
    (currency.priced_part_put_right, ("B", "S", "O"), "a new value"),
    (currency.now_amount_put_right, ("B", "S", "O"), "a new value"),
    (currency.tally_put_right, ("B", "S", "O"), "a new value"),
    (currency.listed_part_put_right, ("B", "S", "O"), "a new value"),
    (update_model.address_moved_put_right, ("B", "S", "O"), "a new value"),
    (currency.due_day_put_right, ("S", "O"), "the old value named"),
    (update_model.same_subject_put_right, ("B", "S", "O"), "a new value"),
    (currency.role_holder_put_right, ("B", "S", "O"), "a new value"),
)


# an event that books a day to come: "Booked the mayor for a live interview … on Wednesday 16
# September"
_BOOKED_RE = re.compile(
    r"^\s*(?:Booked|Scheduled|Arranged|Fixed|Set up|Confirmed)\b"
    # "Mrs Owens confirmed the Hartley-Owens wedding for Saturday 17 October"
    r"|^[^.;]*?\b(?:booked|scheduled|arranged|confirmed)\b[^.;]*?\b(?:for|on)\s+\w"
)


def _told_again_as_done(put_right: Callable[[str, str], str | None], kind: str, text: str) -> bool:
    """Whether an event says a value again only as what was done that time, no change: "Payroll
    timesheets in by 11:30" puts no new time on "Payroll needs our timesheets by Wednesday
    12:00" (a time, a day or a figure said again, with no word of change)."""
    return (
        kind == "B"
        and put_right in _RESTATED
        and not cw.found(cw.CHANGE_RE, text)
        and not re.search(r"\bnow\b", text, re.I)
    )


def _booked(put_right: Callable[[str, str], str | None], old_text: str) -> bool:
    """Whether an event's day may be moved: the event books it ("Booked the mayor … on
    Wednesday 16 September", then "Mayor interview moved: Tuesday 22 September"), and the
    reading is of a day moved."""
    return put_right is currency.moved_day_put_right and bool(_BOOKED_RE.match(old_text))


# the readings of a value said again, with nothing else new
_RESTATED = (
    currency.restated_day_put_right,
    currency.restated_slot_put_right,
    currency.restated_clock_put_right,
)


# the rules' readings of a change that say nothing of what went
_CHANGED = frozenset({"change language", "a generic change"})


def _corrects_another(text: str, old_text: str) -> bool:
    """Whether a correction's ", not A" names an amount of money the older text does not say,
    where it says another: the amount corrected is another entry's."""
    wrong = {m.group(0) for t in currency._not_tails(text) for m in currency.MONEY_RE.finditer(t)}
    said = {m.group(0) for m in currency.MONEY_RE.finditer(old_text)}
    return bool(wrong) and bool(said) and not wrong & said


# a note that puts right what was told wrong: "Correction: …", "I had their date wrong", "…,
# not the 14th"
_PUT_RIGHT_RE = re.compile(
    r"\b(?:correction|corrected|wrong|mistake|misread|typo|actually)\b|,\s*not\s+\S", re.I
)

# the rules' readings of a whole entry that one part of it may not share: "another attribute"
_ANOTHER_PART = frozenset(
    {"another attribute", "another attribute or value kind", "another relation"}
)


def _held(
    known: frozenset[str], similar: Callable[[str, str], float] | None
) -> Callable[[str, str], currency.Verdict]:
    """The rules' verdict on a note and a part of an entry, where a reading of likeness alone
    loses nothing for nothing (:func:`update_model.alike_apart`): "Studio 2 hire is now £30 an
    hour" replaces no "Studio 1 is the on-air studio upstairs"."""

    def read(new: str, old: str) -> currency.Verdict:
        verdict = currency.relation(new, old, known, similar)
        if verdict.why in WEAK and update_model.alike_apart(new, old):
            return currency.Verdict(currency.OTHER, "alike apart")
        return verdict

    return read


# what holds on a condition or is only expected: "If it rains, …", "should be finished by …"
_MAY_BE_RE = re.compile(
    r"\b(?:if|unless|in case|might|could|possibly|probably|hopefully)\b"
    r"|\bshould\s+(?:be\s+)?(?:finished|done|ready|complete|completed|back|fixed|sorted|arrive"
    r"|arriving|delivered|here)\b",
    re.I,
)


def _sharing(known: frozenset[str]) -> Callable[[str, str], currency.Verdict]:
    """A part of an entry read as replaced by a note where they share a plain word, no name:
    for :func:`currency.sentence_put_right`, which takes the one part that does."""

    def read(new: str, old: str) -> currency.Verdict:
        plain = {w for w in _plain_words(new) if w not in known}
        if plain & _plain_words(old):
            return currency.Verdict(currency.SUPERSEDE, "likely update")
        return currency.Verdict(currency.OTHER, "nothing shared")

    return read


def _plain_words(text: str) -> set[str]:
    """The lemmas of the words of ``text`` in lower case, light words and numbers aside (no
    name: "Ashdown" is who the entry is of, in each part)."""
    return {lemma(t) for t in tokens(text) if t.islower() and t.isalpha() and t not in cw.STOP}


def _guessed(
    known: frozenset[str],
    similar: Callable[[str, str], float] | None,
    common: frozenset[str],
    same_verb: bool = True,
) -> Callable[[str, str], currency.Verdict]:
    """The verdict on a note and a sentence of an entry: the rules', then the learned model's
    word; with ``same_verb`` (a vital entry's sentences) only where the two say one thing of it
    ("is kept in": the same verb; not "Vueling lets us bring Isla's EpiPens" for "She carries
    two EpiPens")."""

    def read(new: str, old: str) -> currency.Verdict:
        verdict = currency.relation(new, old, known, similar)
        if verdict.kind == currency.SUPERSEDE:
            return verdict
        heads = {c.head for c in claims(new, known)} & {c.head for c in claims(old, known)}
        if same_verb and not heads - {"be", "have"}:
            return verdict
        return update_model.last_word(new, old, verdict, similar, common, known)

    return read


_AGAIN_RE = re.compile(r"\bagain\b", re.I)
_RAISED_RE = re.compile(r"\braised\s+(?:over\s+|about\s+)?[£$€]\d[\d,.]*(?!\s*(?:to|from)\b)", re.I)
# a view held, not a value: "now believes 4:00 is realistic", "thinks the venue is too small"
_BELIEF_RE = re.compile(
    r"\b(?:believes?|believed|thinks?|thought|suspects?|suspected|feels?|felt|reckons?|"
    r"doubts?|guess(?:es)?|worries|worried|hopes?|expects?)\b",
    re.I,
)
# a recap's parts: "Week summary: printer switched to CPI, run up to 4,500, launch moved to
# Daunt" (", " or "; " between them; "4,500" is one number)
_PART_END_RE = re.compile(r"[,;]\s+(?:and\s+)?|\s+and\s+(?=[^,;]*[,;])")
# a recap's own label: of a span of time ("Week 4:", "Today:", "Sprint 12 review:") or saying
# what it is ("Week summary:", "Friday wrap-up:", "Highlights:")
_RECAP_LABEL_RE = re.compile(
    r"\s*(?:(?:(?:this|last|past)\s+)?(?:week(?:ly)?|day|daily|month(?:ly)?|sprint|session|"
    r"today|yesterday|eod|end of (?:the )?(?:day|week))\b[^:.;!?]{0,25}"
    r"|[^:.;!?]{0,25}\b(?:summary|summaries|recap|wrap-?up|round-?up|digest|highlights|"
    r"review|retro(?:spective)?)\b[^:.;!?]{0,15}):\s",
    re.I,
)
RECAP_PARTS = 3


@functools.lru_cache(maxsize=1 << 12)
def recap(text: str) -> bool:
    """Whether a summary note (an S note) tells of several things at once: in
    ``RECAP_PARTS`` parts or more, under a recap's label or with a change in two parts. It
    replaces no entry: each thing it names was told on its own, with what it holds in full
    ("CPI Antony Rowe", not "CPI"), and a part that shares a word with an entry is no new
    value of it ("2027 rents confirmed" is no new half-plot rent). Cached: asked of an entry
    once per note compared with it."""
    label = _RECAP_LABEL_RE.match(text) or currency.LEAD_LABEL_RE.match(text)
    body = text[label.end() :] if label else text
    parts = [p for p in _PART_END_RE.split(body.strip().rstrip(".")) if p.strip()]
    if len(parts) < RECAP_PARTS:
        return False
    if label is not None and label.re is _RECAP_LABEL_RE:
        return True
    return sum(cw.found(cw.CHANGE_RE, p) for p in parts) >= 2


# a plan's own label: "This week: …", "Tomorrow: …", "To do: …", "Next steps: …"
_TO_DO_RE = re.compile(
    r"\s*(?:(?:this|next) (?:week|month|weekend)|today|tomorrow|to-?do|next steps?|plan)\b"
    r"[^:\n]{0,30}:",
    re.I,
)


def _held_elsewhere(
    text: str, ref: str, live: Sequence[int], pool: Sequence[tuple[str, str, str] | None]
) -> bool:
    """Whether the contact details ``text`` gives (a phone number, an email address) all stand
    in another entry than ``ref`` among ``live``: the note says that entry again, and,
    read only as alike, replaces no other ("asked for Karen's number again: 555-0193" is not
    the contractor's line with his own number)."""
    # a phone number or an email address is one person's or one firm's; a port, a time or a
    # size is in many entries ("250" of two services' batch sizes)
    told = {
        v
        for v in currency.strong_words(cw.RESOLVED_RE.sub("", text))
        if (sum(ch.isdigit() for ch in v) >= 7 and not _ISO_DAY_RE.fullmatch(v))
        or ("@" in v and "." in v)
    }  # not a day ("2026-09-21"): the week two notes both say is no one's number
    if not told:
        return False
    for i in live:
        entry = pool[i]
        if entry is None or entry[0] == ref:
            continue
        said = currency.strong_words(entry[1])
        if told <= said:
            return True
    return False


_ISO_DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_VITAL_CLAUSE_RE = re.compile(r"[.;:]\s+|,?\s+and\s+|,\s+")
_NAME_RE = re.compile(r"\b[A-Z][a-z]+\b")


def _names_in(text: str) -> set[str]:
    """Capitalised words of ``text`` that are no day or month: who it names."""
    return {
        w for w in _NAME_RE.findall(text)
        if w.lower() not in temporal.WEEKDAYS and w.lower() not in temporal.MONTHS
    }  # fmt: skip


def _vital_of_another(new: str, old: str) -> bool:
    """Whether what ``new`` says that a session must not miss is said of someone else than the
    person ``old`` names: "confirmed a nut-free menu for Isla and fish instead of chicken for
    Noah" says Isla's diet, not that Noah is no longer pescatarian."""
    said_of: set[str] = set()
    for clause in _VITAL_CLAUSE_RE.split(new):
        if vital.vital(clause):
            said_of |= _names_in(clause)
    named = _names_in(old)
    return bool(said_of) and bool(named) and not said_of & named


def _vital_apart(new: str, old: str) -> bool:
    """Whether ``old`` says what a session must not miss (a name, a diet, a condition) and
    ``new`` says nothing of that kind: read only as alike, it replaces none of it."""
    said = vital.kinds(old)
    return bool(said) and not said & vital.kinds(new)


# readings that may rest on the owner alone: two notes of one restaurant, one person or one
# client replace each other only when they also share the thing they say of it, or an
# attribute class ("lives on Elmwood Avenue" / "moved to a flat on Harbour Street")
OWNER_ONLY = frozenset({"a generic change", "change language", "a new value", "said alike"})

COMMON_SHARE = 0.2  # a name in this share of the texts (and 3 at least) is who they are about


def frequent_names(known: frozenset[str], texts: Sequence[str]) -> frozenset[str]:
    """The names of ``known`` that ``texts`` (the entries and the new items of a run) say often:
    at least 3 times and in :data:`COMMON_SHARE` of them. Who the notes are about (the user,
    the team lead) is in many; a product or a shop ("SQLAlchemy", "Forno Rossi") is in few,
    and two notes about it that share only its name may still be an update."""
    if not known or not texts:
        return frozenset()
    floor = max(3, COMMON_SHARE * len(texts))
    counts: dict[str, int] = {}
    for text in texts:
        for word in set(re.findall(r"[^\W\d_]+", text.casefold())):
            counts[word] = counts.get(word, 0) + 1
    return frozenset(n for n in known if counts.get(n.casefold(), 0) >= floor)


def _compared(
    items: Sequence[tuple[str, str, list[str], float, str]], targets: list[tuple[str, str, str]]
) -> list[str]:
    """The texts the learned model will compare (each with its masked frame): every item
    against every existing entry and every earlier item of another day it is asked about."""
    out: list[str] = []
    # two notes of one day are never compared by the model; the texts go out day by day (in
    # order of each day's first text), each day's in order of adding
    days: dict[str, int] = {}
    seen: list[tuple[int, int, str, str]] = []  # (day's rank, position, day, text)
    index = currency.Candidates(keyed=False)  # the model reads notes sharing a content word

    def add(text: str, date: str) -> None:
        day = date or "?"
        seen.append((days.setdefault(day, len(days)), index.add(text), day, text))

    for _ref, old_text, old_date in targets:
        add(old_text, old_date)
    for _kind, text, _sources, _conf, date in items:
        newest = sorted(index.sharing(text))[-MAX_COMPARED:]  # as supersedes compares them
        for _rank, _at, day, old in sorted(seen[i] for i in newest):
            if (day != date or day == "?") and update_model.asked(text, old):
                out += [text, old]
        add(text, date)
    texts = list(dict.fromkeys(out))  # what prefetch embeds, in the same order
    return [*texts, *(currency._masked_text(t) for t in texts)]


def _alike_texts(
    items: Sequence[tuple[str, str, list[str], float, str]],
    targets: list[tuple[str, str, str]],
    known: frozenset[str],
) -> list[str]:
    """The masked texts "said alike" (``currency._said_alike``) may compare: each item that
    states a change against the newest ``MAX_COMPARED`` earlier texts that are no chat turn
    and pass its checks. Each such item is offered every earlier note (``Candidates.of``), so
    these are the pairs :func:`supersedes` may ask about, and more: an entry replaced during
    the run stays here, and the relation may be read before the embedding is asked. A text
    left out is embedded when asked, alone."""
    out: list[str] = []
    earlier = [text for _ref, text, _date in targets if not currency._chat(text)]
    for _kind, text, _sources, _conf, _date in items:
        if currency._states_a_change(text):
            for old in reversed(earlier[-MAX_COMPARED:]):
                if currency._alike_asked(text, old, known):
                    out += [text, old]
        if not currency._chat(text):
            earlier.append(text)
    return [currency._masked_text(t) for t in dict.fromkeys(out)]


def differ(a: str, b: str, known: frozenset[str]) -> bool:
    """Near-duplicates that disagree on a value are not merged."""
    return currency.values_differ(a, b, known)
