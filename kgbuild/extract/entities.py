"""Named-entity mentions of a parsed chunk, with en_core_web_sm's usual slips repaired."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from kgbuild.extract.collegiate_names import college_with_town
from kgbuild.extract.facts import PROPN, Classes, Mention
from kgbuild.extract.name_edges import split_paired_people, with_company_suffix
from kgbuild.extract.name_runs import whole_names
from kgbuild.extract.names import clean_name
from kgbuild.extract.typehints import is_person_role
from kgbuild.extract.vocab import NAME_TITLES, ROMAN_NUMERALS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Labels re-voted within a chunk: the model labels one name differently from sentence to
# sentence ("Hugh" GPE, then PERSON twice); the majority is usually right.
_VOTED_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "PRODUCT", "EVENT", "NORP", "LAW"})
_YEAR_PREPS = frozenset(
    {"in", "since", "until", "till", "by", "from", "after", "before", "to", "during", "around", "circa", "c."}
)
_LINK_LABELS = frozenset({"PERSON", "GPE", "ORG", "LOC"})


def collect_mentions(
    doc: Doc, classes: Classes, title: str | None = None, document: str | None = None
) -> tuple[list[Mention], list[Mention | None], dict[int, tuple[int, int]]]:
    """Mentions in reading order, the mention covering each token (None outside any), and the
    unlabelled name runs (see `name_runs`). `title` is the person the document is about,
    `document` the document's title (a name wherever the text spells it out in full)."""
    token_mentions: list[Mention | None] = [None] * len(doc)
    mentions: list[Mention] = []
    spans = _repaired_spans(doc)
    if title is not None:
        spans = _split_title_surname(doc, spans, title)
    spans, runs = whole_names(doc, spans, _title_spans(doc, document))
    spans, runs = _within_lines(doc, spans, runs)
    spans = split_paired_people(doc, with_company_suffix(doc, spans))
    votes: dict[str, Counter[str]] = {}
    for span in spans:
        if span.label_ in _VOTED_LABELS:
            votes.setdefault(span.text, Counter())[span.label_] += 1
    for span in spans:
        label = span.label_
        if label == "CARDINAL" and _is_year(span):
            label = "DATE"
        elif label in _VOTED_LABELS and len(votes[span.text]) > 1:
            label = votes[span.text].most_common(1)[0][0]
        spg_class = classes.fallback if label == PROPN else classes.by_label.get(label)
        if spg_class is None or (label == "LANGUAGE" and span.root.dep_ == "amod"):
            continue  # "an English mathematician": a nationality, not the language
        name = clean_name(span, label)
        if name is None:
            continue
        mention = Mention(name, spg_class, label, span.start, span.end)
        mentions.append(mention)
        for i in range(span.start, span.end):
            token_mentions[i] = mention
    return mentions, token_mentions, runs


def link_surnames(
    doc: Doc, mentions: list[Mention], tok2m: list[Mention | None], title: Mention | None = None
) -> list[Mention]:
    """Point later surname-only mentions at the full name: after "Tommy Flowers", a bare
    "Flowers" (which the model tags as a plural noun, or as a PERSON of its own) is him.

    Only unambiguous surnames are linked, and never a place: "Washington" the city stays a
    place after "George Washington". `title` is the person the document is about (see
    `names.title_hint`), whose full name a later chunk may never repeat. Returns the mentions left.
    """
    by_surname: dict[str, Mention | None] = {}
    for m in mentions:
        words = m.name.split(",")[0].split()  # "John Wallop, 2nd Earl of Portsmouth": the surname is Wallop
        if m.label != "PERSON" or len(words) < 2 or not words[-1][:1].isupper():
            continue
        _add_surname(by_surname, words[-1], m)
    if title is not None:
        _add_surname(by_surname, title.name.split()[-1], title)
    surnames = {key: m for key, m in by_surname.items() if m is not None}
    dropped: set[int] = set()
    if not surnames:
        _link_given_names(mentions, tok2m, dropped, surnames)
        return [m for m in mentions if id(m) not in dropped] if dropped else mentions
    if title is not None and title.start < 0:
        _link_full_name(doc, tok2m, title, mentions, dropped)
    if title is not None:
        _link_given_name(doc, tok2m, title, mentions, dropped)
    for tok in doc:
        person = surnames.get(tok.text)
        if person is None or tok.i < person.end:
            continue
        current = tok2m[tok.i]
        prev = doc[tok.i - 1] if tok.i > 0 else None
        if prev is not None and prev.is_title and prev.tag_ in ("NNP", "NNPS") and tok2m[prev.i] is None:
            continue  # "Ertem Eğilmez" unlabelled: the end of a longer name, not a bare surname
        if current is None and tok.is_title and (tok.tag_ in ("NNP", "NNPS") or _subject_like(doc, tok)):
            tok2m[tok.i] = person  # "Flowers" (NNS), "Turing" (VBG) as subjects are names
        elif (
            current is not None and current is not person and current.name == tok.text
            and current.label in ("PERSON", "ORG", "NORP", "PRODUCT")  # "Hopper" (ORG) after "Grace Hopper"
        ):
            tok2m[tok.i] = person
            dropped.add(id(current))
        elif (
            current is not None and current is not person and current.label == "PERSON"
            and _tail_of(person.name, current.name)  # "von Neumann" after "John von Neumann"
        ):
            for i in range(current.start, current.end):
                tok2m[i] = person
            dropped.add(id(current))
    _link_given_names(mentions, tok2m, dropped, surnames)
    return [m for m in mentions if id(m) not in dropped] if dropped else mentions


