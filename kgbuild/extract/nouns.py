"""What nouns say about an entity: relational nouns ("the capital of Y", "Y's half-brother"),
definitions after a copula or in an apposition ("X is a Hungarian-American film director",
"Alan Turing, a British mathematician") giving semantic type, nationality and description."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from kgbuild.extract.arguments import is_hyphen
from kgbuild.extract.chunk_state import ChunkState, Qualifier, conjuncts, listed
from kgbuild.extract.coordination import written_noun_list
from kgbuild.extract.entities import STYLE_TITLES
from kgbuild.extract.facts import CONCEPT, PROPN, Mention
from kgbuild.extract.held_titles import TITLE_PREDICATE, territory, title_node, titled_name
from kgbuild.extract.name_lists import continue_list
from kgbuild.extract.names import BARE_YEAR
from kgbuild.extract.subjects import verb_subjects
from kgbuild.extract.typehints import class_hint, is_person_role
from kgbuild.extract.vocab import (
    AGENT_NOUN_VERBS,
    NOUN_TAGS,
    PLACE_NOUNS,
    PLAYER_NOUNS,
    PROPER_TAGS,
    REL_NOUN_PREPS,
    ROMAN_NUMERALS,
    TITLE_NOUNS,
    WORK_NOUN_VERBS,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def noun_relations(
    state: ChunkState, subjects: list[Mention], noun: Token, qualifiers: list[Qualifier] | None = None
) -> bool:
    """ "X was the capital of Y", "Y's half-brother", "Bertha, daughter of Lothair II"."""
    if noun.tag_ in PROPER_TAGS and noun.lower_ not in TITLE_NOUNS and not titled_name(noun):
        return False
    found = _based_in(state, subjects, noun)
    phrase: str | None = None
    for child in _shared_preps(state, noun):
        dep = child.dep_
        made = WORK_NOUN_VERBS.get(state.lemma(noun)) if dep == "prep" and child.lower_ == "by" else None
        if made is not None:
            # "the third studio album by Hungarian heavy metal band Wisdom": Wisdom made it.
            makers = [m for pobj in child.children if pobj.dep_ == "pobj"
                      for m in (state.named(t) for t in conjuncts(pobj)) if m is not None and not m.is_place]
            for maker in makers:
                for subject in subjects:
                    if subject is not maker:
                        state.triple(maker, made, subject, qualifiers or [])
                        found = True
            continue
        if dep == "prep" and child.lower_ == "about" and (
                state.lemma(noun) in WORK_NOUN_VERBS or state.lemma(noun) in _ABOUT_WORKS):
            # "a 1942 biopic about aviator Amy Johnson", "a book about Enigma": what the work is about, named.
            prep = "about"
            targets = [m for pobj in child.children if pobj.dep_ == "pobj"
                       for m in (state.named(t) for t in conjuncts(pobj)) if m is not None]
        elif dep == "prep" and child.lower_ in REL_NOUN_PREPS:
            prep = child.lower_
            targets = [
                m for pobj in child.children if pobj.dep_ == "pobj"
                for m in (state.object(t, False) for t in place_chain_head(state, pobj) or conjuncts(pobj))
                if m is not None and not m.is_date
            ]
            if prep == "of" and titled_name(noun):
                pobjs = [t for pobj in child.children if pobj.dep_ == "pobj" for t in conjuncts(pobj)]
                targets = [territory(state, noun, t, m) for t in pobjs
                           if (m := state.object(t, False)) is not None and not m.is_date]
        elif dep == "poss":
            prep = "of"
            targets = [m for m in (state.named(t) for t in conjuncts(child)) if m is not None]
        else:
            continue
        if not targets:
            continue
        if phrase is None:
            # "an Anglo-Saxon Earl of Northumbria": the nationality is no part of the relation
            phrase = " ".join(w for w in noun_phrase(state, noun, hyphen_adjectives=True).split()
                              if w not in _nationality_words(state, noun)) or state.lemma(noun)
        for target in targets:
            if prep in ("in", "near") and target.is_place and (
                state.lemma(noun) in PLACE_NOUNS or not any(state.is_person(m) for m in subjects)
            ):
                predicate = f"located {prep}"  # "a country house in Buckinghamshire": where it is
            elif prep == "about":
                predicate = "about"
            elif prep == "from":
                predicate = "from"  # "a heavy metal band from Copenhagen", "a racing driver from Northern Ireland"
            elif prep == "for" and phrase.split()[-1] in PLAYER_NOUNS and not target.is_place:
                predicate = "play for"  # "a rugby league footballer for the Newcastle Knights"
            elif prep == "of" and phrase.split()[-1] in AGENT_NOUN_VERBS:
                predicate = AGENT_NOUN_VERBS[phrase.split()[-1]]  # "the founder of Y": (X, found, Y)
            else:
                predicate = f"{phrase} {prep}"
            title = title_node(state, noun, target) if prep == "of" else None
            for subject in subjects:
                state.triple(subject, predicate, target, qualifiers or [])
                words = subject.name.split()
                if title is not None and not (words[0].lower() in STYLE_TITLES and words[1:2] == ["of"]):
                    # (not for a subject that is itself a bare title: "Archduke of Austria" read as a name)
                    state.triple(subject, TITLE_PREDICATE, title, qualifiers or [])
                found = True
    return found


def _based_in(state: ChunkState, subjects: list[Mention], noun: Token) -> bool:
    """ "a New York-based film producer", "a Los Angeles based singer-songwriter": the place the "based" before
    the noun names is where the subject is based (eleventh session): (X, based in, New York)."""
    found = False
    for based in (c for c in noun.children if c.dep_ == "amod" and c.lower_ == "based"):
        for place in (m for c in based.children if c.dep_ in ("npadvmod", "compound", "nmod")
                      for m in (state.named(t) for t in conjuncts(c)) if m is not None and m.is_place):
            for subject in subjects:
                if subject is not place:
                    state.triple(subject, "based in", place, [])
                    found = True
    return found


# Works that are about something, beside those `WORK_NOUN_VERBS` names a maker's verb for.
_ABOUT_WORKS = frozenset({"biopic", "documentary", "movie", "series", "song", "story", "drama", "comedy", "musical",
                          "programme", "program", "show", "episode", "biography", "study", "history"})


def _shared_preps(state: ChunkState, noun: Token) -> list[Token]:
    """The noun's children, and for a role (or kin noun) in a list of them without a preposition of its own,
    the "of" of the last one: "the founder, lead guitarist, singer, and songwriter of the band Porcupine Tree",
    "the lead vocalist and primary songwriter of the rock band Collective Soul"."""
    children = list(noun.children)
    if any(c.dep_ in ("prep", "poss") for c in children) or not _role_or_kin(state, noun):
        return children
    later = [c for c in noun.conjuncts if c.i > noun.i]
    if not later or not all(_role_or_kin(state, c) for c in later):
        return children
    return children + [p for p in later[-1].children if p.dep_ == "prep" and p.lower_ == "of"]


def _role_or_kin(state: ChunkState, noun: Token) -> bool:
    """A person's role or a kin noun: "the fifth child and second daughter of Constantine I" shares the "of"."""
    return is_person_role(state.lemma(noun)) or _kin(state.lemma(noun))


