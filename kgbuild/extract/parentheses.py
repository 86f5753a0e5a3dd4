"""Life dates in a parenthesis after a name: "(born 1950)", "(died after 938)",
"(1204 – 12 April 1237)", "(née Ralston, born 1929)": birth and death facts and birth names; and a
work's year: "Batman Begins (2005)"."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from kgbuild.extract.arguments import is_hyphen
from kgbuild.extract.chunk_state import ChunkState
from kgbuild.extract.facts import PROPN, EventFact, Mention
from kgbuild.extract.names import BARE_YEAR, date_preposition
from kgbuild.extract.typehints import class_hint
from kgbuild.extract.vocab import DASHES, NAME_TITLES, PROPER_TAGS

if TYPE_CHECKING:
    from spacy.tokens import Doc


def parenthesis(state: ChunkState, open_i: int) -> None:
    """Life dates after a name: "(born 1950)", "(died after 938)", "(1204 – 12 April 1237)",
    "(18 February 1929, Trabzon – 21 September 1989, Istanbul)"."""
    doc = state.doc
    limit = min(len(doc), open_i + 40)
    close = next((k for k in range(open_i + 1, limit) if doc[k].text == ")"), None)
    if close is None:
        return
    owner: Mention | None = None
    start = open_i + 1
    for k in range(open_i + 1, close + 1):
        if k < close and doc[k].text != ";":
            continue
        if start < k and _other_names(state, open_i, start, k):
            start = k + 1
            continue
        if start < k:
            for verb, part_start, part_end in _life_parts(state, start, k):
                date, date_prep, place, place_prep = _date_and_place(state, part_start, part_end)
                if date is None and place is None:
                    continue
                owner = owner or parenthesis_owner(state, open_i)
                if owner is None:
                    return
                _life_fact(state, owner, verb, date, date_prep, place, place_prep)
        start = k + 1


def _life_parts(state: ChunkState, start: int, end: int) -> list[tuple[str, int, int]]:
    doc = state.doc
    first = doc[start].lower_
    if start + 1 < end and (first in ("née", "nee") or (first == "born" and _names_someone(state, start + 1))):
        # "(née Ralston, born August 23, 1929)", "(born Giuseppe Michele Stella, June 13, 1877
        # – November 5, 1946)": a birth name, then the rest of the parenthesis.
        comma = next((k for k in range(start + 1, end) if doc[k].text == ","), end)
        _birth_name(state, start + 1, comma)
        return _life_parts(state, comma + 1, end) if comma + 1 < end else []
    if first in ("born", "b."):
        return [("born", start + 1, end)]
    if first in ("died", "d."):
        return [("die", start + 1, end)]
    head = doc[start]
    starts_with_date = (
        head.text in DASHES
        or head.lower_ in ("c.", "ca.", "circa")
        or (state.tok2m[start] is not None and state.tok2m[start].is_date)  # type: ignore[union-attr]
        or (head.text.isdigit() and 3 <= len(head.text) <= 4)
    )
    if not starts_with_date:
        return []  # "(German: Friedrich I.)", "(PKK)"
    dash = next((k for k in range(start, end) if doc[k].text in DASHES), None)
    if dash is None:
        return []  # a lone date may be anything: a release, a reign, a founding
    return [("born", start, dash), ("die", dash + 1, end)]


# Words that open another name of the parenthesis' owner: "La Luna (or LaLuna)", "(formerly "X")", "(also known as Y)".
_OTHER_NAME_WORDS = frozenset({"or", "also", "formerly", "aka", "a.k.a.", "known", "called", "originally"})
# Participles that say the name after them is another of the owner's, through a few lowercase words up to "as"/"to":
# "They Flew Alone (released in the US as "Wings and the Woman")", "Samuel Adams (often shortened to Sam Adams)",
# "Fred (nicknamed Fredzilla)", "Wrigley Field (then called Cubs Park)".
_RENAMING_WORDS = frozenset({"released", "published", "shortened", "nicknamed", "renamed", "retitled", "marketed",
                             "billed", "styled", "then", "later", "often", "sometimes", "commonly", "usually"})
_RENAMING_ENDS = frozenset({"as", "to", "called", "named", "nicknamed", "known"})
# Lowercase labels before a colon that give another name: "(translation: "The Seedling")", "(American title: The
# Littlest Horse Thieves)", "(literally: "Electronic Game Software")"; a capitalised label is a language ("Danish:").
_NAME_LABELS = frozenset({"title", "translation", "literally", "lit.", "name", "names"})


def _other_names(state: ChunkState, open_i: int, start: int, end: int) -> bool:
    """Other names of the owner in one ";" part of its parenthesis, which may hold several, each after its
    language label and a comma (issue 23, eleventh session): 'Ostrava (Polish: "Ostrawa", German: "Ostrau" or
    "Mährisch Ostrau")', "NOWa (Polish: Niezależna Oficyna Wydawnicza NOWa, meaning "new")". The part after a
    comma that is no other name ("meaning ...") is left alone; the first piece decides."""
    doc = state.doc
    commas = [j for j in range(start, end) if doc[j].text == ","]
    if not commas or not _label_end(doc, start, end):
        return _other_name(state, open_i, start, end)
    pieces = list(zip([start, *(c + 1 for c in commas)], [*commas, end], strict=True))
    if not _other_name(state, open_i, *pieces[0]):
        return False
    for piece_start, piece_end in pieces[1:]:
        if _label_end(doc, piece_start, piece_end):
            _other_name(state, open_i, piece_start, piece_end)
    return True


def _label_end(doc: Doc, start: int, end: int) -> int | None:
    """The index after a language label ("Danish:", "Old Welsh:") opening doc[start:end], or None."""
    colon = next((j for j in range(start, min(end, start + 3)) if doc[j].text == ":"), None)
    if colon is not None and colon > start and all(doc[j].text[:1].isupper() for j in range(start, colon)):
        return colon + 1
    return None


def _other_name(state: ChunkState, open_i: int, start: int, end: int) -> bool:
    """Another name of the owner in one part of its parenthesis: "La Luna (or LaLuna)", "The Danish Music Museum
    (Danish: "Musikmuseet"; formerly "Musikhistorisk Museum")", "(also known as X)": an alias of the owner, not
    an entity of its own. A language label is one or two capitalised words and a colon."""
    doc = state.doc
    k = start
    colon = next((j for j in range(start, min(end, start + 3)) if doc[j].text == ":"), None)
    if colon is not None and colon > start and (all(doc[j].text[:1].isupper() for j in range(start, colon)) or (
            doc[colon - 1].lower_ in _NAME_LABELS)):
        k = colon + 1  # "Danish:", "Old Welsh:", "American title:", "translation:"
    elif doc[start].lower_ in _RENAMING_WORDS:
        # "released in the US as", "often shortened to", "nicknamed": lowercase words up to the word that names
        ends = [j for j in range(start, min(end, start + 6)) if doc[j].lower_ in _RENAMING_ENDS
                and all(t.is_lower or t.text in ("US", "UK", "U.S.", "U.K.") for t in doc[start : j + 1])]
        if not ends:
            return False
        k = ends[0] + 1
    else:
        while k < end and doc[k].lower_ in _OTHER_NAME_WORDS | {"as"}:
            k += 1
        if k == start:
            return False
    names = list(dict.fromkeys(m for m in (state.tok2m[j] for j in range(k, end)) if m is not None and not m.is_date))
    if not names or names[0].start > k + 1 or names[-1].end < end - 1:
        return False  # the part must be the name and nothing else ('or "LaLuna"', not "or 1073")
    if len(names) > 1 and not all(doc[j].lower_ in ("or", '"', "``", "''", "\u201c", "\u201d")
                                  for a, b in pairwise(names) for j in range(a.end, b.start)):
        return False  # several names only as alternatives: 'German: "Ostrau" or "Mährisch Ostrau"'
    owner = parenthesis_owner(state, open_i)
    if owner is None or owner in names or owner.is_date:
        return False
    for name in names:
        if name.name not in owner.aliases:
            owner.aliases.append(name.name)
        state.aliased.add(id(name))
    return True


def _names_someone(state: ChunkState, i: int) -> bool:
    """Whether token i starts a name ("born Giuseppe ..."), not a date ("born May 27")."""
    mention = state.tok2m[i]
    if mention is not None:
        return not mention.is_date
    return state.doc[i].tag_ in PROPER_TAGS and not state.doc[i + 1 : i + 2].text[:1].isdigit()


def _birth_name(state: ChunkState, start: int, end: int) -> None:
    """Record "née X" / "born X" as an alias of the parenthesis' owner."""
    names = [m for m in (state.named(state.doc[k]) for k in range(start, end)) if m is not None]
    open_i = state.paren_of[start]
    owner = parenthesis_owner(state, open_i) if names and open_i >= 0 else None
    if owner is None or names[0] is owner:
        return
    if names[0].name not in owner.aliases:
        owner.aliases.append(names[0].name)
    state.aliased.add(id(names[0]))