ROMAN_NUMERALS_UPPER = frozenset(n.upper() for n in ROMAN_NUMERALS)


def _link_given_names(
    mentions: list[Mention], tok2m: list[Mention | None], dropped: set[int], surnames: dict[str, Mention]
) -> None:
    """ "Hank Williams ... with Hank's first wife Audrey Williams": a bare given name the NER labelled a name (a person,
    or an organisation: "Hank" was one) is the one person named in full before it with that given name, when no other
    person of the chunk has it, it is nobody's surname and the full name has no regnal number (issue 23, eighth
    session: the same entity, not a new one)."""
    by_given: dict[str, Mention | None] = {}
    for m in mentions:
        words = m.name.split()
        if m.label == "PERSON" and len(words) >= 2 and words[0][:1].isupper() and id(m) not in dropped and not any(
                w.rstrip(",.") in ROMAN_NUMERALS_UPPER for w in words):  # "Henry III": a bare "Henry" may be Henry II
            known = by_given.setdefault(words[0], m)
            if known is not m and known is not None and known.name != m.name:
                by_given[words[0]] = None  # two people share the given name: ambiguous
    for m in mentions:
        if m.label not in ("PERSON", "ORG", "NORP") or " " in m.name or id(m) in dropped or m.name in surnames:
            continue
        person = by_given.get(m.name)
        if person is None or m.start < person.end:
            continue
        for i in range(m.start, m.end):
            tok2m[i] = person
        dropped.add(id(m))


def _link_given_name(
    doc: Doc, tok2m: list[Mention | None], title: Mention, mentions: list[Mention], dropped: set[int]
) -> None:
    """ "Tostig supported ..." in the article on Tostig Godwinson: a bare given name is the person
    the document is about, unless another person in the chunk has that given name too."""
    given = title.name.split()[0]
    if not given[:1].isupper() or any(
        m.label == "PERSON" and m is not title and m.name.split()[0] == given and len(m.name.split()) > 1
        for m in mentions
    ):
        return
    for tok in doc:
        if tok.text != given or (tok.i + 1 < len(doc) and doc[tok.i + 1].tag_ in ("NNP", "NNPS")):
            continue  # "Tostig Godwinson" itself, or another name that starts the same way
        current = tok2m[tok.i]
        if current is None and tok.tag_ in ("NNP", "NNPS"):
            tok2m[tok.i] = title
        elif current is not None and current is not title and current.name == given and current.label == "PERSON":
            tok2m[tok.i] = title
            dropped.add(id(current))


def _tail_of(longer: str, shorter: str) -> bool:
    """Whether `shorter` is the surname part of `longer`: "von Neumann" of "John von Neumann", "Torre Nilsson" of
    "Leopoldo Torre Nilsson". A tail of three or more words that opens with a capitalised word has a given name of
    its own: "Karl von Kügelgen" is the father of "Konstantin Karl von Kügelgen", not his surname."""
    words = shorter.split()
    if not longer.lower().endswith(" " + shorter.lower()):
        return False
    return len(words) <= 2 or not words[0][:1].isupper()