def noun_phrase(state: ChunkState, noun: Token, hyphen_adjectives: bool = False) -> str:
    """Compound nouns and hyphenated pieces plus the head's lemma: "film director",
    "half-brother" (with hyphen_adjectives), "father-in-law"."""
    doc = state.doc
    j = noun.i - 1
    while j >= 0:
        left = doc[j]
        if not left.whitespace_ and (is_hyphen(left) or is_hyphen(doc[j + 1])):
            if not (
                is_hyphen(left) or left.tag_ in NOUN_TAGS or (hyphen_adjectives and left.tag_ == "JJ")
                or (noun.tag_ in PROPER_TAGS and left.tag_ in PROPER_TAGS)
            ):
                break
            j -= 1
        elif (
            left.dep_ == "compound" and state.tok2m[j] is None and j < left.head.i <= noun.i
            and (left.tag_ in NOUN_TAGS or (noun.tag_ in PROPER_TAGS and left.tag_ in PROPER_TAGS))
        ):
            j -= 1  # "film director"; "First Lady", "Prime Minister" for capitalised titles
        else:
            break
    while j + 1 < noun.i and is_hyphen(doc[j + 1]):
        j += 2  # "four-lane road": the first piece was left out, so leave the whole word out
    end = noun.i + 1
    while (
        end + 1 < len(doc) and not doc[end - 1].whitespace_ and is_hyphen(doc[end])
        and not doc[end].whitespace_ and doc[end + 1].is_alpha
    ):
        end += 2
    if end > noun.i + 1:
        return doc[j + 1 : end].text.lower()
    prefix = "".join(t.text_with_ws for t in doc[j + 1 : noun.i]).lower()
    return prefix + state.lemma(noun)


def _nationality_words(state: ChunkState, noun: Token) -> set[str]:
    return {w.lower() for n in _nationality(state, noun) for w in n.split()}


def _nationality(state: ChunkState, noun: Token) -> list[str]:
    """NORP modifiers with their hyphenated pieces: "Hungarian-American", "American-born"."""
    doc = state.doc
    found: list[str] = []
    k = noun.left_edge.i
    while k < noun.i:
        if doc[k].ent_type_ in ("NORP", "LANGUAGE"):  # the model often reads "English" as a language
            e = k
            while e + 1 < noun.i and (not doc[e].whitespace_ or doc[e + 1].ent_iob_ == "I"):
                e += 1  # "Hungarian-American", "West German"
            found.append(doc[k : e + 1].text)
            k = e + 1
        else:
            k += 1
    return found


# Words for people that say nothing of what they do: "one of thirty-two women Master Sommeliers" is no type.
_GENERIC_PEOPLE = frozenset({"woman", "man", "person", "people", "girl", "boy", "child", "individual"})


def _type_from(state: ChunkState, subjects: list[Mention], noun: Token, more: list[Token] | None = None,
               further: bool = False) -> None:
    """semantic_type, nationality, description (and a class fix) from "X is a Hungarian-American film director";
    `more` are the nouns coordinated with it ("a film director, producer, and screenwriter"): further types."""
    semantic_type = noun_phrase(state, noun)
    more_types = _more_types(state, more or [])
    nationality = _nationality(state, noun)
    sentence = state.sentence(noun)
    hint = class_hint(semantic_type)
    hinted = state.classes.by_hint.get(hint) if hint else None
    for subject in subjects:
        if subject.is_date or subject.label == CONCEPT:
            continue
        if subject.semantic_type is not None:
            if further and class_hint(semantic_type) is not None and not _kin(semantic_type.split()[-1]) and (
                    semantic_type.split()[-1] not in _GENERIC_PEOPLE):
                # "He is one of the highest-grossing directors ..., and among the most acclaimed filmmakers": a
                # class the subject is one of is a further type; the first definition keeps deciding the class
                # and the description. (Other later nouns are often relational: "wife", "member", "remake".)
                for kind in (semantic_type, *more_types):
                    subject.add_type(kind, sentence)
            continue
        if id(subject) in state.birthplaces:
            continue  # "X (born 1965 in Kingston), ... is a singer" parsed with Kingston as subject
        for kind in (semantic_type, *more_types):
            subject.add_type(kind, sentence)
        subject.nationality.extend(n for n in nationality if n not in subject.nationality)
        if hinted is not None and not subject.class_fixed:
            subject.spg_class = hinted
            subject.class_fixed = True
        state.use(subject)
    if hint == "Work":
        # "X is a 1983 American drama film": the year a work is dated by is when it came out.
        for child in noun.children:
            year = state.tok2m[child.i]
            if year is not None and year.is_date and child.i < noun.i:
                for subject in subjects:
                    if subject.semantic_type == semantic_type:
                        state.triple(subject, "released in", year, [])


# Nouns that say how one stands to something else, whatever the parse hangs on them ("and member of
# the U.S. State Department"): never a further type.
_RELATIONAL_NOUNS = frozenset({"member", "friend", "part", "partner", "colleague", "rival", "ally", "relative",
                               "cousin", "nephew", "niece", "update", "version", "successor", "predecessor"})


