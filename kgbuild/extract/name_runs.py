"""Names kept whole where en_core_web_sm cuts them: quoted titles and capitalised runs.

The small model splits long names at their function words: "Government Code" + "Cypher
School", "Association" + "Computing Machinery" (PERSON), "Computing Machinery" (WORK_OF_ART) +
"Intelligence" (ORG). Two rules put them back together before mentions are made:

1. **Quoted titles.** A quoted stretch of at most 13 tokens in title case (at least half of its
   words capitalised, so quoted speech is left alone) is one WORK_OF_ART span, replacing the
   spans the NER put inside it.
2. **Capitalised runs.** Runs of proper nouns joined by "of", "for", "on" (optionally followed by
   "the"/"a") or "and"/"&" are one name when:
   - "of/for/on": the left part is not a person, a date, a nationality or a bare title
     ("King of Italy" stays a relation) and the right part is not a date;
   - "and": the right part ends with an institution word ("Cypher School") while the left part
     does not (so "Harvard University and MIT" stay two), or the run already went through "of"
     ("Theory of Games and Economic Behavior"), in both cases unless both sides are places or
     people ("England and France", "Eckert and Mauchly").
   - "of" after a person's given names and before a place: a ruler's or noble's name,
     "Frederika Louisa of Hesse-Darmstadt" (a person; "Duke of X" stays a relational title);
   - but a second "of" before another institution starts a second name: "Moore School of Electrical
     Engineering" of "the University of Pennsylvania" (`nouns.names_in_names` relates them);
   - side by side: a number word after any name ("Formula One"), an unlabelled proper noun
     before a place the NER tagged alone ("Isabelle Holland": a place name is a common surname);
     a proper noun run continues through a numeral after it ("Ferranti Mark 1").
   A joined run that covers NER spans replaces them (its label: WORK_OF_ART inside quotes, ORG
   when it ends with an institution word, else the first NER label met); a run the NER left
   unlabelled is remembered so that `Arguments.proper` takes all of it.
3. **Hyphenated words** are one word: a span that ends or starts inside "Boulogne-sur-Mer" takes
   all of it (the NER tagged "Boulogne").
4. **A year before an event's name** belongs to it: "the 1990 Cannes Film Festival", "the 1999
   World Drivers' Championship" name one event each (the NER tagged the year as a date apart); so do "the
   <year or season> <proper nouns> <event head>" whatever the NER made of the words ("the 2002 NBA All-Star
   Game", "the 2003–04 NBA season": `year_led_events`), also with up to two lower-case words before a
   lower-case head ("the 2013 FBS football season", "the 1727 British general election"); with no year,
   "the <proper nouns> tornado/outbreak/festival" ("the Holmenkollen ski festival").
5. A MONEY span in title case is a name: "Two Dollar Radio Headquarters".
6. **A title-case subject of a definition** is one name: an encyclopedia passage opens with its
   subject's full name, "Whistling in Dixie is a 1942 crime comedy film", "Elisabeth of the
   Palatinate (26 December 1618 - 11 February 1680) was ...". The stretch from a sentence's start to
   a singular "is"/"was" (a parenthesis between them skipped) is one name when its words are
   capitalised but for function words inside (of, and, the, in, on, to, ...), it has two content
   words or more, and nothing in it reads as a sentence opener: no PERSON, place or date standing
   next to another capitalised word with no function word between ("In Britain Turing was"), no
   preposition or adverb before a capitalised word at the start ("After Lugaid was overthrown", so
   "In Love and War" is left to the NER too) and no relational title before "of" ("Premier of South
   Australia is": read by `nouns`).
7. **Epithets**: "Louis the Pious", "Edward the Confessor", "Jan I the Scholastic" are one person's name
   (see `epithet_names`); a Roman numeral after a name is part of it ("Constantine I of Greece", where
   the tagger reads "I" as a pronoun), and "X I of Place" is a person.
8. **A capitalised "The" inside a sentence** opens a title-case name that runs through function words:
   "starred in The Man in the Funny Suit", "sequel to The Guns and the Fury" (see `article_titles`),
   stopping before an "and" that a person, place or organisation follows ("The Beatles and Elvis Presley")
   and before another preposition that one follows ("The National Museum of Computing at Bletchley Park").
9. **A country's national team**: "the Trinidad and Tobago national football team" is one ORG
   (`national_teams`), not the country.
10. **A numbered road**: "U.S. Highway 641", "New York State Route 83" keep their number (`numbered_roads`).
11. Quote marks at a NER span's edges are dropped first, so that a quoted title can replace the span.
   "are"/"were" after an "and" is a list of things ("Eckert and Mauchly were"), not one name.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kgbuild.extract.facts import PROPN
from kgbuild.extract.vocab import NAME_TITLES, ROMAN_NUMERALS, TITLE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

QUOTES = frozenset({'"', "“", "”", "``", "''"})
_MAX_TITLE_TOKENS = 13
# The last word of an institution's name: "Cypher School", "Computing Machinery Association".
INSTITUTION_HEADS = frozenset({
    "school", "college", "university", "institute", "institution", "society", "association", "academy",
    "laboratory", "laboratories", "company", "corporation", "agency", "council", "board", "department",
    "ministry", "museum", "library", "foundation", "bank", "party", "office", "bureau", "commission",
    "committee", "club", "union", "federation", "league", "hospital", "centre", "center", "observatory",
    "trust", "service", "services", "project", "programme", "court", "army", "navy", "corps", "orchestra",
    "records", "studios", "press", "organisation", "organization", "authority", "administration",
    "conservatory", "seminary", "gallery", "theatre", "theater", "church", "parliament", "assembly",
})
_JOINERS = frozenset({"of", "for", "on", "de", "du", "des", "del", "della", "di"})
_ARTICLES = frozenset({"the", "a", "an"})
_AND = frozenset({"and", "&"})
_NO_LEFT = frozenset({"PERSON", "DATE", "TIME", "NORP", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"})
_PLACE_OR_PERSON = frozenset({"GPE", "LOC", "PERSON", "NORP"})
_NAME_TAGS = frozenset({"NNP", "NNPS"})
_ROMAN = re.compile(r"(?:X{0,3})(?:IX|IV|V?I{0,3})")
_ADJACENT_LABELS = frozenset({"ORG", "PRODUCT", "FAC", "WORK_OF_ART", "EVENT"})
_NUMBER_LABELS = frozenset({"ORDINAL", "CARDINAL", "MONEY"})  # all-capitalised: words of a name
_PLACES = frozenset({"GPE", "LOC"})
# The last word of an event's name, for a year put before it ("the 2012 Summer Olympics").
EVENT_HEADS = frozenset({
    "festival", "championship", "championships", "olympics", "games", "cup", "awards", "election",
    "elections", "open", "tournament", "grand", "prix", "series", "war", "expo", "exhibition", "world",
    "conference", "congress", "summit", "season", "rally", "marathon", "trophy", "final", "finals",
})


@dataclass
class _Part:
    start: int
    end: int
    label: str  # the NER label covering the part, "" if none


def whole_names(
    doc: Doc, spans: list[Span], titles: list[Span] | None = None
) -> tuple[list[Span], dict[int, tuple[int, int]]]:
    """The NER spans with the document's title (`titles`), quoted titles and joined runs put
    together, and the unlabelled runs (token index -> (start, end)) for `Arguments.proper`."""
    spans = [_whole_words(doc, s) for s in (_unquoted(s) for s in spans) if s is not None]
    spans = _override(spans, titles or [])
    spans = _override(spans, quoted_titles(doc))
    joined, unlabelled = _joined_runs(doc, spans)
    runs: dict[int, tuple[int, int]] = {}
    for start, end in unlabelled:
        for i in range(start, end):
            runs[i] = (start, end)
    spans = _override(spans, joined)
    spans = _override(spans, article_titles(doc, spans))
    spans = _override(spans, epithet_names(doc, spans))
    spans = _override(spans, definition_subjects(doc, spans))
    # After the joins: a joined run may be the event's name ("the 2006 | European | Aquatics Championships").
    spans = _override(spans, _dated_events(doc, spans))
    spans = _override(spans, year_led_events(doc))
    spans = _override(spans, national_teams(doc))
    return _override(spans, numbered_roads(doc)), runs


def quote_pairs(doc: Doc) -> list[tuple[int, int]]:
    """Indexes of matching quote marks, in order (an odd last mark opens nothing)."""
    marks = [t.i for t in doc if t.text in QUOTES]
    return list(zip(marks[::2], marks[1::2], strict=False))


def quoted_titles(doc: Doc) -> list[Span]:
    titles: list[Span] = []
    for open_i, close_i in quote_pairs(doc):
        inner = doc[open_i + 1 : close_i]
        if not 1 <= len(inner) <= _MAX_TITLE_TOKENS or any(t.text in (".", "!", "?") and t.i < close_i - 1
                                                          for t in inner):
            continue
        words = [t for t in inner if t.is_alpha]
        if not words or not (inner[0].is_title or inner[0].is_upper or inner[0].like_num):
            continue
        capitalised = sum(1 for t in words if t.is_title or t.is_upper)
        if 2 * capitalised < len(words):
            continue  # quoted speech, not a title
        end = close_i
        while end > open_i + 1 and doc[end - 1].is_punct:
            end -= 1  # '"Title,"': the comma belongs to the sentence
        span = doc[open_i + 1 : end]
        span.label_ = "WORK_OF_ART"
        titles.append(span)
    return titles


def _override(spans: list[Span], new: list[Span]) -> list[Span]:
    """`new` spans replace the spans they contain; a new span crossing an old one's edge is dropped."""
    if not new:
        return spans
    kept_new = [n for n in new if all(s.end <= n.start or s.start >= n.end or (n.start <= s.start and s.end <= n.end)
                                      for s in spans)]
    kept = [s for s in spans if all(s.end <= n.start or s.start >= n.end for n in kept_new)]
    return sorted([*kept, *kept_new], key=lambda s: s.start)