def _same_ends(one: str, other: str) -> bool:
    """Whether two names of two or more words share their first and last words ("Jessica Capshaw", "Jessica Brooke
    Capshaw"): the same given name and surname, one with a middle name."""
    a, b = one.split(",")[0].split(), other.split(",")[0].split()
    return len(a) >= 2 and len(b) >= 2 and a[0] == b[0] and a[-1] == b[-1]


def _add_surname(by_surname: dict[str, Mention | None], key: str, person: Mention) -> None:
    """Two people sharing a surname make it ambiguous (None), unless one name is the end of the
    other ("von Neumann", "John von Neumann"): the longer one is the person."""
    known = by_surname.setdefault(key, person)
    if known is None or known.name == person.name:
        return
    if _same_ends(known.name, person.name):
        # "Colin Alexander Patterson" in the text of the page titled "Colin Patterson": one person with a middle
        # name, not two Pattersons; the name the text spells out (the earlier, real mention) is the person.
        by_surname[key] = person if known.start < 0 <= person.start else known
        return
    if _tail_of(known.name, person.name):
        return
    if _tail_of(person.name, known.name):
        by_surname[key] = person
        return
    by_surname[key] = None


def _link_full_name(
    doc: Doc, tok2m: list[Mention | None], title: Mention, mentions: list[Mention], dropped: set[int]
) -> None:
    """Occurrences of the document's title name that the NER missed or cut short."""
    text = doc.text
    at = text.find(title.name)
    while at >= 0:
        span = doc.char_span(at, at + len(title.name))
        if span is not None:
            for i in range(span.start, span.end):
                current = tok2m[i]
                if (current is not None and current is not title and current.start <= span.start
                        and current.end >= span.end and current.end - current.start > len(span)):
                    break  # "Sir Edward Wingfield Verner, 5th Baronet": the title's name is part of a longer one
                if current is not None and current is not title and current.label in ("PERSON", "ORG", "GPE", "NORP"):
                    if current.start >= span.start and current.end <= span.end:
                        dropped.add(id(current))  # "Ertem" (PERSON) inside "Ertem Eğilmez"
                    else:
                        break
                tok2m[i] = title
        at = text.find(title.name, at + len(title.name))


def _subject_like(doc: Doc, tok: Token) -> bool:
    """A subject, or a sentence opener right before a finite verb (the parser may have made
    a gerund-looking name like "Turing" the root)."""
    if tok.dep_ in ("nsubj", "nsubjpass"):
        return True
    return bool(tok.is_sent_start) and tok.i + 1 < len(doc) and doc[tok.i + 1].tag_ in ("VBD", "VBZ")


def _repaired_spans(doc: Doc) -> list[Span]:
    """NER spans with split names joined again."""
    spans: list[Span] = []
    for ent in doc.ents:
        prev = spans[-1] if spans else None
        if prev is not None and prev.end >= ent.end:
            continue  # swallowed by an extension of the previous span
        if prev is not None and prev.end > ent.start:
            if ent.label_ in _LINK_LABELS:  # a "<name> of <place>" extension ran into it
                spans[-1] = _relabel(doc[prev.start : ent.end], prev.label_)
            continue
        if (prev is not None and prev.label_ == "GPE" and ent.start == prev.end + 1 and doc[prev.end].text == ","
                and ent.text.replace(".", "") == "DC"):
            # "Washington, D.C.": one place, not a place in another
            spans[-1] = _relabel(doc[prev.start : ent.end], "GPE")
            continue
        if prev is not None and college_with_town(doc, prev, ent):
            spans[-1] = _relabel(doc[prev.start : ent.end], prev.label_)  # "King's College, Cambridge"
            continue
        if prev is not None and prev.end == ent.start and ent.label_ in _VOTED_LABELS:
            joint = doc[prev.end - 1]
            if joint.tag_ == "POS":
                # "St. Maurice's" + "Abbey": NER splits a name at its possessive.
                spans[-1] = _relabel(doc[prev.start : ent.end], ent.label_)
                continue
            if ent.label_ == "PERSON" and prev.label_ in _LINK_LABELS and not joint.is_punct and joint.whitespace_:
                # "Virginia" (GPE) + "Elizabeth Gardner" (PERSON): one name cut in two.
                spans[-1] = _relabel(doc[prev.start : ent.end], "PERSON")
                continue
        if (ent.label_ == "PERSON" and len(ent) >= 3 and ent[0].is_title and is_person_role(ent[0].lower_)
                and ent[0].lower_ not in NAME_TITLES):
            ent = _relabel(doc[ent.start + 1 : ent.end], "PERSON")  # "Guitarist Dave Mustaine": a role, then the name
        if ent.label_ == "PERSON":
            ent = _with_territory(doc, _with_regnal_number(doc, _with_given_names(doc, ent, spans[-1].end if spans
                                                                                    else 0)))
            ent = _with_style(doc, _with_suffix(doc, _with_nickname(doc, ent)))
            ent = _with_band(doc, ent)
        elif ent.label_ in _NUMBERED_LABELS:
            ent = _with_number(doc, ent)
        if ent.label_ in ("GPE", "LOC", "ORG", "NORP") and not (
                ent.start > 1 and doc[ent.start - 1].lower_ == "of" and doc[ent.start - 2].is_title
                and doc[ent.start - 2].lower_ in STYLE_TITLES):
            # "Louis" (GPE to the NER), "Dauphin of France": a person; but "John I, Lord of Polanen, Lord of
            # De Lek": a place after "of" is a title's territory
            ent = _with_style(doc, ent)
        spans.append(ent)
    return spans