def _more_types(state: ChunkState, nouns: list[Token]) -> list[str]:
    """The types coordinated nouns name. A noun the parser made a conjunct right before another
    one is that one's modifier ("screenwriter and stage (conj) actor (conj)": a stage actor); a
    relational noun ("and friend of Edmund Spenser", "member of the House of X") is a relation, not
    a type, unless it is a known kind ("President of Yale College")."""
    out: list[str] = []
    prefix = ""
    for k, noun in enumerate(nouns):
        if k + 1 < len(nouns) and nouns[k + 1].i == noun.i + 1:
            prefix += noun.lower_ + " "
            continue
        relational = any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children) or (
            state.lemma(noun) in _RELATIONAL_NOUNS)
        if not relational or class_hint(state.lemma(noun)) is not None:
            out.append(prefix + noun_phrase(state, noun))
        prefix = ""
    return out


def _type_nouns(state: ChunkState, noun: Token) -> list[Token]:
    """The common nouns coordinated with a defining noun, it first: "a mathematician and writer"
    (a named conjunct is not a type: "a Princess of Scotland and the Dauphine of France" is read
    as relations)."""
    found = [t for t in conjuncts(noun) if (t.tag_ in NOUN_TAGS or _kind_conjunct(t)) and t.is_alpha
             and state.tok2m[t.i] is None]
    found += [t for t in _listed_appositions(state, found) if t not in found]
    return found + _written_types(state, noun, found)


def _written_types(state: ChunkState, noun: Token, found: list[Token]) -> list[Token]:
    """The rest of a type list as written, where the parser misread it ("an American playwright, screenwriter
    (amod of author), novelist, and short-story author (appos)"): the commas and the closing "and" still name
    its members (coordination.written_noun_list)."""
    written: list[Token] = []
    for member in written_noun_list(noun):
        head = member[-1]
        if not head.is_alpha or state.tok2m[head.i] is not None or head in found:
            continue
        # the nouns before the head that the parse did not make its compounds ("film (amod) producer"), so that
        # _more_types reads them as its prefix: "film producer", "radio broadcaster"
        written.extend(t for t in member[:-1] if t.tag_ in NOUN_TAGS and t.whitespace_ and t not in found
                       and not (t.dep_ == "compound" and t.head == head))
        written.append(head)
    return sorted(written, key=lambda t: t.i)


def _listed_appositions(state: ChunkState, nouns: list[Token]) -> list[Token]:
    """The rest of a type list the parser hung on the first noun as an apposition: "a German journalist,
    film director (appos), film producer (conj), and actor (conj)". Only a bare common noun that itself
    opens a coordination counts ("a writer, a friend of X" has its article and is no list item)."""
    out: list[Token] = []
    for noun in nouns:
        for child in noun.children:
            if (child.dep_ == "appos" and child.i > noun.i and child.tag_ in ("NN", "NNS") and child.is_alpha
                    and state.tok2m[child.i] is None
                    and not any(c.dep_ in ("det", "poss", "nummod") for c in child.children)
                    and any(c.dep_ == "conj" for c in child.children)):
                out.extend(t for t in conjuncts(child) if t.tag_ in ("NN", "NNS") and t.is_alpha
                           and state.tok2m[t.i] is None)
    return out


def _kind_conjunct(tok: Token) -> bool:
    """A known kind noun the tagger read as a verb at the end of a list ("producer, and screenwriter")."""
    return tok.dep_ == "conj" and tok.tag_.startswith("VB") and class_hint(tok.lower_) is not None


def _indefinite(noun: Token) -> bool:
    """ "a film", and "the third studio album", "the first woman", "the largest city", "the only studio album", "the
    third-largest pizza chain": one of a kind (picked out by its rank), so a type."""
    children = list(noun.children)
    # "a woman's magazine", "a children's book": the article belongs to the generic possessor
    children += [d for c in children if c.dep_ == "poss" and c.tag_ in ("NN", "NNS") for d in c.children]
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in children) or (
        any(c.dep_ == "det" and c.lower_ == "the" for c in children)
        and any(c.dep_ == "amod" and (c.ent_type_ == "ORDINAL" or c.tag_ == "JJS" or c.lower_ in _RANK_WORDS)
                for c in children))


# Adjectives that pick one of a kind out by rank, as an ordinal or a superlative does ("the only studio album").
_RANK_WORDS = frozenset({"debut", "last", "final", "only", "sole"})


_CHILD_NOUNS = frozenset({"son", "daughter", "child"})
_SPOUSE_NOUNS = frozenset({"wife", "husband", "consort", "spouse", "mistress"})


def _other_parent(state: ChunkState, subjects: list[Mention], noun: Token, children: list[Token]) -> None:
    """ "He was the third son of Bernhard I, ..., by his wife Princess Sophie": the child of her too."""
    for by in (c for c in [*children, *noun.children] if c.dep_ == "prep" and c.lower_ == "by"):
        for spouse in (p for p in by.children if p.dep_ == "pobj" and state.lemma(p) in _SPOUSE_NOUNS):
            parents = [m for m in (state.named(t) for t in spouse.children if t.dep_ in ("appos", "compound"))
                       if m is not None and state.is_person(m)]
            for parent in parents:
                for subject in subjects:
                    if subject is not parent:
                        state.triple(subject, f"{state.lemma(noun)} of", parent, [])


def _one_of(attr: Token) -> list[Token]:
    """ "one of the railway stations serving ...": the plural nouns a "one of" picks from; also "among the most
    acclaimed filmmakers of ..." (the parser makes "among" a conjunct of the copula or its preposition)."""
    if attr.lower_ == "among" and attr.dep_ in ("prep", "conj"):
        return [p for p in attr.children if p.dep_ == "pobj" and p.tag_ == "NNS"]
    if attr.lower_ != "one":
        return []
    return [p for prep in attr.children if prep.dep_ == "prep" and prep.lower_ == "of"
            for p in prep.children if p.dep_ == "pobj" and p.tag_ == "NNS"]


