"""Text clean-up before parsing, date-span repair after it, and entity-name cleaning."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

_MONTHS = (
    "January|February|March|April|May|June|July|August|September|Sept|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
)
_MONTH = rf"(?:{_MONTHS})\.?"
# "11 November 875", "November 11, 1875", "11 November", "November 1875": en_core_web_sm often
# splits these (e.g. "11" CARDINAL + "November" DATE) or misses the year.
_FULL_DATE_RE = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTH}(?:,?\s+\d{{3,4}})?"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{3,4}}"
    rf"|{_MONTH}\s+\d{{3,4}})(?![\w-])"
)
_RANGE_DASHES = frozenset({"–", "—", "-", "−"})
_MONTH_RE = re.compile(rf"\b{_MONTH}(?!\w)")
_DAY_RE = re.compile(r"(?<!\d)\d{1,2}(?:st|nd|rd|th)?(?!\d)")
# A date name must say when: a number, a month, or a named period.
_DATE_WORD_RE = re.compile(
    rf"(?<!\d)\d{{3,4}}(?!\d)|\b\d0s\b|\b{_MONTH}(?!\w)|\b(?:century|centuries|decade|millennium)\b", re.IGNORECASE
)

# Corpus artefacts (2Wiki): "Teutberga( died 875)", "half- brother". Left alone, the tagger reads
# "Teutberga(" as one odd token and NER misses the name.
_PAREN_GLUE_RE = re.compile(r"(?<=[^\s(\[])\((?=\s*\w)")
_PAREN_SPACE_RE = re.compile(r"\(\s+")
# Wikipedia extracts with the pronunciation cut out: "Nolan ( ; born 30 July 1970)".
_PAREN_EMPTY_LEAD_RE = re.compile(r"\(\s*[;,]\s*")
_HYPHEN_GAP_RE = re.compile(r"(?<=[^\W\d_])- (?=[^\W\d_])")  # any letters: "Albert- Édouard"
_SPACE_RE = re.compile(r"[ \t\u00a0]+")
# Abbreviated date hedges the sentence splitter takes for a sentence's end: "( ca. 1260 – aft. 26
# December 1323)" was read as two sentences, the second with no subject. Spelt out before a number.
_DATE_HEDGES = {"ca": "circa", "aft": "after", "bef": "before", "fl": "flourished"}
_DATE_HEDGE_RE = re.compile(r"\b(ca|aft|bef|fl)\.\s*(?=\d)", re.IGNORECASE)
# "(1877–24 November 1918)", "(c. 750-818)": a range dash glued to digits makes one token.
_DIGIT_DASH_RE = re.compile(r"(?<=\d)\s*[–—]\s*(?=\d)|(?<=\b\d{3})-(?=\d{3}\b)|(?<=\b\d{4})-(?=\d{4}\b)")

_EDGE_PUNCT = " \t\n,;:!?\"'“”‘’`*|/\\-–—"
_LEADING_DETS = ("the ", "a ", "an ")
# Function words NER sometimes leaves at the end of a span: "John of", "Smith and".
_TRAILING_WORDS = frozenset({"of", "and", "or", "the", "for", "in", "at", "to", "by", "with", "a", "an"})
# A lower-case direction before a place names a part of it, not another place ("in north-west London",
# "northern France"); capitalised, it is part of the name ("North Carolina", "Northern Ireland").
_COMPASS_RE = re.compile(r"^(?:(?:north|south)(?:-?(?:east|west))?(?:ern)?|(?:east|west)(?:ern)?|central|"
                         r"mid|upper|lower|coastal|rural|metropolitan)\s+(?=[A-Z])")
_MAX_NAME_WORDS = 12
_MAX_NAME_CHARS = 120


def normalize_text(text: str) -> str:
    """Undo spacing artefacts that derail the parser; the meaning of the text is unchanged."""
    text = _PAREN_GLUE_RE.sub(" (", text)
    text = _PAREN_EMPTY_LEAD_RE.sub("(", text)
    text = _PAREN_SPACE_RE.sub("(", text)
    text = _HYPHEN_GAP_RE.sub("-", text)
    text = _DIGIT_DASH_RE.sub(" – ", text)
    text = _DATE_HEDGE_RE.sub(lambda m: _DATE_HEDGES[m.group(1).lower()] + " ", text)
    return _SPACE_RE.sub(" ", text)


# English spacing and markup (issue 23, eighth session). 2Wiki also writes a hyphen glued to the next word
# only ("Johann II of Nassau -Saarbrücken") and an ampersand glued to the word before ("Billy J. Kramer&
# The Dakotas"); the tagger reads "Nassau -Saarbrücken" as two names and "Kramer&" as one odd token.
_HYPHEN_LEAD_RE = re.compile(r"(?<=[^\W\d_]) -(?=[^\W\d_])")
_AMPERSAND_GLUE_RE = re.compile(r"(?<=\w)&(?=\s)|(?<=\s)&(?=\w)")
# Markdown italics around a title ("*Theory of Games and Economic Behavior*"): the quote marks a title's
# rules read (`name_runs.quoted_titles`); one star each side, the text inside opening with a capital,
# no star or line break inside (bold "**x**", "*args" and footnote stars are left alone).
_ITALIC_TITLE_RE = re.compile(r"(?<![\w*])\*(?=[A-Z0-9])([^*\n]{1,150}?)(?<=[^\s*])\*(?![\w*])")
# 2Wiki's gaps inside a name (issue 23, eleventh session): an Irish or Norman prefix apart from the surname
# ("Charles O' Hara", "D' Arcy", not "Stash N' Hoard"; the NER took "Charles O'" and "Hara" for two people),
# and a quoted nickname with the opening quote glued to the given name before it ('Lars Sven" Lasse"
# Hallström'; the parser read no name at all, and "Sven" became the person). Both written as the name is spelt.
_APOSTROPHE_GAP_RE = re.compile(r"(?<=\b[OD])(['’]) (?=[A-Z][a-z])")
# Not a gloss in a parenthesis ('Inka Pirqa (Quechua" Inka" Inca," pirqa" wall)'): no "(" before the given name,
# and no comma after the surname that follows the nickname.
_NICKNAME_GAP_RE = re.compile(r'(?<!\()\b([A-Z][A-Za-z]+)" ([A-Z][\w.-]*)" (?=[A-Z][\w\'-]+(?![\w\'-])(?!,))')


def normalize_english_text(text: str) -> str:
    """`normalize_text`, then the repairs only English text needs (the Chinese extractor keeps its own)."""
    text = normalize_text(text)
    text = _HYPHEN_LEAD_RE.sub("-", text)
    text = _AMPERSAND_GLUE_RE.sub(lambda m: " & " if m.group(0) == "&" else "&", text)
    text = _ITALIC_TITLE_RE.sub(r'"\1"', text)
    text = _APOSTROPHE_GAP_RE.sub(r"\1", text)
    text = _NICKNAME_GAP_RE.sub(r'\1 "\2" ', text)
    return _SPACE_RE.sub(" ", text)


def repair_dates(doc: Doc) -> None:
    """Make full dates ("11 November 875") single DATE entities, overriding partial spans, and
    split ranges ("1896 – 1981") into their two ends."""
    text = doc.text
    dates: list[Span] = []
    if _MONTH_RE.search(text) is not None:
        for match in _FULL_DATE_RE.finditer(text):
            span = doc.char_span(match.start(), match.end(), label="DATE", alignment_mode="expand")
            if span is not None:
                dates.append(span)
    for ent in doc.ents:
        if ent.label_ == "DATE" and len(ent) > 2:
            dash = next((t.i for t in ent if t.text in _RANGE_DASHES), None)
            if dash is not None and dash > ent.start and dash < ent.end - 1:
                for part in (doc[ent.start : dash], doc[dash + 1 : ent.end]):
                    if any(t.like_num for t in part):
                        part.label_ = "DATE"
                        dates.append(part)
    if not dates:
        return
    # The pattern's dates win over overlapping NER spans (which often glue two dates into one
    # range or stop before the year); other spans stay. spacy.util.filter_spans is not used
    # so that this module does not import spaCy.
    kept: list[Span] = []
    taken: set[int] = set()
    ranked = sorted(dates, key=lambda s: (-(s.end - s.start), s.start)) + list(doc.ents)
    for span in ranked:
        if not any(i in taken for i in range(span.start, span.end)):
            kept.append(span)
            taken.update(range(span.start, span.end))
    doc.ents = sorted(kept, key=lambda s: s.start)


def date_preposition(name: str) -> str:
    """'on' for a day ("on 11 November 875"), 'in' for a year, month or period."""
    if _MONTH_RE.search(name) and _DAY_RE.search(_MONTH_RE.sub(" ", name)):
        return "on"
    return "in"


_TRAILING_PARENTHESIS_RE = re.compile(r"\s*\([^)]*\)\s*$")  # "Mercury (planet)": the title's gloss
BARE_YEAR = re.compile(r"1\d{3}|20\d{2}")  # a year as a date word alone: "1971", "2005" (fullmatch)
_REGNAL_RE = re.compile(r"[IVXLC]+\.?")  # "II", "IV.": a regnal number
# A season's years as `normalize_text` spaced them: "2003 – 04".
_SEASON_RE = re.compile(r"^(\d{4}) ([–-]) (\d{2}) ")


# Labels whose names hold no finite verb in lower case (titles of works may: "Who Framed Roger Rabbit" is
# capitalised, but sentence-case titles are not, so works are left out); eleventh session.
_CLAUSE_FREE_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP"})


def clean_name(span: Span, label: str) -> str | None:
    """Surface name of an entity span, or None when it is not a usable name."""
    start, end = span.start, span.end
    doc = span.doc
    # Titles keep a capitalised article ("The Godfather"); "the Turing Award" in running text does not.
    keep_article = label == "WORK_OF_ART" and doc[start].text in ("The", "A", "An")
    while start < end and (
        doc[start].is_punct or (not keep_article and doc[start].lower_ in ("the", "a", "an"))
    ):
        start += 1
    for k in range(start, end):
        if doc[k].text in ("(", "["):  # "Philip of Cleves (1459": NER ran into a parenthesis
            end = k
            break
    while end > start and (
        doc[end - 1].is_punct or doc[end - 1].tag_ == "POS" or doc[end - 1].lower_ in _TRAILING_WORDS
    ):
        end -= 1
    if start >= end:
        return None
    name = " ".join(doc[start:end].text.split())
    last = doc[end - 1]
    if last.is_sent_end and name.endswith(".") and len(last.text) <= 4 and label not in ("DATE", "TIME"):
        name = name[:-1]  # "World War I." at the end of a sentence: the period is the sentence's
    name = _balance(name.strip(_EDGE_PUNCT))
    if not keep_article:
        lowered = name.lower()
        for det in _LEADING_DETS:
            if lowered.startswith(det):
                name = name[len(det) :]
                break
    if label == "EVENT":
        name = _SEASON_RE.sub(r"\1\2\3 ", name)  # "2003 – 04 NBA season": the season as the text writes it
    if label in ("GPE", "LOC"):
        name = _COMPASS_RE.sub("", name)  # "north-west London", "southeastern Albania": the place is London
    if not name or len(name) > _MAX_NAME_CHARS or len(name.split()) > _MAX_NAME_WORDS:
        return None
    if not any(ch.isalnum() for ch in name):
        return None
    if label in _CLAUSE_FREE_LABELS and any(
            t.tag_ in ("VBD", "VBZ") and t.text.isalpha() and t.is_lower for t in doc[start + 1 : end - 1]):
        return None  # a clause the NER took for a name: "Sabyasachi played Feluda", "Warton is Carnforth"
    if label in ("DATE", "TIME"):
        return name if _DATE_WORD_RE.search(name) else None
    # A proper name has a capital or a digit; lowercase spans are NER slips ("annual", "god").
    if not any(ch.isupper() or ch.isdigit() for ch in name):
        return None
    return name


def _balance(name: str) -> str:
    """Drop a bracket or quote left open at either end: 'Smith (' -> 'Smith'."""
    for open_, close in (("(", ")"), ("[", "]")):
        if name.count(open_) != name.count(close):
            name = name.replace(open_, " ").replace(close, " ")
            name = " ".join(name.split())
    if name.count('"') % 2:
        name = " ".join(name.replace('"', " ").split())
    return name


_TITLE_PARTICLES = frozenset({"de", "da", "del", "della", "di", "du", "van", "von", "der", "den", "la", "le", "bin",
                              "ibn", "al"})


def document_title(section: list[str], doc_id: str) -> str | None:
    """What a chunk's document is called: its first heading (Markdown, HTML) or, for corpus
    records (2Wiki, HotpotQA), its id, which is the article title; a file path is no title."""
    from kgbuild.ids import unescape_article_id  # local: names.py stays free of package imports

    if section and section[0].strip():
        title = section[0]
    elif "/" not in doc_id and "\\" not in doc_id:
        title = unescape_article_id(doc_id).split("~")[0]
    else:
        return None
    title = " ".join(_TRAILING_PARENTHESIS_RE.sub("", title).split())
    # Spaced as the text the parser reads is: "Anhalt- Bernburg" is "Anhalt-Bernburg" there.
    return normalize_english_text(title).strip() or None


def title_hint(section: list[str], doc_id: str) -> str | None:
    """The name a chunk's document is about, if it looks like a person's name.

    Used to read a bare surname ("Turing joined ...") or a "he" in a later chunk that no longer
    spells out the full name.
    """
    candidate = document_title(section, doc_id)
    if candidate is None:
        return None
    candidate = " ".join(candidate.split(",")[0].split())
    words = candidate.split()
    if not 2 <= len(words) <= 5 or any(ch.isdigit() for ch in candidate):
        return None
    last = words[-1]
    if words[0].lower() in ("the", "a", "an") or "of" in words or not last.isalpha() or not last[:1].isupper():
        return None  # "Adalbert of Tuscany": a territory, not a surname, ends the name
    if _REGNAL_RE.fullmatch(words[-1]):
        return None  # "Theodred II": a regnal number, not a surname
    if not all(w[:1].isupper() or w.lower() in _TITLE_PARTICLES for w in words):
        return None
    return candidate


def trim_sentence(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"