def _date_and_place(state: ChunkState, start: int, end: int) -> tuple[Mention | None, str, Mention | None, str]:
    doc = state.doc
    date: Mention | None = None
    date_prep = ""
    place: Mention | None = None
    place_prep = "in"
    for k in range(start, end):
        mention = state.tok2m[k]
        if mention is None and date is None and doc[k].like_num:
            mention = state.year(doc[k])
        if mention is None and doc[k].tag_ in PROPER_TAGS:
            mention = state.proper(doc[k])
        if mention is None or mention in (date, place):
            continue
        prev = doc[mention.start - 1]
        if mention.is_date:
            if date is None:
                date = mention
                date_prep = prev.lower_ if prev.tag_ == "IN" else date_preposition(mention.name)
        elif place is None and (mention.is_place or prev.lower_ in ("in", "at", ",")) and mention.label != "PERSON":
            place = mention
            place_prep = prev.lower_ if prev.lower_ in ("in", "at", "near") else "in"
    if place is not None and not place.is_place and not place.class_fixed:
        place.label = "GPE"  # "(18 February 1929, Trabzon – ...)": a place, whatever NER said
        place.spg_class = state.classes.place
    return date, date_prep, place, place_prep


# A name after these and before a parenthesis of years is where someone was, not whose life it dates.
_TENURE_PREPS = frozenset({"at", "in", "for", "from", "to", "with", "on"})