def copula(
    state: ChunkState, children: list[Token], subjects: list[Mention], lemma: str,
    qualifiers: list[Qualifier] | None = None,
) -> None:
    if lemma == "be":
        for among in (c for c in children if c.dep_ in ("prep", "conj") and c.lower_ == "among"):
            for kind in _one_of(among):  # "He is ... among the most successful filmmakers of the 21st century"
                if not noun_relations(state, subjects, kind, qualifiers):  # "among the founders of the Academy"
                    _type_from(state, subjects, kind, further=True)
    for attr in (c for c in children if c.dep_ == "attr"):
        if (owner := _stray_apposition_owner(state, attr, children)) is not None:
            if _indefinite(attr) or _definite_kind(state, attr):
                _type_from(state, [owner], attr, _type_nouns(state, attr)[1:])
            continue
        if lemma == "be" and (kinds := _one_of(attr)):
            for kind in kinds:  # one of a kind is of that kind: "is one of the leading directors"
                _type_from(state, subjects, kind, further=True)
            continue
        typed = lemma == "be" and _indefinite(attr)
        type_nouns: list[Token] = []
        more = True  # coordinated types go on until a noun with a determiner of its own
        for noun in conjuncts(attr):
            if noun is not attr and any(c.dep_ in ("det", "poss") and c.lower_ not in ("a", "an")
                                        for c in noun.children):
                more = False  # "an airport ... of Maputo, the largest city and capital": another thing's
            if noun is not attr and _kind_conjunct(noun) and more:
                type_nouns.append(noun)  # "producer, and screenwriter (VB)": the tagger's slip
                continue
            if state.tok2m[noun.i] is not None or noun.tag_ not in NOUN_TAGS | PROPER_TAGS or not noun.is_alpha:
                continue  # "Hugh was Guy": identity or a mislabel, not a relation
            related = noun_relations(state, subjects, noun, qualifiers)
            if related and state.lemma(noun) in _CHILD_NOUNS:
                _other_parent(state, subjects, noun, children)
            elif related and not typed and _office(state, noun):
                # "X is the president of Y", "he was Governor of Silesia": the office is also what X is
                # (docs/extract_gold.md rule 9 states both), as "X, the president of Y" already types X.
                _type_from(state, subjects, noun, further=True)
            if typed and (noun.tag_ in NOUN_TAGS or noun.lower_ in TITLE_NOUNS) and (more or not type_nouns):
                type_nouns.append(noun)  # "an Earl of Northumbria"
        if type_nouns and type_nouns[0] is attr:
            type_nouns += [t for t in _listed_appositions(state, [attr]) if t not in type_nouns]
            type_nouns += _written_types(state, attr, type_nouns)
        if type_nouns:  # "is a film director, producer, and screenwriter": every one is a type
            _type_from(state, subjects, type_nouns[0], type_nouns[1:])


def _office(state: ChunkState, noun: Token) -> bool:
    """A person's office or rank (president, governor, duke, mayor), not a kin noun ("the son of Y" types no one)."""
    word = state.lemma(noun).lower()
    return is_person_role(word) and not _kin(word)


def _stray_apposition_owner(state: ChunkState, attr: Token, children: list[Token]) -> Mention | None:
    """The name a second attribute of a copula stands beside: "During the war it was the main site of the
    Government Code and Cypher School, the British codebreaking organisation" (the parser hangs the
    apposition on "was"). It follows a comma right after a name inside the first attribute's phrase."""
    first = next((c for c in children if c.dep_ == "attr"), None)
    comma = attr.left_edge.i - 1
    if first is None or first.i >= attr.i or comma < 1 or state.doc[comma].text != ",":
        return None
    owner = state.tok2m[comma - 1]
    if owner is None or owner.is_date or owner.end != comma or owner.start <= first.i:
        return None
    return owner


def apposition(state: ChunkState, tok: Token) -> None:
    """ "Alan Turing, a British mathematician" and "Hucbert, the lay-abbot of St. Maurice's Abbey"."""
    if state.tok2m[tok.i] is not None or tok.tag_ not in NOUN_TAGS | PROPER_TAGS or not tok.is_alpha:
        return
    subject = state.named(tok.head)
    if subject is None:
        return
    subjects = [subject]
    outer = tok.head.head.head if tok.head.dep_ == "pobj" and tok.head.head.lower_ == "of" else None
    if outer is not None and _kin(state.lemma(tok)) and _kin(state.lemma(outer)):
        # "She is the granddaughter of A, the daughter of B and half-sister of C": the parser hangs the
        # second kin noun on A, but it goes on the list of what she is.
        if outer.dep_ != "attr" or not outer.head.tag_.startswith("VB"):
            return
        subjects = verb_subjects(state, outer.head)[0]
        for noun in conjuncts(tok):
            noun_relations(state, subjects, noun)
        return
    if tok.tag_ == "NNS":
        # "John Mauchly and Presper Eckert, the designers of ENIAC": a plural says it of every name.
        subjects.extend(m for m in (state.named(t) for t in tok.head.conjuncts) if m is not None and m not in subjects)
    related = noun_relations(state, subjects, tok)
    if not related and tok.tag_ in NOUN_TAGS and (_indefinite(tok) or _definite_kind(state, tok)):
        _type_from(state, subjects, tok, _type_nouns(state, tok)[1:])  # "an English mathematician and writer"


def _definite_kind(state: ChunkState, noun: Token) -> bool:
    """ "Hut 8, the section that attacked ...", "the Government Code and Cypher School, the British codebreaking
    organisation": a definite apposition with no relation in it says what the name is, as "a" would (not a
    kin noun, "his brother", nor "the head of ..." with an object no name stands for)."""
    return (any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)
            and not any(c.dep_ in ("poss", "prep") for c in noun.children)
            and not _kin(state.lemma(noun)) and noun.lower_ not in TITLE_NOUNS)


def _kin(noun: str) -> bool:
    """A kin noun, with its prefixes: "granddaughter", "half-sister", "stepson"."""
    return any(noun == k or noun.endswith(("-" + k, "grand" + k, "step" + k)) for k in _KIN_NOUNS)


