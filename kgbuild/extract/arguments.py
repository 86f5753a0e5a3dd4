"""Resolving a token to the entity it stands for: a named entity, an unlabelled proper noun,
a pronoun's antecedent, the passage's topic, or (objects only) a specific common noun."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kgbuild.extract.code_text import CODE_KINDS, CODE_TOKENS, TECHNICAL_CHUNK, looks_like_code
from kgbuild.extract.facts import CONCEPT, PROPN, Classes, Mention
from kgbuild.extract.name_runs import quote_pairs
from kgbuild.extract.names import clean_name
from kgbuild.extract.typehints import class_hint, same_kind
from kgbuild.extract.vocab import (
    ARTEFACT_KINDS,
    BAD_DETERMINERS,
    DASHES,
    NATIONAL_BODIES,
    NOUN_TAGS,
    PROPER_TAGS,
    ROMAN_NUMERALS,
    STOP_ADJECTIVES,
    TITLE_NOUNS,
    VAGUE_NOUNS,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

Lemma = Callable[["Token"], str]

_NOT_NAMES = frozenset({"i", "mr", "mrs", "ms", "dr", "st", "sir", "jr", "sr"})


_PERSON_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})
_FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
_OTHER = {"f": "m", "m": "f"}
# Types that say whether a person is a woman or a man ("an American actress", "the king").
_FEMALE_NOUNS = frozenset({"actress", "queen", "princess", "duchess", "countess", "empress", "baroness", "wife",
                           "daughter", "mother", "sister", "nun", "abbess", "businesswoman", "noblewoman", "lady",
                           "archduchess", "dauphine", "waitress", "heiress", "sportswoman"})
_MALE_NOUNS = frozenset({"king", "prince", "duke", "count", "earl", "emperor", "baron", "husband", "son", "father",
                         "brother", "monk", "abbot", "businessman", "nobleman", "lord", "archduke", "dauphin",
                         "sportsman"})
_THING_PRONOUNS = frozenset({"it", "its", "itself"})
_GROUP_PRONOUNS = frozenset({"they", "their", "them", "themselves"})


def _expletive(tok: Token) -> bool:
    """ "It is known that ...", "it was not until 1950 that ...": a dummy subject."""
    head = tok.head
    if tok.dep_ not in ("nsubj", "nsubjpass"):
        return False
    return any(c.dep_ in ("ccomp", "csubj") for c in head.children) or (
        head.lower_ in ("is", "was", "be") and any(c.dep_ == "xcomp" for c in head.children)
    ) or (
        # "It is possible to record ...", "it is therefore important to design ...": the clause hangs
        # on the adjective.
        head.lower_ in ("is", "was", "be", "'s") and any(
            c.dep_ == "acomp" and any(g.dep_ in ("xcomp", "ccomp") for g in c.children) for c in head.children)
    )


# Honours and degrees written after a person's name.
_POST_NOMINALS = frozenset({"MBE", "OBE", "CBE", "KBE", "GBE", "DBE", "KCMG", "GCMG", "KCB", "GCB", "FRS", "FRSE",
                            "VC", "DSO", "QC", "KC", "PhD", "FBA", "FRSL", "RA"})
# Prepositions whose object says when: a name there ("during the Second World War") is a time, not a thing
# that "it" could stand for.
_TIME_PREPS = frozenset({"during", "after", "before", "since", "until", "throughout"})


def _when(tok: Token) -> bool:
    return tok.dep_ == "pobj" and tok.head.lower_ in _TIME_PREPS


def _looks_proper(tok: Token) -> bool:
    """A common-noun tag on an acronym or a capitalised word mid-sentence ("built the UNIVAC I",
    "designed the Bombe"): the tagger's slip, the word is a name."""
    return tok.tag_ in NOUN_TAGS and tok.is_alpha and len(tok.text) > 1 and not tok.is_sent_start and (
        tok.is_upper or tok.is_title)


def is_hyphen(tok: Token) -> bool:
    return tok.tag_ == "HYPH" or tok.text in DASHES