def _unquoted(span: Span) -> Span | None:
    """The span without quote marks at its edges: the NER's '" Secret Service of' (ORG) took the opening
    quote, and a span crossing the quoted title's edge would keep the title from replacing it."""
    start, end = span.start, span.end
    while start < end and span.doc[start].text in QUOTES:
        start += 1
    while end > start and span.doc[end - 1].text in QUOTES:
        end -= 1
    if start == end:
        return None
    if (start, end) == (span.start, span.end):
        return span
    inner = span.doc[start:end]
    inner.label_ = span.label_
    return inner


def _glued_hyphen(doc: Doc, i: int) -> bool:
    """doc[i] is a hyphen inside one word: no space on either side, letters on both."""
    return (0 < i < len(doc) - 1 and doc[i].text in ("-", "‐", "‑") and not doc[i - 1].whitespace_
            and not doc[i].whitespace_ and doc[i - 1].text[-1:].isalpha() and doc[i + 1].text[:1].isalpha())


# Participles that make a place an adjective: "the Hamburg-based studio Real Film" names Hamburg, not a place
# "Hamburg-based" (eleventh session: 11 such nodes in a HotpotQA build, none related to anything).
_PLACE_ADJECTIVES = frozenset({"based", "born", "headquartered", "bred", "raised"})