def possessed_work(state: ChunkState, noun: Token) -> None:
    """ "His book with the economist Oskar Morgenstern, Theory of Games and Economic Behavior":
    the owner (and the people it was made "with") made the named work: (he, write, T).

    The work's name is the first named non-person in the noun's phrase (the parser may hang it
    on a co-author: "the economist ..., Theory ..." as an apposition of "economist").
    """
    verb = WORK_NOUN_VERBS.get(state.lemma(noun))
    if verb is None:
        return
    owners = [m for m in (state.subject(c) for c in noun.children if c.dep_ == "poss") if m is not None]
    if not owners or not all(state.is_person(m) for m in owners):
        return
    work: Mention | None = None
    makers = list(owners)
    for tok in noun.subtree:
        if tok.i <= noun.i:
            continue
        mention = state.tok2m[tok.i]
        if mention is None and tok.tag_ in PROPER_TAGS:
            mention = state.proper(tok)
        if mention is None or mention.is_date:
            continue
        if mention.label == "PERSON":
            if any(a.lower_ == "with" for a in tok.ancestors if a.i > noun.i) and mention not in makers:
                makers.append(mention)
        elif work is None and not mention.is_place:
            work = mention
    if work is None:
        return
    for maker in makers:
        state.triple(maker, verb, work, [])


def name_after(state: ChunkState, noun: Token) -> tuple[int, Mention | None]:
    """The token right after `noun` (past an opening quote) and the name covering it, if any."""
    doc = state.doc
    j = noun.i + 1
    if j < len(doc) and doc[j].is_quote:
        j += 1
    return j, state.tok2m[j] if j < len(doc) else None


def possessed_title(state: ChunkState, noun: Token) -> None:
    """ 'Farley Mowat's 1963 autobiography "Never Cry Wolf"', "Isabelle Holland's 1972 novel of the same
    name": the owner made the work whose title follows the noun (or, "of the same name", the work the
    passage is about), in the year before the noun. The NER often takes an author for a place or a
    company ("Holland" GPE, "Farley Mowat" ORG); a written work's owner is a person."""
    verb = WORK_NOUN_VERBS.get(state.lemma(noun))
    if verb is None:
        return
    owners = [m for c in noun.children if c.dep_ == "poss"
              for m in [state.subject(c) or _sentence_person(state, c)] if m is not None]
    owners = [m for m in owners if not m.is_date and (state.is_person(m) or (
        verb in ("write", "record") and m.label in ("ORG", "GPE", PROPN) and not m.class_fixed
        and len(m.name.split()) > 1))]
    if not owners:
        return
    doc = state.doc
    j, title = name_after(state, noun)
    if title is None and j < len(doc) - 1 and doc[j].text == "," and doc[j + 1].is_quote:
        title = _quoted_apposition(state, noun)  # 'for her seventh studio album, "Lotus" (2012)'
        if title is not None and any(title.name == owner.name for owner in owners):
            return  # 'his fourteenth album, "Ryan Adams"': one mention for the man and the work; no type for him
    same_name = False
    if title is not None and (state.tok2m[j - 1] is title or title.is_date or title.is_place or (
            title.spg_class == state.classes.person and not doc[j - 1].is_quote)):  # a quoted title is no person
        title = None
    if title is None and doc[noun.i + 1 : noun.i + 5].text.lower() == "of the same name":
        about = state.topic or state.document_thing
        if about is not None and about.spg_class != state.classes.person:
            title, same_name = about, True
    if title is None:
        return
    year = next((m for c in noun.children if c.dep_ == "nummod" and c.i < noun.i
                 for m in [state.tok2m[c.i]] if m is not None and m.is_date), None)
    if not same_name:  # the film "of the same name" is not the novel: no type for it
        title.add_type(noun_phrase(state, noun), state.sentence(noun))
    for owner in owners:
        if verb == "write" and not state.is_person(owner):
            owner.guess_class(state.classes.person)
        state.triple(owner, verb, title, [("in", year)] if year is not None else [])


def _sentence_person(state: ChunkState, poss: Token) -> Mention | None:
    """The one person named before "his"/"her" in its own sentence, when the pronoun rule found none (a passage
    about a song has no person subject): '"Make the World Move" is a song recorded by American singer Christina
    Aguilera for her seventh studio album' is hers. Two people named there make it ambiguous: no owner."""
    if poss.lower_ not in ("his", "her"):
        return None
    start = state.sentence_start(poss.i)
    people = {m.name: m for m in state.mentions
              if start <= m.start and m.end <= poss.i and not m.is_date and state.is_person(m)}
    return next(iter(people.values())) if len(people) == 1 else None


def _quoted_apposition(state: ChunkState, noun: Token) -> Mention | None:
    """The quoted name after "<noun>, " when the parse makes it the noun's apposition: the comma alone may open a
    list or a clause ("his first album, "X", and ..." still is one); an unquoted name after a comma may be anything
    ("her novel, Paris, ...")."""
    _, title = name_after(state, state.doc[noun.i + 1])
    if title is None or not any(state.doc[k].dep_ == "appos" and state.doc[k].head.i == noun.i
                                for k in range(title.start, title.end)):
        return None
    return title


# Administrative kinds written after a place's name ("Pas-de-Calais department") that PLACE_NOUNS lacks.
_AREA_NOUNS = frozenset({"department", "state", "prefecture", "oblast", "voivodeship", "governorate", "canton"})


def place_chains(state: ChunkState) -> None:
    """ "Wilmslow, Cheshire", "Lima, Pepin County, Wisconsin": each place of a comma chain lies
    in the next. A run that ends a list ("France, Germany, Italy and Spain") is a list, not a chain."""
    doc = state.doc
    places = [m for m in state.mentions if (m.is_place or m.spg_class == state.classes.place) and m.start >= 0
              and not m.is_date]  # "the town Boulogne-sur-Mer" (PERSON to the NER), retyped by `kind_prefixes`
    places.sort(key=lambda m: m.start)
    starts = {m.start: m for m in places}
    chain: dict[int, Mention] = {}  # place -> the place after it in a bare comma chain
    for left, right in pairwise(places):
        comma = left.end
        while comma < right.start and state.lemma(doc[comma]) in PLACE_NOUNS | _AREA_NOUNS:
            comma += 1  # "Pas-de-Calais department, northern France"
        gap = right.start - comma
        if doc[comma].text != "," or not (gap == 1 or (gap == 2 and doc[comma + 1].lower_ == "in")):
            continue  # "Dollis Hill, in north-west London" is a chain too
        end = right.end
        while end + 1 < len(doc) and doc[end].text == "," and (nxt := starts.get(end + 1)) is not None:
            end = nxt.end  # "Drenovë, Korçë, Lekas, ... and Voskopojë": read to the end of the run
        after = doc[end] if end < len(doc) else None
        # an "and" before a verb joins clauses, not places: "born in Faversham, Kent, and died in ..."
        if after is not None and after.lower_ in ("and", "or") and not _verb_at(doc, end + 1):
            continue
        if after is not None and after.text == "," and end + 1 < len(doc) and doc[end + 1].lower_ in ("and", "or") and (
                not _verb_at(doc, end + 2)):
            continue
        if _in_name_list(state, left.start, end):
            continue
        if left.name != right.name:
            state.triple(left, "located in", right, [])
            if gap == 1 and comma == left.end:
                chain[id(left)] = right
    _through_chains(state, chain)