# Names that take a model or series number: "UNIVAC I", "Ferranti Mark 1", "Apollo 11".
_NUMBERED_LABELS = frozenset({"ORG", "PRODUCT", "FAC", "WORK_OF_ART", "EVENT", "LAW"})


def _with_number(doc: Doc, ent: Span) -> Span:
    """A name followed by a Roman numeral or a small number that belongs to it."""
    i = ent.end
    if i >= len(doc) or doc[i].is_sent_start or doc[i].ent_type_ or not doc[i - 1].whitespace_:
        return ent
    tok = doc[i]
    numeral = tok.lower_ in ROMAN_NUMERALS and tok.is_upper
    number = tok.is_digit and len(tok.text) <= 2
    if not (numeral or number):
        return ent
    after = doc[i + 1] if i + 1 < len(doc) else None
    if after is not None and (after.tag_ in ("NN", "NNS") or after.like_num):
        return ent  # "Colossus 10 machines": a count, not part of the name
    return _relabel(doc[ent.start : i + 1], ent.label_)


def _title_spans(doc: Doc, document: str | None) -> list[Span]:
    """Where the text spells out the document's title ("Never Cry Wolf is a 1983 film"): a
    name, whatever the NER made of it; its class comes from the label the NER gave that exact
    stretch, else from a definition, else the fallback class."""
    if document is None or len(document) < 3 or document.islower() or document.isdigit():
        return []
    exact = {(e.start, e.end): e.label_ for e in doc.ents}
    found: list[Span] = []
    text = doc.text
    at = text.find(document)
    while at >= 0:
        end = at + len(document)
        span = doc.char_span(at, end)
        if span is not None and (end == len(text) or not text[end].isalnum()):
            label = exact.get((span.start, span.end), PROPN)
            span.label_ = label if label in _VOTED_LABELS else PROPN  # "Two Dollar Radio" (MONEY) is a name
            found.append(span)
        at = text.find(document, end)
    return found


# Spans that can run on into a name after them (never names of people or organisations:
# "King Harold Godwinson" in a document about Tostig Godwinson is his brother).
_RUN_ON_LABELS = frozenset({"EVENT", "DATE", "TIME", "GPE", "LOC", "NORP", "FAC", "LAW"})


def _split_title_surname(doc: Doc, spans: list[Span], title: str) -> list[Span]:
    """ "the Second World War von Neumann" (EVENT): a span that runs on into the surname of the
    person the document is about is cut before it, and the surname becomes a PERSON span."""
    words = title.split()
    surname = [w for w in words[1:] if w[:1].islower()] + words[-1:]  # "von Neumann"
    size = len(surname)
    out: list[Span] = []
    for span in spans:
        tail = [t.text for t in span[-size:]] if len(span) > size else []
        if span.label_ in _RUN_ON_LABELS and [w.lower() for w in tail] == [w.lower() for w in surname]:
            cut = span.end - size
            head = doc[span.start : cut]
            head.label_ = span.label_
            person = doc[cut : span.end]
            person.label_ = "PERSON"
            out.extend([head, person])
        else:
            out.append(span)
    return out