def _whole_words(doc: Doc, span: Span) -> Span:
    """The span widened to the hyphenated words it starts or ends inside."""
    start, end = span.start, span.end
    while start >= 2 and _glued_hyphen(doc, start - 1):
        start -= 2
    while end < len(doc) - 1 and _glued_hyphen(doc, end) and doc[end + 1].lower_ not in _PLACE_ADJECTIVES:
        end += 2
    if (start, end) == (span.start, span.end):
        return span
    wide = doc[start:end]
    wide.label_ = span.label_
    return wide


# "the 30th International Film Festival of India", "the 71st Academy Awards": the edition is the event's.
_NUMBERED = re.compile(r"\d+(?:st|nd|rd|th)")


def _dated_events(doc: Doc, spans: list[Span]) -> list[Span]:
    """A bare year (or a numbered edition) just before an event's name, with the name: one EVENT span."""
    out: list[Span] = []
    for year, name in itertools.pairwise(spans):
        words = [t for t in year if t.lower_ not in _ARTICLES]  # "the 1990" (EVENT) happens too
        if (((year.label_ in ("DATE", "EVENT", "CARDINAL") and words[0:1] and words[0].shape_ == "dddd")
             or (year.label_ == "ORDINAL" and words[0:1] and _NUMBERED.fullmatch(words[0].text)))
                and len(words) == 1
                and name.start == year.end and (name.label_ == "EVENT" or (
                    name.label_ not in _NO_LEFT and doc[name.end - 1].lower_ in EVENT_HEADS))):
            event = doc[year.start : name.end]  # an article in the year span comes along (clean_name drops it)
            event.label_ = "EVENT"
            out.append(event)
    return out


# A year or a season ("2003–04") that opens an event's name.
_YEAR_OR_SEASON = re.compile(r"\d{4}(?:[–-]\d{2})?")
# The lower-case last word of an event's name after its proper nouns: "the 2003–04 NBA season", "the 1998
# Nashville tornadoes"; a capitalised one is any event head ("the 2002 NBA All-Star Game").
_LOWER_EVENT_HEADS = frozenset({"season", "tornado", "tornadoes", "outbreak", "draft", "election", "elections"})
_YEAR_EVENT_HEADS = EVENT_HEADS | _LOWER_EVENT_HEADS | {"game", "bowl", "classic", "league"}
# With no year before them, only these lower-case heads make a proper noun's event: "the Barrie tornado
# outbreak", "the Holmenkollen ski festival" name one event each, while "the NBA season" or "the Labour
# election" are a season and an election of something, said in passing.
_YEARLESS_HEADS = frozenset({"tornado", "tornadoes", "outbreak", "festival"})
# At most this many lower-case words between the proper nouns and the head: "football season", "ski festival",
# "tornado outbreak", "general election" (each a word of the kind of event, not of the sentence).
_MAX_LOWER_WORDS = 2
_LOWER_WORD_TAGS = frozenset({"NN", "NNS", "JJ"})  # "general election", "football season"
_DASHES = frozenset({"-", "–"})


def year_led_events(doc: Doc) -> list[Span]:
    """ "the <year> <proper nouns> <event head>": one EVENT span, whatever the NER made of its parts.

    Wikipedia names a year's edition of an event by putting the year first ("the 2002 NBA All-Star Game",
    "The 2003–04 NBA season", "the 1998 Nashville tornadoes"); the NER tags the year as a date and the rest
    as an organisation, or nothing, so `_dated_events` (which needs a NER span after the year) misses it.
    The article before the year is required ("In 1990 Microsoft released ..." is a date and a subject), and
    so is at least one proper noun and a last word that names an event. Between the proper nouns and a
    lower-case head, up to two lower-case nouns or adjectives of the event's kind ("the 2013 FBS football
    season", "the 1727 British general election": a nationality adjective counts as a proper noun after a
    year). With no year, "the <proper nouns> tornado/outbreak/festival" is one event too ("the Barrie tornado
    outbreak", "the Holmenkollen ski festival"), but not after a rating with digits ("the EF3 tornado").
    """
    out: list[Span] = []
    for tok in doc:
        if tok.i == 0 or doc[tok.i - 1].lower_ != "the":
            continue
        dated = tok.tag_ == "CD" and bool(_YEAR_OR_SEASON.fullmatch(tok.text))
        if dated:
            j = tok.i + 1
            if (j + 1 < len(doc) and doc[j].text in _DASHES
                    and doc[j + 1].is_digit and len(doc[j + 1]) == 2):
                j += 2  # "2003 – 04": the season as the text normaliser spaced it
        elif _event_word(tok):
            j = tok.i  # no year: the proper nouns open the name
        else:
            continue
        end = _event_end(doc, tok.i, j, dated)
        if end is not None:
            event = doc[tok.i : end]
            event.label_ = "EVENT"
            out.append(event)
    return out