def _in_name_list(state: ChunkState, start: int, end: int) -> bool:
    """Whether the comma run of places doc[start:end] is part of a longer comma list whose next or previous
    member is a person: "Carol Ohmart, Quinn Redeker, Beverly Washburn, Jill Banner ... also star" (two actors
    the NER took for places) is a cast, not a chain. An organisation before the run may be where the places are
    ("the University of Maryland, College Park, Maryland"), so only a person counts."""
    doc = state.doc

    def person(mention: Mention | None) -> bool:
        return mention is not None and not mention.is_date and not mention.is_place and state.is_person(mention)

    # the person must itself be a list member ("such as A, B, C"): "near Stanstead Abbotts (PERSON to the NER),
    # Hertfordshire, England" is a chain whose first place the NER missed
    before = state.tok2m[start - 2] if start >= 2 and doc[start - 1].text == "," else None
    if before is not None and not (before.start > 0 and doc[before.start - 1].lower_ in (",", "as", "including")):
        before = None
    after = state.tok2m[end + 1] if end + 1 < len(doc) and doc[end].text == "," else None
    if after is not None and not (after.end < len(doc) and doc[after.end].lower_ in (",", "and")):
        after = None
    return person(before) or person(after)


def place_chain_head(state: ChunkState, pobj: Token) -> list[Token]:
    """[pobj] when the prepositional object is a place followed by a comma and one more name with no "and" or "or":
    "born in Faversham, Kent", "an actor from Winnipeg, Manitoba". That second name is where the first lies (the
    NER may call it a person: "Kent"), not a second object; it is made a place so that `place_chains` relates them.
    [] otherwise: the list as the parse gives it."""
    head = state.tok2m[pobj.i]
    if head is None or not head.is_place:
        return []
    members = listed(pobj)
    if len(members) != 2 or any(c.dep_ == "cc" for t in members for c in t.children):
        return []
    second = members[1]
    doc = state.doc
    place = state.tok2m[second.i]
    if place is None or place.is_date or doc[place.start - 1].text != "," or doc[place.start - 2].i != head.end - 1:
        return []
    if place.end < len(doc) and doc[place.end].lower_ in ("and", "or"):
        return []  # "in Paris, Lyon and Nice": a list
    if not place.is_place and not place.class_fixed and place.end - place.start == 1:
        place.label = "GPE"  # a one-word name after a place and its comma: "Faversham, Kent"
        place.spg_class = state.classes.place
    return [pobj] if place.is_place else []


def _verb_at(doc: Doc, i: int) -> bool:
    return i < len(doc) and doc[i].tag_.startswith("VB") and doc[i].tag_ != "VBG"


def _through_chains(state: ChunkState, chain: dict[int, Mention]) -> None:
    """ "a country house in Buckinghamshire, England": what lies in a place of a comma chain lies in the
    places after it too (England), as the text writes them. Only bare comma chains: "in Dollis Hill, in
    north-west London" names where the hill is, not the station."""
    for triple in list(state.triples):
        if triple.predicate != "located in" or id(triple.object) not in chain or id(triple.subject) in chain:
            continue
        place, seen = triple.object, {id(triple.subject)}
        while id(place) in chain and id(place) not in seen:
            seen.add(id(place))
            place = chain[id(place)]
            state.triple(triple.subject, "located in", place, [])


# The head word of a body that belongs to a larger one: "the Moore School of ... of the University".
SUBUNIT_HEADS = frozenset({
    "school", "college", "faculty", "department", "institute", "laboratory", "laboratories", "centre",
    "center", "division", "library", "museum", "observatory", "hospital", "press", "unit", "branch",
})
_ORG_LABELS = frozenset({"ORG", "FAC"})
_NAMING_WORDS = frozenset({"born", "named", "called", "nee", "née", "christened", "renamed"})


def names_in_names(state: ChunkState) -> None:
    """Two names side by side, joined by one preposition, within a sentence:
    - an organisation or facility, "in", a place: it lies there ("the Eckert-Mauchly Computer
      Corporation in Philadelphia", "the Post Office Research Station in Dollis Hill");
    - a school, laboratory or other sub-unit, "of", an organisation: part of it ("the Moore School
      of Electrical Engineering of the University of Pennsylvania")."""
    doc = state.doc
    starts = {m.start: m for m in state.mentions if m.start >= 0}
    for left in state.mentions:
        if left.label not in _ORG_LABELS or left.start < 0 or left.end + 1 >= len(doc) or state.is_person(left):
            continue
        if left.start > 0 and doc[left.start - 1].lower_ in _NAMING_WORDS:
            continue  # "born Augusta Ada Byron (ORG) in London": a birth name, born there
        prep = doc[left.end]
        right = starts.get(left.end + 1)  # the NER may take "the" into the name or leave it out
        if right is None and doc[left.end + 1].lower_ == "the":
            right = starts.get(left.end + 2)
        if right is None or right.name == left.name or state.sent_index[right.start] != state.sent_index[left.start]:
            continue
        if prep.lower_ == "in" and right.is_place and right.label != "FAC":
            state.triple(left, "located in", right, [])
        elif prep.lower_ == "of" and right.label == "ORG" and any(
                t.lower_ in SUBUNIT_HEADS for t in doc[left.start : left.end]):
            state.triple(left, "part of", right, [])