_QUOTES = frozenset({'"', "``", "''", "\u201c", "\u201d"})


def _with_nickname(doc: Doc, ent: Span) -> Span:
    """ 'James Allan "Jim" Mollison', 'Wesley Dean "Wes" Carr': a quoted nickname between given names and
    surname is inside the name; the NER ends the name at the quote."""
    i = ent.end
    if i + 3 >= len(doc) or doc[i].text not in _QUOTES:
        return ent
    close = next((j for j in range(i + 1, min(i + 5, len(doc))) if doc[j].text in _QUOTES), None)
    if close is None or close == i + 1 or not all(t.is_title or t.is_upper for t in doc[i + 1 : close]):
        return ent
    end = close + 1
    while end < len(doc) and doc[end].tag_ in ("NNP", "NNPS") and doc[end].is_title and not doc[end].is_upper:
        end += 1  # the surname, not a post-nominal ("MBE")
    return _relabel(doc[ent.start : end], "PERSON") if end > close + 1 else ent


_SUFFIXES = frozenset({"jr", "sr", "jnr", "snr"})


def _with_suffix(doc: Doc, ent: Span) -> Span:
    """ "Hank Williams, Jr.", "Martin Luther King Jr.": the generational suffix is part of the name (the
    NER ends the name before it and may take "Sr." for a place)."""
    i = ent.end + (1 if ent.end < len(doc) and doc[ent.end].text == "," else 0)
    if i >= len(doc) or doc[i].text.rstrip(".").lower() not in _SUFFIXES or not doc[i].text[0].isupper():
        return ent
    end = i + 1
    if not doc[i].text.endswith(".") and end < len(doc) and doc[end].text == "." and not doc[i].whitespace_:
        end += 1
    return _relabel(doc[ent.start : end], "PERSON")


def _with_given_names(doc: Doc, ent: Span, floor: int) -> Span:
    """ "Vera June" + "Miles" (PERSON): given names the NER left out but the parser attached
    to the name as compounds."""
    start = ent.start
    while start > floor:
        tok = doc[start - 1]
        if not (tok.tag_ in ("NNP", "NNPS") and tok.dep_ == "compound" and ent.start <= tok.head.i < ent.end):
            break
        if tok.lower_ in NAME_TITLES or is_person_role(tok.lower_):
            break  # "Duke", "Guitarist": a title or a role before the name, not a given name
        start -= 1
    return _relabel(doc[start : ent.end], "PERSON") if start < ent.start else ent


def _with_regnal_number(doc: Doc, ent: Span) -> Span:
    """ "King Frederick" + "I" (+ "of Denmark"), "Louis" + "XV": a ruler's number belongs to the name.
    "I" is also the pronoun, so it joins only after a title or before "of" ("King Frederick I of Denmark")."""
    i = ent.end
    if i >= len(doc) or doc[i].ent_type_ or not doc[i - 1].whitespace_ or doc[i].is_sent_start:
        return ent
    tok = doc[i]
    if tok.lower_ not in ROMAN_NUMERALS or not tok.is_upper or len(ent) > 3:
        return ent
    after = doc[i + 1].text if i + 1 < len(doc) else ""
    if tok.text == "I" and not (ent[0].lower_ in NAME_TITLES or after.lower() == "of" or _styled_after(doc, i + 1) or (
            # "John I (German: Johann I.) (15 May 1459 – ...) was": an encyclopedia's opening, a given name
            # and the numeral before the bracket; the pronoun is not followed by one.
            after == "(" and len(ent) == 1 and ent.start == doc[ent.start].sent.start)):
        return ent
    return _relabel(doc[ent.start : i + 1], "PERSON")


# Titles a person is styled by after a comma: "Louis, Dauphin of France", "John Wallop, 2nd Earl of Portsmouth".
STYLE_TITLES = frozenset({
    "duke", "duchess", "earl", "count", "countess", "baron", "baroness", "marquess", "marquis", "marchioness",
    "viscount", "viscountess", "prince", "princess", "dauphin", "dauphine", "margrave", "margravine", "landgrave",
    "elector", "electress", "archduke", "archduchess", "king", "queen", "lord", "lady", "grand duke",
})
_ORDINAL_RE = re.compile(r"^\d+(?:st|nd|rd|th)$")