def _event_word(word: Token) -> bool:
    return word.tag_ in _NAME_TAGS and (word.is_title or word.is_upper) and word.text not in QUOTES


def _event_end(doc: Doc, start: int, j: int, dated: bool) -> int | None:
    """The end of an event's name whose proper nouns start at `j` (the year, if any, at `start`), or None."""
    end = None
    proper = False
    while j < len(doc) and j - start <= 9:
        word = doc[j]
        if _event_word(word) or (dated and word.ent_type_ == "NORP" and word.is_title):
            if not dated and any(c.isdigit() for c in word.text):
                return None  # "the EF3 tornado": a rating, not a name
            proper = True
            if dated and word.lower_ in _YEAR_EVENT_HEADS:
                end = j + 1
        elif word.text in _DASHES and not word.whitespace_ and not doc[j - 1].whitespace_:
            pass  # "All-Star"
        elif proper and word.tag_ in _LOWER_WORD_TAGS and word.is_lower:
            heads = _LOWER_EVENT_HEADS if dated else _YEARLESS_HEADS
            k = j
            while (k < len(doc) and k - j < _MAX_LOWER_WORDS + 1 and doc[k].tag_ in _LOWER_WORD_TAGS
                   and doc[k].is_lower):
                if doc[k].lower_ in heads:
                    end = k + 1
                k += 1
            break
        else:
            break
        j += 1
    return end if proper else None


# What may stand between "national" and "team": an age group ("under-21", "U-23") and the sport.
_AGE_GROUP = re.compile(r"(?:under|u)-?\d{2}", re.IGNORECASE)
_MAX_SPORT_WORDS = 2


def national_teams(doc: Doc) -> list[Span]:
    """ "<country> national [age group] [sport] team": one ORG span, the country's proper nouns included.

    Wikipedia names a country's team this way ("called to Vietnam national football team", "the Trinidad and
    Tobago national football team", "the Palestine national under-23 team"); the NER tags the country alone,
    so the team became the country. The country is the proper nouns right before "national" ("and" between
    two of them), so "the German national team" (an adjective) and "its national team" are left as they are.
    """
    out: list[Span] = []
    for tok in doc:
        if tok.lower_ != "national" or tok.i == 0 or not _event_word(doc[tok.i - 1]):
            continue
        start = tok.i - 1
        while start > 0 and (_event_word(doc[start - 1]) or (
                doc[start - 1].lower_ == "and" and start > 1 and _event_word(doc[start - 2]))):
            start -= 1
        j = tok.i + 1
        if j < len(doc) and _AGE_GROUP.fullmatch(doc[j].text):
            j += 1
        elif (j + 2 < len(doc) and doc[j].lower_ in ("under", "u") and doc[j + 1].text in _DASHES
              and doc[j + 2].is_digit):
            j += 3  # "under - 21" as the tokenizer cut it
        k = j
        while k < len(doc) and k - j <= _MAX_SPORT_WORDS and doc[k].is_lower and doc[k].tag_ in ("NN", "NNS"):
            if doc[k].lower_ == "team":
                team = doc[start : k + 1]
                team.label_ = "ORG"
                out.append(team)
                break
            k += 1
    return out


# The last word of a road's name when a number follows it: "U.S. Highway 641", "New York State Route 83".
_ROAD_WORDS = frozenset({"route", "highway", "interstate", "road", "freeway", "motorway", "expressway"})


def numbered_roads(doc: Doc) -> list[Span]:
    """ "<proper nouns> Route/Highway/Interstate/Road <number>": one FAC span, the number included.

    A road is named by its number ("It lies along Hawaii Route 750", "on the east side of U.S. Highway 641"); the
    NER tags the words and the number apart (a CARDINAL), so the road became "U.S. Highway", a node every highway
    of the country shares. The number must be all digits and follow the capitalised road word directly.
    """
    out: list[Span] = []
    for tok in doc:
        if (tok.lower_ not in _ROAD_WORDS or not tok.is_title or tok.tag_ not in _NAME_TAGS
                or tok.i + 1 >= len(doc) or not doc[tok.i + 1].is_digit):
            continue
        start = tok.i
        while start > 0 and _event_word(doc[start - 1]):
            start -= 1
        road = doc[start : tok.i + 2]
        road.label_ = "FAC"
        out.append(road)
    return out