def role_prefixes(state: ChunkState) -> None:
    """ "guitarist Hank Shermann", "the economist Oskar Morgenstern", "bassists Ron McGovney,
    Cliff Burton, and Jason Newsted": a role noun right before a person's name is what that
    person is (their semantic type, unless a definition already gave one)."""
    doc = state.doc
    for mention in state.mentions:
        if mention.label != "PERSON" or mention.start < 1:
            continue
        tok = doc[mention.start - 1]
        if not tok.is_alpha or (tok.tag_ in PROPER_TAGS and not tok.is_sent_start and not tok.is_lower):
            continue  # (a lower-case word tagged NNP is the tagger's slip: "actor and comedian (NNP) Jackie Coogan")
        word = state.lemma(tok).lower() if tok.tag_ in NOUN_TAGS else tok.lower_
        plural = tok.tag_ == "NNS"
        if not is_person_role(word) and word.endswith("s") and is_person_role(word[:-1]):
            word, plural = word[:-1], True  # "bassists" mis-tagged as a verb
        if not is_person_role(word):
            continue
        role = noun_phrase(state, tok).lower() if tok.tag_ == "NN" else word
        members = [mention]
        if plural:  # a plural role covers the whole list after it
            root = doc[mention.end - 1]
            members = [m for m in (state.tok2m[t.i] for t in listed(root)) if m is not None and m.label == "PERSON"]
        earlier = _coordinated_roles(state, tok)  # "producer and director Baldev Raj Chopra": both
        for member in members:
            if member.semantic_type is None:
                member.semantic_type = earlier[0] if earlier else role
                member.description = state.sentence(tok)
            if earlier:
                for kind in (*earlier, role):
                    member.add_type(kind, state.sentence(tok))


def _coordinated_roles(state: ChunkState, tok: Token) -> list[str]:
    """The role nouns coordinated before the one right before a name, in text order: "actor and comedian Jackie
    Coogan" -> ["actor"], "writer, producer and director X" -> ["writer", "producer"]. Only lower-case nouns that
    are roles themselves, so "Hungarian and director" or a name before the "and" stops it."""
    doc = state.doc
    found: list[str] = []
    k = tok.i - 1
    while k >= 1 and doc[k].lower_ in ("and", ",", "&"):
        prev = doc[k - 1]
        word = state.lemma(prev).lower() if prev.tag_ in NOUN_TAGS else prev.lower_
        if not prev.is_lower or not is_person_role(word):
            break
        found.insert(0, word)
        k -= 2
    return found


# Kin and spouse nouns before a name say how someone is related, not what they are ("his wife Mary").
_KIN_NOUNS = frozenset({"son", "daughter", "child", "wife", "husband", "mother", "father", "brother", "sister",
                        "consort", "spouse", "heir", "mistress", "parent", "sibling"})
KIN_NOUNS = _KIN_NOUNS  # read by `possessed_names` ("his son, Ecgfrith")
# Places named "the <kind> of <name>" ("the town of Lima", "the unincorporated communities of Lima and
# Tarrant"); "the capital of France" is a relation, so capitals and countries are not here.
_OF_KINDS = frozenset({"village", "town", "city", "municipality", "commune", "community", "county", "province",
                       "state", "region", "district", "island", "kingdom", "parish", "borough", "township",
                       "hamlet", "settlement", "suburb", "neighbourhood", "neighborhood", "duchy", "principality"})
# Titles of rulers a name opens with ("King James I of Scotland", "Queen Joan Beaufort"): what they were.
_RULER_TITLES = frozenset({"king", "queen", "prince", "princess", "emperor", "empress", "duke", "duchess",
                           "tsar", "czar", "sultan", "pope", "archduke", "archduchess"})


# Titles that type the person whose name they open: the rulers', and the nobles' ("Margrave Albert II of
# Meissen", "Landgrave Otto I of Hesse", "Count Henry XXVI of Schwarzburg"); not "lord"/"lady", which open
# courtesy names ("Lady Jane Grey"), and never a two-word stage name ("Count Basie": the rule wants a numeral,
# an "of" or a longer name).
_PREFIX_TITLES = _RULER_TITLES | (STYLE_TITLES - {"lord", "lady"})


def kind_prefixes(state: ChunkState) -> None:
    """A kind noun the parser ties to the name right after it is what the named thing is: "the poet
    Lord Byron", "King's short story Trucks", "the town Boulogne-sur-Mer" (plural kinds over the list
    after them), "the unincorporated communities of Lima and Tarrant"; and a ruler's title opening a
    person's name ("King James I of Scotland": a king). A kind that implies a schema class retypes a
    name whose class was only the NER's guess ("the film Desert Flower", labelled PERSON).
    `role_prefixes` types the people the NER labels as such; this rule covers every other name."""
    doc = state.doc
    for mention in [*state.mentions, *state.used.values()]:
        if mention.start < 1 or mention.is_date or mention.label == CONCEPT:
            continue
        first = doc[mention.start]
        if (first.lower_ in _RULER_TITLES and mention.label not in ("ORG", "FAC") and not mention.is_date
                and any(w.rstrip(".").lower() in ROMAN_NUMERALS and w.isupper() for w in mention.name.split()[1:])):
            mention.guess_class(state.classes.person)  # "King James I of Scotland" (a name to the NER, no person)
        if state.is_person(mention) and first.lower_ in _PREFIX_TITLES and mention.semantic_type is None and (
                mention.end - mention.start > 2 or any(w.lower() in ROMAN_NUMERALS | {"of"}
                                                       for w in mention.name.split())):
            # "King James I of Scotland", "Queen Joan Beaufort", but not the stage name "King Diamond"
            mention.add_type(first.lower_, state.sentence(first))
        before = mention.start - 1
        if doc[before].is_quote and before > 0:
            before -= 1  # King's short story "Trucks"
        tok = doc[before]
        of_form = False
        if tok.lower_ == "of" and before >= 1 and state.lemma(doc[before - 1]) in _OF_KINDS:
            of_form, tok = True, doc[before - 1]
        if not tok.is_alpha or tok.tag_ not in NOUN_TAGS or state.tok2m[tok.i] is not None:
            continue
        word = state.lemma(tok).lower()
        hint = class_hint(word)
        if hint is None or word in _KIN_NOUNS or (hint == "Person" and mention.label == "PERSON"):
            continue  # people the NER labelled: `role_prefixes`
        span = range(mention.start, mention.end)
        tied = (tok.head.i in span and tok.dep_ in ("compound", "nmod", "amod")) or any(
            doc[k].head.i == tok.i and doc[k].dep_ == "appos" for k in span) or (of_form and any(
                doc[k].dep_ == "pobj" and doc[k].head.i == tok.i + 1 and doc[k].head.head.i == tok.i for k in span))
        tied = tied or _quoted_after(state, tok, mention)  # 'the sitcom "Mad About You"' the parse hung elsewhere
        if not tied or (of_form and (not any(c.dep_ == "det" and c.lower_ == "the" for c in tok.children)
                                     or any(c.dep_ == "compound" for c in tok.children))):
            # "the central business district of Watertown" is a part of it, not what it is
            continue
        kind = noun_phrase(state, tok)
        members = [mention]
        if tok.tag_ == "NNS":  # "the unincorporated communities of Lima and Tarrant"
            root = next((doc[k] for k in span if doc[k].head.i not in span), doc[mention.end - 1])
            members = unique_mentions(state, listed(root)) or members
            members = continue_list(state, members, tok)  # the list the parse lost: "her movies A (2004), B"
        hinted = state.classes.by_hint.get(hint)
        year = _kind_year(state, tok) if hint == "Work" and tok.tag_ == "NN" else None
        for member in members:
            member.add_type(kind, state.sentence(tok))
            if hinted is not None and not member.class_fixed and not member.is_date:
                member.guess_class(hinted)
            if year is not None:
                state.triple(member, "released in", year, [])  # "the 2004 thriller "The Skulls III""