def _styled_after(doc: Doc, comma: int) -> bool:
    """A comma at `comma` opens a noble style: ", Duke of Legnica", ", 4th Baronet" ("Wenceslaus I, Duke of
    Legnica": the numeral before it is the ruler's, not the pronoun)."""
    j = comma + 1
    if comma >= len(doc) or doc[comma].text != "," or j >= len(doc):
        return False
    if _ORDINAL_RE.match(doc[j].text):
        j += 1
    return j < len(doc) and doc[j].is_title and (doc[j].lower_ in STYLE_TITLES or doc[j].lower_ in BARONET_TITLES)


# Styles with no territory: "Sir Edward Wingfield Verner, 4th Baronet" (always numbered).
BARONET_TITLES = frozenset({"baronet", "baronetess"})


def _with_style(doc: Doc, ent: Span) -> Span:
    """ "Louis" + ", Dauphin of France": a noble title with its territory after a comma is part of the
    name the person is known by (2Wiki's own titles read "John Wallop, 2nd Earl of Portsmouth")."""
    i = ent.end
    if (len(ent) <= 5 and i + 2 < len(doc) and doc[i].text == "," and _ORDINAL_RE.match(doc[i + 1].text)
            and doc[i + 2].is_title and doc[i + 2].lower_ in BARONET_TITLES):
        # "Sir Edward Wingfield Verner" + ", 4th Baronet": numbered, no territory; the "Sir" and three names
        # are one person, so the length allowed is the full name's
        return _relabel(doc[ent.start : i + 3], "PERSON")
    # A person's full name may be long ("James Francis Fitz-James Stuart, 2nd Duke of Berwick"); a place or
    # organisation the NER made of a given name ("Louis" as GPE) is short.
    if len(ent) > (6 if ent.label_ == "PERSON" else 3) or i + 3 >= len(doc) or doc[i].text != "," or (
            ent[0].lower_ in STYLE_TITLES and (len(ent) == 1 or any(t.lower_ == "of" for t in ent))):
        return ent  # "Duke of Richmond, Duke of Lennox": two titles, no name ("Prince Edward, Duke of Kent" is one)
    j = i + 1
    numbered = bool(_ORDINAL_RE.match(doc[j].text))
    if numbered:
        j += 1
    if j + 2 >= len(doc) or not doc[j].is_title or doc[j].lower_ not in STYLE_TITLES:
        return ent
    of = j + 1
    if (doc[of].lower_ != "of" and of + 2 < len(doc) and doc[of].is_title and doc[of].tag_ == "NNP"
            and doc[of + 1].lower_ == "of"):
        of += 1  # "Frederick I, Count Palatine of Simmern": a two-word title
    if doc[of].lower_ != "of":
        # "Charles Stourton, 8th Baron Stourton": a numbered peerage named after a family, no "of"; the
        # number is what makes it a style and not a list ("Smith, Lord Jones and ...")
        end = of
        while numbered and end < len(doc) and end - of < 3 and doc[end].tag_ == "NNP" and doc[end].is_title:
            end += 1
        return _relabel(doc[ent.start : end], "PERSON") if end > of else ent
    end = of + 1
    while end < len(doc) and end - j <= 7 and (
            doc[end].tag_ in ("NNP", "NNPS") or (doc[end].tag_ == "HYPH" and not doc[end].whitespace_)):
        end += 1
    if end == of + 1:
        return ent
    return _relabel(doc[ent.start : end], "PERSON")


def _with_band(doc: Doc, ent: Span) -> Span:
    """ "Billy J. Kramer & The Dakotas", "Echo & the Bunnymen", "Tom Petty and The Heartbreakers": a person and a
    plural name after "&" (or "and" with a capital "The") name one band, an organisation."""
    i = ent.end
    if ent[-1].text == "&":  # the NER took the ampersand in
        i -= 1
    if i + 2 >= len(doc) or doc[i].text not in ("&", "and") or doc[i + 1].lower_ != "the":
        return ent
    if doc[i].text == "and" and doc[i + 1].text != "The":
        return ent  # "Eckert and the Moore School": a list
    end = i + 2
    while end < len(doc) and doc[end].tag_ in ("NNP", "NNPS") and doc[end].is_title and doc[end].ent_type_ not in (
            "GPE", "LOC"):
        end += 1
    if end == i + 2 or not doc[end - 1].lower_.endswith("s"):
        return ent  # a band is plural: "The Dakotas", "the Heartbreakers"
    return _relabel(doc[ent.start : end], "ORG")