def _regnal(tok: Token) -> bool:
    """A Roman numeral after a capitalised name: "Constantine I of Greece", "Frederick IV" ("I" is tagged a
    pronoun there); "John I think" (a verb after "I") is the pronoun."""
    if not _ROMAN.fullmatch(tok.text) or tok.i == 0:
        return False
    prev = tok.doc[tok.i - 1]
    if not (prev.tag_ in _NAME_TAGS and prev.is_title and prev.is_alpha):
        return False
    after = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    return not (tok.text == "I" and after is not None and after.tag_ in ("VBP", "MD", "VB"))


def _is_name_token(tok: Token) -> bool:
    if _regnal(tok):
        return True
    if tok.tag_ == "CD":
        return tok.is_alpha and tok.is_title  # "Formula One"
    return tok.tag_ in _NAME_TAGS and (tok.is_title or tok.is_upper or not tok.is_alpha) and tok.text not in QUOTES


def _parts(doc: Doc, label_at: dict[int, str]) -> list[_Part]:
    """Maximal stretches of proper nouns, each with the NER label covering its first token."""
    parts: list[_Part] = []
    i = 0
    while i < len(doc):
        if not _is_name_token(doc[i]):
            i += 1
            continue
        start = i
        label = label_at.get(i, "")
        while i < len(doc) and _is_name_token(doc[i]) and (label_at.get(i, "") == label or (
                _regnal(doc[i]) and not label_at.get(i))):  # "King Constantine (PERSON) I": the numeral is his
            i += 1
        if (i < len(doc) and doc[i].tag_ == "CD" and doc[i].is_digit and not label_at.get(i)
                and (i + 1 == len(doc) or not _is_name_token(doc[i + 1]))):
            i += 1  # "Ferranti Mark 1", "Apollo 11": a numeral ends the name
        parts.append(_Part(start, i, label))
    return parts


def _gap(doc: Doc, left: _Part, right: _Part) -> list[str] | None:
    """The connective words between two parts, if they form an allowed joint ([] for parts side by
    side: "Scuderia" + "Ferrari" (ORG), a word the NER left out)."""
    words = [t.lower_ for t in doc[left.end : right.start]]
    if not words:
        # "Scuderia" (GPE) + "Ferrari", "Formula" (GPE) + "One": one name the NER labelled in part.
        numbers = not right.label and all(t.tag_ == "CD" for t in doc[right.start : right.end])
        adjacent = (not left.label and right.label in _ADJACENT_LABELS | _PLACES
                    and not doc[left.start].is_sent_start) or (
            left.label in _ADJACENT_LABELS | _PLACES and not right.label) or (
            numbers and left.label not in ("DATE", "TIME", "CARDINAL", "ORDINAL"))
        return [] if adjacent and doc[left.end - 1].lower_ not in TITLE_NOUNS else None
    if not 1 <= len(words) <= 2 or any(doc[k].is_sent_start for k in range(left.end, right.start + 1)):
        return None
    if words[0] in _JOINERS and (len(words) == 1 or words[1] in _ARTICLES):
        return words
    if len(words) == 1 and words[0] in _AND:
        return words
    return None


def _joinable(doc: Doc, run: list[_Part], right: _Part, gap: list[str], through_of: bool) -> bool:
    left = run[-1]
    if right.label in ("DATE", "TIME", "CARDINAL", "ORDINAL"):
        return False
    if not gap:
        return True
    left_last = doc[left.end - 1].lower_
    if gap[0] in _AND:
        if left.label in _PLACE_OR_PERSON and right.label in _PLACE_OR_PERSON:
            return False
        if right.label == "PERSON" or any(p.label == "PERSON" for p in run):
            return False  # "King James I of Scotland and Queen Joan Beaufort": two people
        if doc[right.end - 1].lower_ in TITLE_NOUNS:
            return False
        if through_of and _ruler_style(doc, run[0]):
            return False  # "Crown Prince Pavlos of Greece and Marie-Chantal Miller" (ORG): two people
        right_inst = doc[right.end - 1].lower_ in INSTITUTION_HEADS
        return (right_inst and left_last not in INSTITUTION_HEADS and left.label not in _PLACE_OR_PERSON) or (
            through_of and right.label not in _PLACE_OR_PERSON)
    if gap == ["of"] and left.label == "PERSON" and len(run) == 1 and right.label in _PLACES:
        return left_last not in TITLE_NOUNS  # "Frederika Louisa of Hesse-Darmstadt": one person's name
    if through_of and gap[0] == "of" and doc[right.start].lower_ in INSTITUTION_HEADS and any(
            doc[k].lower_ in INSTITUTION_HEADS for p in run for k in range(p.start, p.end)):
        return False  # "Moore School of Electrical Engineering | of the University of Pennsylvania": two bodies
    if left.label in _NO_LEFT or (left.label == "GPE" and left_last not in INSTITUTION_HEADS):
        return False
    if gap[0] == "of" and _team_in_league(doc, left, right):
        return False
    if left_last in TITLE_NOUNS:
        return False  # "King of Italy", "Prime Minister of France": a relational title, read by `nouns`
    return not (right.label == "PERSON" and left_last not in INSTITUTION_HEADS)


# What a team plays "of": "The Chicago Tigers of the American Professional Football Association", "the Newcastle
# Knights of the National Rugby League" are a team and its league, two names (issue 23, eleventh session).
_LEAGUE_HEADS = frozenset({"league", "association", "conference", "federation", "division"})