class Arguments:
    """Argument resolution for one chunk; `chunk_state.ChunkState` adds the facts the rules collect."""

    def __init__(
        self, doc: Doc, classes: Classes, lemma: Lemma, mentions: list[Mention], tok2m: list[Mention | None],
        runs: dict[int, tuple[int, int]] | None = None,
    ) -> None:
        self.doc = doc
        self.runs = runs or {}  # unlabelled multi-word names ("Theory of Games and Economic Behavior")
        self.classes = classes
        self.lemma = lemma
        self.mentions = mentions
        self.tok2m = tok2m
        self.extra: dict[int, Mention] = {}  # PROPN / CONCEPT / bare-year mentions by head token
        self.person_subjects: list[tuple[int, Mention]] = []  # candidate antecedents of he/she
        self.genders: dict[str, str] | None = None  # person's name -> "f" / "m" (`_vote_genders`, on first use)
        self.topic: Mention | None = None  # what the passage is about: its first subject
        self.title_person: Mention | None = None  # the person the document is about (patterns.Reader)
        self.document_thing: Mention | None = None  # or the thing it is about
        self.thing_subjects: list[tuple[int, Mention]] = []  # candidate antecedents of "it"
        self.drops: list[tuple[str, str, str]] = []
        self._quote_pairs: list[tuple[int, int]] | None = None
        self._quoted: dict[int, Mention | None] = {}

    def proper(self, tok: Token) -> Mention | None:
        """An unlabelled proper-noun phrase ("Lothair II", "Colossus"), typed with the fallback class."""
        cached = self.extra.get(tok.i)
        if cached is not None:
            return cached if cached.label == PROPN else None
        doc = self.doc
        if tok.text.replace(".", "") in _POST_NOMINALS and tok.i > 0:
            # 'James Allan "Jim" Mollison MBE (...) was a Scottish pioneer aviator': the parser makes the
            # honour the head of the name; the person before it is meant.
            before = self.tok2m[tok.i - 1]
            if before is None and doc[tok.i - 1].text == "," and tok.i > 1:
                before = self.tok2m[tok.i - 2]
            return before if before is not None and before.label == "PERSON" else None
        if tok.i in doc.user_data.get(CODE_TOKENS, ()):
            # Inline code (`socket.end()`, `node:net`): one token, a name whatever its case.
            mention = self.extra[tok.i] = Mention(tok.text, self.classes.fallback, PROPN, tok.i, tok.i + 1)
            return mention
        run = self.runs.get(tok.i)
        if run is not None:
            name = clean_name(doc[run[0] : run[1]], PROPN)
            if name is not None:
                mention = Mention(name, self.classes.fallback, PROPN, run[0], run[1])
                for i in range(run[0], run[1]):
                    self.extra[i] = mention
                return mention
        start = tok.i
        while start > 0 and self.tok2m[start - 1] is None:
            left = doc[start - 1]
            glued = not left.whitespace_ and (is_hyphen(left) or is_hyphen(doc[start]))  # "Vice-President"
            if not glued and not (left.tag_ in PROPER_TAGS and left.dep_ in ("compound", "flat")):
                break
            start -= 1
        while start < tok.i and is_hyphen(doc[start]):
            start += 1
        end = tok.i + 1
        if end < len(doc) and self.tok2m[end] is None and (
            (doc[end].tag_ == "CD" and doc[end].head.i == tok.i)
            or (doc[end].text.rstrip(".").lower() in ROMAN_NUMERALS and doc[end].is_upper and (end + 1 == len(doc)
                or doc[end + 1].tag_ not in ("NN", "NNS", "NNP", "NNPS", "VBZ", "VBD", "VBP", "MD")))
        ):
            end += 1  # "Hut 8", "Apollo 11", "the UNIVAC I."
        name = clean_name(doc[start:end], PROPN)
        if name is None or len(name) < 2 or not name[0].isupper():
            return None
        if name.lower().rstrip(".") in _NOT_NAMES or name.lower() in TITLE_NOUNS:
            return None  # "Mr", or a bare title ("Minister", "Duke") standing for someone unnamed
        mention = Mention(name, self.classes.fallback, PROPN, start, end)
        self.extra[tok.i] = mention
        return mention

    def concept(self, tok: Token) -> Mention | None:
        """A specific common-noun phrase ("collectible dice game") as a Concept-class entity.

        A bare head noun ("films", "the award") is too generic to be a node of its own, so a
        concept needs at least one modifier.
        """
        cached = self.extra.get(tok.i)
        if cached is not None:
            return cached if cached.label == CONCEPT else None
        head = self.lemma(tok)
        if len(head) < 3 or not head.isalpha() or head in VAGUE_NOUNS:
            return None
        for child in tok.children:
            if child.dep_ == "poss" or (child.dep_ in ("det", "predet") and child.lower_ in BAD_DETERMINERS):
                return None  # "his book", "this game": relative to context, not a concept
            if child.dep_ == "compound" and child.tag_ in PROPER_TAGS and not child.is_sent_start:
                return None  # "the Marcos car company": one named thing, not the concept "car company"
        doc = self.doc
        kept: list[int] = []
        j = tok.i - 1
        while j >= 0:
            left = doc[j]
            if not left.whitespace_ and (is_hyphen(left) or is_hyphen(doc[j + 1])):
                kept.append(j)  # a piece of one hyphenated word: "40-meter", "well-known"
            elif not j < left.head.i <= tok.i:
                break
            elif left.dep_ == "compound" and left.tag_ in NOUN_TAGS and self.tok2m[j] is None:
                kept.append(j)
            elif (left.dep_ == "amod" and left.tag_ == "JJ" and left.lower_ not in STOP_ADJECTIVES
                  and not left.ent_type_):
                kept.append(j)
            else:
                break
            j -= 1
        if not any(doc[k].is_alpha for k in kept):
            return None
        prefix = "".join(doc[k].text_with_ws for k in sorted(kept)).lower()
        mention = Mention(prefix + head, self.classes.concept, CONCEPT, j + 1, tok.i + 1)
        self.extra[tok.i] = mention
        return mention

    def named_kind(self, tok: Token) -> Mention | None:
        """A name before a word for the kind of artefact it is: "the Enigma machine", "the
        Colossus computers" stand for the name (not for other things named before them)."""
        left = [c for c in tok.children if c.dep_ == "compound" and c.i == tok.i - 1]
        if self.lemma(tok) not in ARTEFACT_KINDS and not (
                # "the `node:net` module", "a `Worker` object", "the `'close'` event": the code named.
                left and left[0].i in self.doc.user_data.get(CODE_TOKENS, ()) and self.lemma(tok) in CODE_KINDS):
            return None
        mention = self.named(left[0]) if left else None
        return None if mention is None or self.is_person(mention) or mention.is_place else mention

    def national_body(self, tok: Token) -> Mention | None:
        """A nation's army, navy or government named by its people's adjective: "the German navy",
        "the British government" (one organisation, though no name is capitalised but the first)."""
        cached = self.extra.get(tok.i)
        if cached is not None:
            return cached if cached.label == "ORG" else None
        org = self.classes.by_label.get("ORG")
        if org is None or tok.tag_ != "NN" or self.lemma(tok) not in NATIONAL_BODIES:
            return None
        nation = next((c for c in tok.children if c.dep_ in ("amod", "compound") and c.i < tok.i
                       and c.ent_type_ == "NORP"), None)
        if nation is None:
            return None
        mention = Mention(f"{nation.text} {tok.lower_}", org, "ORG", nation.i, tok.i + 1)
        self.extra[tok.i] = mention
        return mention

    def year(self, tok: Token) -> Mention | None:
        """A bare year the NER missed, inside a life-span parenthesis: "(1204 – 12 April 1237)"."""
        text = tok.text
        if not (text.isdigit() and 3 <= len(text) <= 4):
            return None
        cached = self.extra.get(tok.i)
        if cached is None:
            date_class = self.classes.by_label.get("DATE")
            if date_class is None:
                return None
            cached = Mention(text, date_class, "DATE", tok.i, tok.i + 1)
            self.extra[tok.i] = cached
        return cached

    def quoted(self, tok: Token) -> Mention | None:
        """A quoted title the NER missed: '"Too Good to Last" is a song ...'."""
        if self._quote_pairs is None:
            self._quote_pairs = quote_pairs(self.doc)
        for open_i, close_i in self._quote_pairs:
            if open_i < tok.i < close_i:
                break
        else:
            return None
        if open_i not in self._quoted:
            mention = None
            if close_i - open_i <= 13:
                name = clean_name(self.doc[open_i + 1 : close_i], "WORK_OF_ART")
                if name is not None:
                    mention = Mention(name, self.classes.fallback, PROPN, open_i + 1, close_i)
            self._quoted[open_i] = mention
        return self._quoted[open_i]

    def named_apposition(self, tok: Token) -> Mention | None:
        """ "his elder brother, Guy": the named apposition stands for the common noun."""
        for child in tok.children:
            between = self.doc[tok.i + 1 : child.left_edge.i]
            if child.dep_ == "appos" and not any(t.tag_.startswith("VB") for t in between):
                # (an apposition the parser hung across a verb is another noun's: "The screenplay was based
                # on King's short story "Trucks", which was included in ..., "Night Shift".")
                mention = self.tok2m[child.i]
                if mention is None and child.tag_ in PROPER_TAGS:
                    mention = self.proper(child)
                if mention is not None and not mention.is_date:
                    return mention
        return None

    def named(self, tok: Token) -> Mention | None:
        """A named entity or unlabelled proper noun at `tok`, never a date."""
        mention = self.tok2m[tok.i]
        if mention is None and tok.tag_ in PROPER_TAGS:
            mention = self.proper(tok)
        return None if mention is None or mention.is_date else mention

    def subject(self, tok: Token) -> Mention | None:
        mention = self.tok2m[tok.i]
        if mention is not None:
            return None if mention.is_date else mention
        tag = tok.tag_
        if tag != "PRP" and (title := self.quoted(tok)) is not None:
            return title
        if tag in ("PRP", "PRP$"):
            return self.pronoun(tok)
        if tag in PROPER_TAGS:
            return self.proper(tok)
        if tag in NOUN_TAGS:
            if tok.i == 0 and tok.is_title and not any(c.dep_ == "det" for c in tok.children):
                return self.proper(tok)  # a passage opening with its title: "Fascination is a 2004 film"
            named = self.named_apposition(tok) or self.named_kind(tok) or self.national_body(tok)
            if named is not None:
                return named
            return self.topic_reference(tok)
        return None

    def topic_reference(self, tok: Token) -> Mention | None:
        """A definite description standing for something named before it in the chunk.

        "The film stars ..." after "X is a 2004 movie" (the noun is the topic's kind); "the
        school" after "Government Code and Cypher School" and "the report" after "First Draft
        of a Report on the EDVAC" (the noun is a word of the name): the latest such mention
        before the description wins. People are never descriptions here ("the economist").
        """
        if not any(c.dep_ == "det" and c.lower_ in ("the", "this") for c in tok.children):
            return None
        if any(c.dep_ == "prep" and c.lower_ == "of" and any(p.dep_ == "pobj" and (p.tag_ in PROPER_TAGS or
               self.tok2m[p.i] is not None) for p in c.children) for c in tok.children):
            return None  # "the king of France": a role of its own, not a word of a name named before
        noun = self.lemma(tok)
        topic = self.topic
        # "the Ferranti machine": a capitalised modifier says which one, so the name must have it too
        # (not the latest "Machine" named before: "the Small-Scale Experimental Machine"; not the topic
        # company for "the Marcos car company").
        marks = {c.lower_ for c in tok.children if c.dep_ == "compound" and c.tag_ in PROPER_TAGS and c.i < tok.i}
        if topic is not None and topic.semantic_type and same_kind(noun, topic.semantic_type) and (
                marks <= set(topic.name.lower().split())):
            return topic
        if tok.tag_ != "NN" or len(noun) < 3 or noun in VAGUE_NOUNS:
            return None
        best: Mention | None = None
        seen = [m for m in self.extra.values() if m.label == PROPN] if marks else []  # names read so far
        for mention in [*self.mentions, *seen]:
            if mention.start >= tok.left_edge.i or mention.is_date or mention.label in ("PERSON", "NORP"):
                continue
            words = mention.name.lower().replace(",", " ").split()  # "King's College, Cambridge": "college"
            if marks and not marks <= set(words):
                continue
            if (noun in words or same_kind(noun, words[-1]) or marks) and (
                    best is None or mention.start > best.start):
                best = mention  # "the company" after "Eckert-Mauchly Computer Corporation"
        if best is None and not marks and topic is not None and topic.semantic_type and (
                topic.spg_class != self.classes.person) and (
                class_hint(noun) == "Organization" and class_hint(topic.semantic_type) in ("Organization", None)):
            best = topic  # "the company" after "X is a publishing house"
        return best

    def pronoun(self, tok: Token) -> Mention | None:
        """What a personal pronoun stands for, by one stated rule.

        he/she/him/her/his: the latest person subject before it in the chunk whose gender does not
        contradict the pronoun's (a person's gender: the majority of the he/she pronouns the rule
        without genders resolves to them, or a gendered type such as "actress"); when every person
        subject contradicts it, the latest compatible person named in its sentence or the one before;
        with no person subject at all, the person the document is about (its title).
        it/its: the latest thing (not a person, date or place)
        that was a clause subject before it in the chunk, else the passage's topic when that is
        a defined thing, else the thing the document is about. Expletive "it" ("it is known
        that") is never resolved. Unresolved pronouns make no fact.
        """
        low = tok.lower_
        if low in _PERSON_PRONOUNS:
            gender = "f" if low in _FEMALE_PRONOUNS else "m"
            before = self._pronoun_window(tok)
            found = self.antecedent(before, gender)
            if found is None and self.antecedent(before) is not None:
                # "When she got in contact with Ian, he led her to believe ...": every person subject is
                # of the other gender, so the latest person named in this sentence or the one before who
                # is not is meant (not the document's person: that is whom the subjects stand for).
                found = self._latest_person(tok, before, gender)
            elif found is None and self.title_person is not None and (
                    self.gender_of(self.title_person) != _OTHER[gender]):
                found = self.title_person
            return found
        if low in _GROUP_PRONOUNS:
            return self.group_pronoun(tok)
        if low not in _THING_PRONOUNS or _expletive(tok):
            return None
        best: tuple[int, Mention] | None = None
        for j, mention in self.thing_subjects:
            if j < tok.i and (best is None or j > best[0]):
                best = (j, mention)
        if best is not None:
            # Another thing named since that subject makes "it" ambiguous ("the team built the IAS
            # machine, and it ran ..."): no antecedent rather than a wrong one.
            rival = any(best[0] < m.start < tok.i and m is not best[1] and m.name != best[1].name
                        and not (m.is_date or m.is_place or m.label in ("PERSON", "NORP"))
                        and self.doc[m.end - 1].dep_ not in ("amod", "compound", "poss")  # "Welsh (ORG) singer"
                        and not _when(self.doc[m.end - 1])  # "During the Second World War it was ..."
                        for m in self.mentions)
            # Under a heading that is code ("Class: `net.Server`") the section is about that code: a
            # name since ("It extends `EventEmitter`") does not make the next "it" ambiguous.
            section_code = best[1] is self.document_thing and looks_like_code(best[1].name, True)
            # A manual's "it" continues its subject ("The `node:net` module provides ... TCP or IPC
            # servers. It can be accessed ..."): there a thing named since counts only as an object.
            manual = bool(self.doc.user_data.get(TECHNICAL_CHUNK)) and tok.dep_ in ("nsubj", "nsubjpass")
            # The subject of a sentence's main clause continues the passage's topic when that was the subject
            # before it: '"Not If You Were the Last Junkie on Earth" is a song by American rock band The Dandy
            # Warhols. It was released in 1997' (names since then were objects, which a subject "it" skips).
            continued = (tok.dep_ in ("nsubj", "nsubjpass") and tok.head.dep_ == "ROOT"
                         and best[1] in (self.topic, self.document_thing))
            return None if rival and not (section_code or manual or continued) else best[1]
        topic = self.topic
        # "It was released in 1990" after "X is a 1990 film": "it" is the passage's topic,
        # as long as the topic is a defined thing and not a person.
        if topic is not None and topic.semantic_type and topic.spg_class != self.classes.person:
            return topic
        return self.document_thing

    def group_pronoun(self, tok: Token) -> Mention | None:
        """ "they"/"their" in a passage about a group: "Alphaville is a German synthpop band ... They achieved
        chart success", "Two Dollar Radio is a publishing house ... In 2013 they launched their film division".
        The passage's topic, when it is a defined organisation (a band, company or group speaks as "they"),
        unless a coordinated subject ("Eric and Eliza ...") or a plural noun subject stands in the same or the
        previous sentence: then "they" may be those, and no fact is better than a wrong one."""
        topic = self.topic
        organisation = self.classes.by_hint.get("Organization")
        if topic is None or not topic.semantic_type or organisation is None or topic.spg_class != organisation:
            return None
        sentence = self.doc[tok.i].sent
        start = self.doc[sentence.start - 1].sent.start if sentence.start > 0 else sentence.start
        for other in self.doc[start : tok.i]:
            if other.dep_ in ("nsubj", "nsubjpass") and (other.tag_ in ("NNS", "NNPS") or any(
                    c.dep_ == "conj" for c in other.children)):
                return None
        return topic

    def object(self, tok: Token, concept_ok: bool) -> Mention | None:
        mention = self.tok2m[tok.i]
        if mention is not None:
            return mention
        tag = tok.tag_
        if tag in ("PRP", "PRP$"):
            return self.pronoun(tok)
        if tag != "PRP" and (title := self.quoted(tok)) is not None:
            return title
        if tag in PROPER_TAGS or _looks_proper(tok):
            return self.proper(tok)
        if tag in NOUN_TAGS:
            named = self.named_apposition(tok) or self.national_body(tok) or self.topic_reference(tok)
            if named is not None:
                return named
            if concept_ok:
                return self.concept(tok)
        return None

    def is_person(self, mention: Mention) -> bool:
        """Labelled a person by the NER or typed one by the rules."""
        return mention.label == "PERSON" or mention.spg_class == self.classes.person

    def sentence_start(self, i: int) -> int:
        return self.doc[i].sent.start

    def _pronoun_window(self, tok: Token) -> int:
        """Where a person pronoun's antecedent must end: "him"/"her" never stand for the subject of
        their own clause, so they look before the sentence."""
        low = tok.lower_
        return self.sentence_start(tok.i) if low in ("him", "her") and tok.dep_ != "poss" else tok.i

    def _vote_genders(self) -> dict[str, str]:
        """Each person's gender by the majority of the he/she pronouns that the gender-blind rule
        resolves to them ("Hormann ... she ... She attended ..." is a woman); no majority, no gender.
        One wrong "she" ("his wife's name is unknown; she was ...") is outvoted by the "he"s."""
        votes: dict[str, list[int]] = {}  # by name: mentions of one name are one entity
        for tok in self.doc:
            low = tok.lower_
            if low not in _PERSON_PRONOUNS or tok.tag_ not in ("PRP", "PRP$"):
                continue
            found = self.antecedent(self._pronoun_window(tok)) or self.title_person
            if found is not None:
                votes.setdefault(found.name, [0, 0])[low in _FEMALE_PRONOUNS] += 1
        return {key: ("f" if female > male else "m") for key, (male, female) in votes.items() if male != female}

    def gender_of(self, mention: Mention) -> str | None:
        """ "f" or "m" when the pronouns resolved to the person or one of their types say so, else None."""
        if self.genders is None:
            self.genders = self._vote_genders()
        known = self.genders.get(mention.name)
        if known is None:
            for kind in mention.types:
                word = kind.split()[-1]
                known = "f" if word in _FEMALE_NOUNS else "m" if word in _MALE_NOUNS else None
                if known is not None:
                    break
        return known

    def _latest_person(self, tok: Token, before: int, gender: str) -> Mention | None:
        sentence = self.doc[tok.i].sent
        start = self.doc[sentence.start - 1].sent.start if sentence.start > 0 else 0
        # By where a person is named, not where the mention first is: a bare "Ian" linked to the "Ian Conway" of an
        # earlier sentence is named here (entities.link_surnames).
        best: Mention | None = None
        for k in range(start, before):
            mention = self.tok2m[k]
            if mention is not None and mention is not best and self.is_person(mention) and (
                    self.gender_of(mention) != _OTHER[gender]):
                best = mention
        return best

    def antecedent(self, i: int, gender: str | None = None) -> Mention | None:
        """The person a "he"/"she" at token i means: the latest person subject before it (of that
        gender, when given: not one a pronoun of the other gender or a gendered type already named)."""
        best: tuple[int, Mention] | None = None
        for j, mention in self.person_subjects:  # not sorted: parentheses add owners late
            if j >= i or (best is not None and j <= best[0]):
                continue
            if gender is not None and self.gender_of(mention) == _OTHER[gender]:
                continue
            if mention.spg_class == self.classes.person or (mention.label == PROPN and not mention.class_fixed):
                best = (j, mention)
        if best is None:
            return None
        best[1].guess_class(self.classes.person)
        return best[1]