def _with_territory(doc: Doc, ent: Span) -> Span:
    """ "Adalbert II" + "of Tuscany" -> "Adalbert II of Tuscany", for names that take a territory.

    Only regnal and noble names do ("Berengaria of Castile", "Duke Alexander of Württemberg");
    "Tim Cook of Apple" is a person and an affiliation, so two-word modern names are left alone.
    """
    first, last = ent[0].lower_, ent[-1].lower_
    if ent.start > 0 and doc[ent.start - 1].lower_ in NAME_TITLES and doc[ent.start - 1].is_title:
        ent = _relabel(doc[ent.start - 1 : ent.end], "PERSON")  # "Prince" + "Friedrich Wilhelm Karl" (+ "of Prussia")
        first = ent[0].lower_
    if not (len(ent) == 1 or last in ROMAN_NUMERALS or first in NAME_TITLES):
        return ent
    i = ent.end
    if i + 1 >= len(doc) or doc[i].lower_ != "of" or doc[i + 1].tag_ not in ("NNP", "NNPS"):
        return ent
    end = i + 1
    while end < len(doc) and end - i <= 6:
        tok = doc[end]
        if tok.tag_ in ("NNP", "NNPS") or (tok.tag_ == "HYPH" and not tok.whitespace_ and not doc[end - 1].whitespace_):
            end += 1
        else:
            break
    return _relabel(doc[ent.start : end], "PERSON")


def _line_pieces(doc: Doc, start: int, end: int) -> list[tuple[int, int]]:
    """doc[start:end] cut at its line breaks (spaCy makes every newline a whitespace token of its own), each
    piece without the whitespace at its ends; empty pieces left out."""
    breaks = [i for i in range(start, end) if doc[i].is_space and "\n" in doc[i].text]
    bounds = [start, *(bound for cut in breaks for bound in (cut, cut + 1)), end]
    pieces = []
    for lo, hi in zip(bounds[::2], bounds[1::2], strict=True):
        while lo < hi and doc[lo].is_space:
            lo += 1
        while hi > lo and doc[hi - 1].is_space:
            hi -= 1
        if hi > lo:
            pieces.append((lo, hi))
    return pieces


def _within_lines(doc: Doc, spans: list[Span], runs: dict[int, tuple[int, int]]
                  ) -> tuple[list[Span], dict[int, tuple[int, int]]]:
    """Names and unlabelled name runs cut at line breaks. The readers join a paragraph's wrapped lines with
    spaces, so a line break inside a chunk ends a list item or a table row: the tagger reads the list "Alan
    Turing / John von Neumann" as one PERSON "Alan Turing John von Neumann" otherwise."""
    if "\n" not in doc.text:
        return spans, runs  # most chunks: nothing to cut
    cut: list[Span] = []
    for span in spans:
        for lo, hi in _line_pieces(doc, span.start, span.end):
            cut.append(span if (lo, hi) == (span.start, span.end) else _relabel(doc[lo:hi], span.label_))
    pieces = {run: _line_pieces(doc, *run) for run in set(runs.values())}
    cut_runs = {i: piece for i, run in runs.items() for piece in pieces[run] if piece[0] <= i < piece[1]}
    return cut, cut_runs


def _relabel(span: Span, label: str) -> Span:
    span.label_ = label
    return span


def _is_year(span: Span) -> bool:
    """A bare number read as CARDINAL that is a year by its context: "in 931", "died after 938"."""
    if len(span) != 1:
        return False
    tok = span[0]
    text = tok.text
    if not (text.isdigit() and 3 <= len(text) <= 4 and 100 <= int(text) <= 2100):
        return False
    if tok.dep_ == "conj" and tok.head.like_num:  # "in 928 or 929"
        tok = tok.head
    return (tok.dep_ == "pobj" and tok.head.lower_ in _YEAR_PREPS) or tok.dep_ == "npadvmod"