def parenthesis_owner(state: ChunkState, open_i: int) -> Mention | None:
    """Whose life the parenthesis dates.

    In a passage's first sentence it is the name the sentence opens with (the article's
    subject), even when a title stands between: "Richard Colley Wesley, 1st Baron Mornington
    (– 31 January 1758)". Elsewhere it is the name right before the parenthesis.
    """
    doc = state.doc
    if state.sent_index[open_i] == 0 and open_i < doc[open_i].sent.root.i:
        # (before the verb: "X has served at Ripon College (1989–1990)" dates no life)
        k = state.sent_bounds[0][0]
        while k < open_i and (doc[k].lower_ in NAME_TITLES or is_hyphen(doc[k])) and state.tok2m[k] is None:
            k += 1  # "Major-General Charles John Sackville-West"
        mention = state.tok2m[k] if k < open_i else None
        if mention is not None and not mention.is_date:
            return mention
        if mention is None and k < open_i and doc[k].tag_ in PROPER_TAGS:
            while k + 1 < open_i and doc[k + 1].tag_ in PROPER_TAGS and state.tok2m[k + 1] is None:
                k += 1
            opener = state.proper(doc[k])
            if opener is not None:
                return opener
    before = state.named(doc[open_i - 1]) if open_i > 0 else None
    if before is not None and (before.spg_class == state.classes.person or before.label == PROPN):
        head = doc[before.end - 1]
        while head.dep_ in ("conj", "appos", "compound") and head.head.i != head.i:
            head = head.head  # a list's later member: where the list hangs decides
        if head.dep_ == "pobj" and head.head.lower_ in _TENURE_PREPS:
            return None  # "head coach at ... Eau Claire (1996–1998)": a tenure at a place, not a life
        return before
    return None


def _life_fact(
    state: ChunkState, owner: Mention, verb: str, date: Mention | None, date_prep: str, place: Mention | None,
    place_prep: str,
) -> None:
    owner.guess_class(state.classes.person)  # born and died: a person, unless defined otherwise
    if place is not None:
        state.birthplaces.add(id(place))
    if state.doc[owner.end - 1].dep_ not in ("dobj", "pobj", "conj", "appos"):
        # "Hassan Al-Qeed (born 1998), he is ...": the owner stands as a subject; not an object's life dates
        # ("He married Anne Bolterton (died circa 3 October 1683). ... he succeeded": still the first "he")
        state.person_subjects.append((owner.start, owner))
    if place is not None:
        state.triple(owner, f"{verb} {place_prep}", place, [(date_prep, date)] if date is not None else [])
    elif date is not None:
        state.triple(owner, f"{verb} {date_prep}", date, [])
    for mention in (owner, date, place):
        if mention is not None:
            state.use(mention)
    state.events.append(EventFact("Birth" if verb == "born" else "Death", verb, {"person": [owner]}, date, place))


def work_years(state: ChunkState) -> None:
    """A year alone in brackets after a work's title is when it came out: "Batman Begins (2005)",
    "her movies Guys and Balls (2004), Desert Flower (2009)", '"The Lutheran Hymnal" (1941)'.
    Run after the kinds are known ("the film Desert Flower" is a work whatever the NER said); a
    person's bracketed years are life dates (`parenthesis`), and other names' may be anything."""
    doc = state.doc
    work_class = state.classes.by_hint.get("Work")
    for mention in [*state.mentions, *state.used.values()]:
        if mention.start < 0 or mention.is_date or not _is_work(mention, work_class):
            continue
        i = mention.end
        if i < len(doc) and doc[i].is_quote:
            i += 1  # '"The Lutheran Hymnal" (1941)'
        if i + 2 >= len(doc) or doc[i].text != "(" or doc[i + 2].text != ")":
            continue
        year = state.tok2m[i + 1] or state.year(doc[i + 1])
        if year is None or not year.is_date or not BARE_YEAR.fullmatch(year.name):
            continue
        state.triple(mention, "released in", year, [])


def _is_work(mention: Mention, work_class: str | None) -> bool:
    if mention.label == "WORK_OF_ART" or (work_class is not None and mention.spg_class == work_class):
        return True
    return any(class_hint(kind) == "Work" for kind in mention.types)