def _team_in_league(doc: Doc, left: _Part, right: _Part) -> bool:
    """A team's name (two or more words ending in a plural proper noun: "Chicago Tigers", "Newcastle Knights")
    before "of the" and a league's name: two bodies, not one name."""
    last = doc[left.end - 1]
    return (left.end - left.start >= 2 and last.tag_ == "NNPS" and last.lower_.endswith("s")
            and doc[right.start - 1].lower_ == "the" and doc[right.end - 1].lower_ in _LEAGUE_HEADS)


def _ruler_style(doc: Doc, first: _Part) -> bool:
    """Whether a run's first part reads as a person "of" a territory: it opens with a rank ("Crown Prince
    Pavlos", "Duke Henry") or has a ruler's numeral ("Constantine II"). What an "and" after its "of Y" adds is
    another name, whatever label the NER gave it ("... of Greece and Anne-Marie of Denmark")."""
    words = doc[first.start : first.end]
    return any(t.lower_ in NAME_TITLES for t in words[:-1]) or any(
        t.text.isupper() and t.lower_ in ROMAN_NUMERALS for t in words[1:])


def _joined_runs(doc: Doc, spans: list[Span]) -> tuple[list[Span], list[tuple[int, int]]]:
    label_at: dict[int, str] = {}
    span_at: dict[int, Span] = {}
    money: list[Span] = []
    for span in spans:
        if span.label_ in _NUMBER_LABELS and all(_is_name_token(t) for t in span):
            if span.label_ == "MONEY":
                money.append(span)
            continue  # "First" (ORDINAL) in "First Draft of a Report", "Two Dollar" (MONEY): words of a name
        for i in range(span.start, span.end):
            label_at[i] = span.label_
            span_at[i] = span
    parts = _parts(doc, label_at)
    joined: list[Span] = []
    unlabelled: list[tuple[int, int]] = []
    k = 0
    while k < len(parts):
        run = [parts[k]]
        through_of = False
        while k + 1 < len(parts):
            gap = _gap(doc, run[-1], parts[k + 1])
            if gap is None or not _joinable(doc, run, parts[k + 1], gap, through_of):
                break
            through_of = through_of or (bool(gap) and gap[0] in _JOINERS)
            run.append(parts[k + 1])
            k += 1
        k += 1
        if len(run) < 2:
            whole = doc[run[0].start : run[0].end]
            if any(m.start >= whole.start and m.end <= whole.end for m in money):
                whole.label_ = "ORG" if doc[whole.end - 1].lower_ in INSTITUTION_HEADS else PROPN
                joined.append(whole)  # "Two Dollar Radio Headquarters" (MONEY): a name of unknown class
            continue
        start, end = run[0].start, run[-1].end
        first, last = span_at.get(start), span_at.get(end - 1)
        if first is not None:
            start = min(start, first.start)  # "the Government Code" (LAW): its article comes along
        if last is not None:
            end = max(end, last.end)
        labels = [p.label for p in run if p.label]
        if not labels:
            unlabelled.append((start, end))
            continue
        span = doc[start:end]
        head = run[0]  # "Draft" in "First Draft of a Report on the EDVAC": the name's head decides
        if doc[end - 1].lower_ in INSTITUTION_HEADS or doc[head.end - 1].lower_ in INSTITUTION_HEADS:
            span.label_ = "ORG"
        elif "WORK_OF_ART" in labels:
            span.label_ = "WORK_OF_ART"
        elif head.label in ("GPE", "LOC") and not run[-1].label and len(run) == 2 and run[1].start == head.end:
            span.label_ = PROPN  # "Scuderia Ferrari": a place word opened a name, the name is no place
        elif _regnal(doc[head.end - 1]) and all(
                p.label in _PLACES | {""} for p in run[1:]):
            span.label_ = "PERSON"  # "Constantine I of Greece": a regnal number names a ruler
        elif head.label == "PERSON" and all(p.label in _PLACES for p in run[1:]):
            span.label_ = "PERSON"  # "Frederika Louisa of Hesse-Darmstadt"
        elif head.label == "PERSON" and all(t.tag_ == "CD" for t in doc[run[1].start : end]):
            span.label_ = PROPN  # "Formula One": no person is named by a number word
        elif not head.label and len(run) == 2 and run[1].label in _PLACES and run[1].start == head.end:
            span.label_ = PROPN  # "Isabelle Holland": a given name before a surname the NER took for a place
        elif head.label and head.label != "PERSON":
            span.label_ = head.label
        elif head.label == "PERSON":
            span.label_ = "ORG"  # "Computing Machinery" (PERSON) ... with an institution: see above
        else:
            span.label_ = PROPN  # the head is unlabelled: a name of unknown class
        joined.append(span)
    return joined, unlabelled


# Lower-case words inside a title-case name: "Whistling in Dixie", "Battle for the Planet of the Apes"
# (not "or": "Rudolph or Rudolf (890 - 936) was" gives a second name, not one name).
_INNER_WORDS = frozenset({"of", "and", "for", "the", "a", "an", "in", "on", "at", "to", "from", "with", "by", "without",
                          "de", "du", "des", "del", "della", "di", "da", "von", "van", "upon", "into", "&"})