def _quoted_after(state: ChunkState, kind: Token, mention: Mention) -> bool:
    """A singular kind noun right before a whole quoted name ('the variety show "The Tracey Ullman Show"'): the
    quotes say where the name is when the parse lost the tie (a title parsed as a clause hangs anywhere)."""
    doc = state.doc
    return (kind.tag_ == "NN" and mention.start == kind.i + 2 and doc[kind.i + 1].is_quote
            and mention.end < len(doc) and doc[mention.end].is_quote)


def _kind_year(state: ChunkState, kind: Token) -> Mention | None:
    """A year that opens a work's kind phrase, "the 1971 film", "the 2005 horror movie": when the work came out,
    as "a 1971 film" says of a definition's subject. Only a bare year (not "the 1990s", not a date) right after
    the article."""
    doc = state.doc
    k = kind.i - 1
    while k > 0 and doc[k].is_lower and doc[k].tag_ in ("NN", "JJ", "HYPH", "VBN"):
        k -= 1  # "the 2005 horror movie", "the 2007 made-for-TV film"
    if k < 1 or doc[k - 1].lower_ not in ("the", "a", "an", "his", "her", "their", "its"):
        return None
    if not BARE_YEAR.fullmatch(doc[k].text):
        return None
    year = state.tok2m[k] or state.year(doc[k])
    return year if year is not None and year.is_date and year.name == doc[k].text else None


def unique_mentions(state: ChunkState, toks: list[Token]) -> list[Mention]:
    out: list[Mention] = []
    for t in toks:
        m = state.tok2m[t.i]
        if m is not None and not m.is_date and m not in out:
            out.append(m)
    return out


def works_by(state: ChunkState) -> None:
    """ "the First Draft of a Report on the EDVAC by John von Neumann": a work named with a
    word that says what it is (report, book, symphony...) followed by "by" and a person: the
    person made it, with the verb that kind of work takes (write, compose, paint...)."""
    doc = state.doc
    for mention in [*state.mentions, *state.used.values()]:
        if mention.start < 0 or mention.end + 1 >= len(doc) or mention.label in ("PERSON", "DATE", "TIME"):
            continue
        by = _after_closing_quote(doc, mention.end)  # 'the novel "A Christmas Carol" by Charles Dickens'
        if by + 1 >= len(doc) or doc[by].lower_ != "by":
            continue
        person = state.tok2m[by + 1]
        if person is None or person.label != "PERSON":
            continue
        words = [w.lower() for w in mention.name.split()]
        if mention.semantic_type:
            words.append(mention.semantic_type.split()[-1])
        verb = next((WORK_NOUN_VERBS[w] for w in words if w in WORK_NOUN_VERBS), None)
        if verb is not None:
            state.triple(person, verb, mention, [])


def _after_closing_quote(doc: Doc, i: int) -> int:
    """`i`, or the token after it when `i` closes a quotation."""
    return i + 1 if i < len(doc) and doc[i].is_quote and doc[i].tag_ == "''" else i


def possessed_copula(state: ChunkState, verb: Token) -> None:
    """ "Her father was Lord Byron", "Its capital is Paris": the named attribute is the noun of the
    possessor: (Lord Byron, father of, Ada Lovelace); agent nouns read as verbs ("Its founder was
    X": (X, found, it))."""
    if state.lemma(verb) not in ("be", "become"):
        return
    subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subject is None or subject.tag_ not in NOUN_TAGS:
        return
    owners = [m for m in (state.subject(c) for c in subject.children if c.dep_ == "poss") if m is not None]
    if not owners:
        return
    phrase = noun_phrase(state, subject, hyphen_adjectives=True)
    head = phrase.split()[-1]
    predicate = AGENT_NOUN_VERBS.get(head) or f"{phrase} of"
    for attr in (c for c in verb.children if c.dep_ == "attr"):
        for tok in listed(attr):
            named = state.named(tok) or (state.named_apposition(tok) if tok.tag_ in NOUN_TAGS else None)
            if named is None:  # "the poet Lord Byron": the name in apposition to the common noun
                continue
            for owner in owners:
                state.triple(named, predicate, owner, [])
            if (head in TITLE_NOUNS or _office(state, subject)) and not _kin(head):
                named.add_type(phrase, state.sentence(verb))  # "Its president is X": X is a president too