_INNER_MARKS = frozenset({"-", ":", "'s", "’s", "&", "'", "’"})
_SINGULAR_BE = frozenset({"is", "was"})
_PLURAL_BE = frozenset({"are", "were"})
_STANDALONE = frozenset({"PERSON", "GPE", "LOC", "DATE", "TIME", "CARDINAL", "ORDINAL"})
_MAX_SUBJECT_TOKENS = 12
# A first word of these tags before a capitalised word opens a clause, not a name ("After Lugaid was
# overthrown"); before a function word it may start a title ("Behind the Rainbow", "Somewhere in the ...").
_OPENER_TAGS = frozenset({"IN", "RB", "RBR", "RBS", "WRB"})


def definition_subjects(doc: Doc, spans: list[Span]) -> list[Span]:
    """Rule 6: the title-case subject of "<Name> is/was ..." opening a sentence, as one span."""
    label_at = {i: s for s in spans for i in range(s.start, s.end)}
    out: list[Span] = []
    for sent in doc.sents:
        end = _subject_end(doc, sent.start, sent.end)
        if end is None:
            continue
        start = sent.start
        if not 2 <= end - start <= _MAX_SUBJECT_TOKENS:
            continue
        span = _title_case_subject(doc, start, end, label_at)
        if span is not None:
            out.append(span)
    return out


def _subject_end(doc: Doc, start: int, stop: int) -> int | None:
    """Where the words before a sentence's first 'is'/'was' end ('(' before it skipped), or None."""
    i = start
    while i < stop:
        tok = doc[i]
        if tok.text == "(":
            close = next((k for k in range(i + 1, stop) if doc[k].text == ")"), None)
            if close is None:
                return None
            after = close + 1
            if after < stop and doc[after].text == ",":
                after += 1
            return i if after < stop and doc[after].lower_ in _SINGULAR_BE | _PLURAL_BE and (
                doc[after].lower_ in _SINGULAR_BE or not _has_and(doc, start, i)) else None
        if tok.lower_ in _SINGULAR_BE | _PLURAL_BE and tok.tag_.startswith("VB"):
            return i if tok.lower_ in _SINGULAR_BE or not _has_and(doc, start, i) else None
        if not (_capitalised(tok) or tok.lower_ in _INNER_WORDS or tok.text in _INNER_MARKS or tok.tag_ == "POS"):
            return None  # a lower-case word or a comma: not a name up to here
        i += 1
    return None


def _has_and(doc: Doc, start: int, end: int) -> bool:
    return any(doc[k].lower_ in _AND for k in range(start, end))


def _capitalised(tok: Token) -> bool:
    return tok.is_title or tok.is_upper or tok.text[:1].isdigit() or (tok.text[:1].isupper() and tok.is_alpha)


def _title_case_subject(doc: Doc, start: int, end: int, label_at: dict[int, Span]) -> Span | None:
    words = doc[start:end]
    if not (_capitalised(words[0]) and _capitalised(words[-1])):
        return None
    if words[0].tag_ in _OPENER_TAGS and not (words[1].lower_ in _INNER_WORDS or words[1].is_punct):
        return None  # "After Euphemia was caught", "Later Turing was": a clause or an adverb opens the sentence
    content = [t for t in words if t.is_alpha and t.lower_ not in _INNER_WORDS]
    if len(content) < 2:
        return None  # "The Exies": the NER's span or the title's, not a definition's
    covering = {id(label_at[i]) for i in range(start, end) if i in label_at}
    if len(covering) == 1 and all(i in label_at for i in range(start, end) if words[i - start].lower_ not in
                                  _ARTICLES):
        return None  # one NER span already: nothing to join
    for k in range(start, end - 1):
        left, right = label_at.get(k), label_at.get(k + 1)
        if left is right or not (_capitalised(doc[k]) and _capitalised(doc[k + 1])):
            continue
        if doc[k].lower_ in _INNER_WORDS or doc[k + 1].lower_ in _INNER_WORDS:
            continue
        if (left is not None and left.label_ in _STANDALONE) or (right is not None and right.label_ in _STANDALONE):
            return None  # "Later Turing was", "In Britain Turing was": an opener before the subject
    if any(doc[k + 1].lower_ == "of" and doc[k].lower_ in TITLE_NOUNS for k in range(start, end - 1)):
        return None  # "Premier of South Australia": a relational title
    span = doc[start:end]
    first = label_at.get(next((i for i in range(start, end) if words[i - start].lower_ not in _ARTICLES), start))
    joints = [t.lower_ for t in words if not _capitalised(t) and t.lower_ in _INNER_WORDS]
    if doc[end - 1].lower_ in INSTITUTION_HEADS:
        span.label_ = "ORG"
    elif first is not None and first.label_ == "PERSON" and joints and set(joints) <= {"of", "the"}:
        span.label_ = "PERSON"  # "Elisabeth of the Palatinate": a ruler's or noble's name
    else:
        span.label_ = PROPN  # a work, a band, a game: the definition's noun gives the class
    return span


_NOT_EPITHET = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"})
_MAX_GIVEN_TOKENS = 3


def epithet_names(doc: Doc, spans: list[Span]) -> list[Span]:
    """Rule 7: a given name, a lower-case "the" and one capitalised word ending the name is one person's
    name: "Louis the Pious", "Edward the Confessor", "Jan I the Scholastic" (the NER took "Louis" for a
    place and "Confessor" for an organisation). Not when a longer name follows ("gave Smith the Nobel Prize")."""
    label_at = {i: s for s in spans for i in range(s.start, s.end)}
    out: list[Span] = []
    for the in doc:
        i = the.i
        if the.text != "the" or i == 0 or i + 1 >= len(doc):
            continue
        right = doc[i + 1]
        after = doc[i + 2] if i + 2 < len(doc) else None
        if not (right.is_title and right.is_alpha and right.tag_ in ("NNP", "NN", "JJ", "NNPS")):
            continue
        if after is not None and (_is_name_token(after) or after.lower_ == "of" or after.text in ("-", "'s")):
            continue
        start = i
        while (start > 0 and i - start < _MAX_GIVEN_TOKENS and _is_name_token(doc[start - 1])
               and doc[start - 1].is_alpha):
            start -= 1
        if start == i or (doc[start].lower_ in TITLE_NOUNS and start + 1 == i):
            continue
        spans_in = {id(label_at[k]): label_at[k] for k in range(start, i + 2) if k in label_at}
        if any(s.label_ in _NOT_EPITHET or s.start < start or s.end > i + 2 for s in spans_in.values()):
            continue  # a date, or a name running on past the epithet
        if start > 0 and _is_name_token(doc[start - 1]):
            continue  # more given names than this rule reads
        span = doc[start : i + 2]
        span.label_ = "PERSON"
        out.append(span)
    return out


_LEADING_ARTICLES = frozenset({"The", "A", "An"})
_LISTED = frozenset({"PERSON", "GPE", "LOC", "FAC", "ORG", "NORP", "DATE", "TIME", "CARDINAL"})
# In running text these say where a named thing is, who made it, where it comes from: not words of its name.
_RELATING = frozenset({"at", "by", "from"})


def article_titles(doc: Doc, spans: list[Span]) -> list[Span]:
    """Rule 8: "The" capitalised after a sentence's start, with the title-case words that follow it."""
    label_at = {i: s for s in spans for i in range(s.start, s.end)}
    out: list[Span] = []
    i = 0
    while i < len(doc):
        tok = doc[i]
        if tok.text not in _LEADING_ARTICLES or tok.is_sent_start or i == 0 or doc[i - 1].text in QUOTES | {":"}:
            i += 1
            continue
        end = _title_run_end(doc, i + 1, label_at)
        if end - i >= 3 and end - i <= _MAX_SUBJECT_TOKENS:
            span = _article_title(doc, i, end, label_at)
            if span is not None:
                out.append(span)
        i = max(end, i + 1)
    return out


def _title_run_end(doc: Doc, start: int, label_at: dict[int, Span]) -> int:
    """Where the capitalised words (and the function words between them) from `start` end."""
    end = start
    k = start
    sent_end = doc[start].sent.end if start < len(doc) else start
    while k < sent_end:
        tok = doc[k]
        if _capitalised(tok) and tok.text not in QUOTES and not tok.is_punct:
            k += 1
            end = k
            continue
        if tok.lower_ in _INNER_WORDS or tok.text in _INNER_MARKS or tok.tag_ == "POS":
            nxt = k + 1
            while nxt < sent_end and doc[nxt].lower_ in _ARTICLES:
                nxt += 1
            if tok.lower_ in _AND and (right_label(label_at, nxt) in _LISTED or (
                    nxt < sent_end and doc[nxt].text in _LEADING_ARTICLES)):
                break  # "The Beatles and Elvis Presley", "The Who and The Kinks": a list
            if tok.lower_ in _RELATING or (
                    tok.lower_ not in _JOINERS | _AND and right_label(label_at, nxt) in _LISTED):
                break  # "The National Museum of Computing at Bletchley Park": a place, said of the name
            if tok.lower_ in _INNER_WORDS and tok.is_title:
                break  # "The Band In" ... a capitalised function word here starts something else
            k += 1
            continue
        break
    return end


def right_label(label_at: dict[int, Span], i: int) -> str:
    span = label_at.get(i)
    return span.label_ if span is not None else ""


def _article_title(doc: Doc, start: int, end: int, label_at: dict[int, Span]) -> Span | None:
    inside = {id(label_at[k]): label_at[k] for k in range(start, end) if k in label_at}
    if any(s.start < start or s.end > end for s in inside.values()):
        return None  # a name running on past the title's edge
    if len(inside) == 1 and all(k in label_at for k in range(start + 1, end) if doc[k].lower_ not in _INNER_WORDS):
        return None  # the NER's one span already
    content = [t for t in doc[start + 1 : end] if t.is_alpha and t.lower_ not in _INNER_WORDS]
    if len(content) < 2:
        return None
    span = doc[start:end]
    labels = [s.label_ for s in inside.values()]
    if "WORK_OF_ART" in labels:
        span.label_ = "WORK_OF_ART"
    elif doc[end - 1].lower_ in INSTITUTION_HEADS:
        span.label_ = "ORG"
    else:
        span.label_ = PROPN
    return span
