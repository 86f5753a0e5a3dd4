"""Dependency-parse rules: who did what to whom, when and where, in one parsed chunk.

The rules read only fine-grained tags (`tag_`), dependency labels and entity spans, so the
pipeline can run without its attribute_ruler and lemmatizer (see `lemmas`). Each rule looks at
one token's children, so a chunk costs time linear in its length.

Precision over recall: a triple needs a named (or resolvable) subject, an explicit verb or
relational noun, and an object that is a named entity (or, for direct objects only, a
specific common-noun phrase). Mere co-occurrence in a sentence yields nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kgbuild.extract.arguments import Arguments, Lemma, is_hyphen
from kgbuild.extract.entities import collect_mentions, link_surnames
from kgbuild.extract.facts import CONCEPT, PROPN, Classes, EventFact, Facts, Mention, Triple
from kgbuild.extract.names import date_preposition, trim_sentence
from kgbuild.extract.typehints import class_hint
from kgbuild.extract.vocab import (
    ALIAS_VERBS,
    COPULAS,
    CREDIT_VERBS,
    DASHES,
    DATE_VERBS,
    EVENTS,
    HEDGES,
    LIGHT_VERBS,
    NAME_TITLES,
    NOUN_TAGS,
    OBJECT_CLASSES,
    PERSON_DOER_VERBS,
    PERSON_OBJECT_VERBS,
    PLACE_NOUNS,
    PLACE_PREPS,
    PREP_ONLY_VERBS,
    PROPER_TAGS,
    REL_NOUN_PREPS,
    REL_PRONOUNS,
    SKIP_VERBS,
    TITLE_NOUNS,
    XCOMP_HEADS,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

Qualifier = tuple[str, Mention]  # (preposition, date or place)


def read_chunk(doc: Doc, classes: Classes, lemma: Lemma, title: str | None = None) -> Facts:
    """Facts of one parsed chunk; `title` is the person its document is about, if known."""
    return Reader(doc, classes, lemma, title).read()


def _conjuncts(tok: Token) -> list[Token]:
    return [tok, *tok.conjuncts]


def _unique(mentions: Iterable[Mention]) -> list[Mention]:
    seen: set[int] = set()
    out: list[Mention] = []
    for mention in mentions:
        if id(mention) not in seen:
            seen.add(id(mention))
            out.append(mention)
    return out


def _qualifies(prep: str, mention: Mention) -> bool:
    """Whether "prep mention" says when or where: a date, a place, or an organisation after "at"."""
    return mention.is_date or mention.is_place or (prep == "at" and mention.label in ("ORG", "FAC"))


class Reader(Arguments):
    """The rules applied to one parsed chunk; state lives only as long as the chunk."""

    def __init__(self, doc: Doc, classes: Classes, lemma: Lemma, title: str | None = None) -> None:
        mentions, tok2m = collect_mentions(doc, classes)
        title_mention = None
        if title is not None:
            # The document's subject: its NE mention here if the chunk names it in full, else a
            # person mention that exists only through surname references (emitted if used).
            title_mention = next((m for m in mentions if m.name == title), None) or Mention(
                title, classes.person, "PERSON", -1, -1
            )
        mentions = link_surnames(doc, mentions, tok2m, title_mention)
        super().__init__(doc, classes, lemma, mentions, tok2m)
        self.named_ids = {id(m) for m in mentions}
        self.used: dict[int, Mention] = {}  # non-NER mentions that ended up in a fact
        self.aliased: set[int] = set()  # mentions that are another name of an entity
        self.birthplaces: set[int] = set()  # places of birth or death: never typed as people
        self.triples: list[Triple] = []
        self.seen_triples: set[tuple[int, str, int]] = set()
        self.events: list[EventFact] = []
        self.subject_cache: dict[int, tuple[list[Mention], bool]] = {}
        self.front_qualifiers: dict[int, list[Qualifier]] = {}
        self.sent_bounds: list[tuple[int, int]] = []
        self.sent_index: list[int] = [0] * len(doc)
        self.paren_of: list[int] = [-1] * len(doc)  # index of the "(" a token sits in, or -1

    # ------------------------------------------------------------------ driver

    def read(self) -> Facts:
        doc = self.doc
        for k, sent in enumerate(doc.sents):
            self.sent_bounds.append((sent.start, sent.end))
            for i in range(sent.start, sent.end):
                self.sent_index[i] = k
        for kind, i in self._scan():
            if kind == "paren":
                self._parenthesis(i)
            elif kind == "appos":
                self._apposition(doc[i])
            else:
                self._clause(doc[i])
        mentions = [*self.mentions, *self.used.values()]
        if self.aliased:
            # "Demon Dice, originally published as Chaos Progenitus": the second name is an
            # alias of the first, not another entity (unless a fact needs it as a node).
            needed = {id(m) for t in self.triples for m in (t.subject, t.object, *(q for _, q in t.qualifiers))}
            needed.update(id(m) for e in self.events for ms in e.arguments.values() for m in ms)
            needed.update(id(m) for e in self.events for m in (e.time, e.place) if m is not None)
            mentions = [m for m in mentions if id(m) not in self.aliased or id(m) in needed]
        self._propagate_classes(mentions)
        return Facts(mentions, self.triples, self.events, self.drops)

    def _propagate_classes(self, mentions: list[Mention]) -> None:
        """One class per name in a chunk: a definition ("X is a film") beats a guess from
        context ("X died"), which beats the NER label, which beats the fallback of an
        unlabelled proper noun."""
        ranked: dict[str, tuple[int, str]] = {}
        for m in mentions:
            if m.is_date or m.label == CONCEPT:
                continue
            if m.class_fixed:
                rank = 3
            elif m.spg_class != self.classes.by_label.get(m.label, self.classes.fallback):
                rank = 2
            elif m.label != PROPN:
                rank = 1
            else:
                continue
            if rank > ranked.get(m.name, (0, ""))[0]:
                ranked[m.name] = (rank, m.spg_class)
        if ranked:
            for m in mentions:
                if m.name in ranked and not m.is_date and m.label != CONCEPT:
                    m.spg_class = ranked[m.name][1]

    def _scan(self) -> list[tuple[str, int]]:
        """Clause heads, appositions and parentheses, in reading order."""
        doc = self.doc
        first_end = self.sent_bounds[0][1] if self.sent_bounds else 0
        heads: set[int] = set()
        life: set[int] = set()
        items: list[tuple[str, int]] = []
        open_paren = -1
        for tok in doc:
            if tok.text == "(":
                items.append(("paren", tok.i))
                open_paren = tok.i
                continue
            if tok.text == ")":
                open_paren = -1
            self.paren_of[tok.i] = open_paren
            dep = tok.dep_
            if (
                tok.lower_ in ("born", "died") and tok.i >= 1
                and (doc[tok.i - 1].text in ("(", ";") or (open_paren >= 0 and doc[tok.i - 1].text == ","))
            ):
                life.add(tok.i)  # read by _parenthesis, not as a clause
                if dep == "csubj":  # the clause the parenthesis derailed: see _subjects
                    heads.add(tok.head.i)
                continue
            if dep == "csubj":
                heads.add(tok.head.i)
            elif dep == "nsubj" or dep == "nsubjpass":
                heads.add(tok.head.i)
                mention = self.tok2m[tok.i]
                if mention is None and tok.tag_ in PROPER_TAGS and tok.i < first_end:
                    mention = self.proper(tok)
                if mention is not None and (mention.label == "PERSON"
                                            or (mention.label == PROPN and tok.i < first_end)):
                    self.person_subjects.append((tok.i, mention))
            elif dep in ("acl", "relcl", "conj", "xcomp", "advcl") and tok.tag_.startswith("VB"):
                heads.add(tok.i)
            elif dep == "appos":
                items.append(("appos", tok.i))
        items.extend(("clause", i) for i in heads if i not in life)
        items.sort(key=lambda item: item[1])
        return items

    # ------------------------------------------------------------------ subjects

    def _coordinated(self, verb: Token) -> bool:
        """Whether a conj verb really follows "and"/"or"/"," (the parser also hangs stray
        participles on far-away verbs with `conj`)."""
        j = verb.i - 1
        while j > 0 and self.doc[j].dep_ in ("advmod", "aux", "auxpass", "neg"):
            j -= 1
        return j >= 0 and (self.doc[j].tag_ == "CC" or self.doc[j].text == ",")

    def _noun_head(self, tok: Token) -> list[Mention]:
        """The entity a noun modified by a relative or participle clause stands for."""
        mention = self.subject(tok)
        if mention is not None:
            return [mention]
        if tok.dep_ == "attr" and tok.head.tag_.startswith("VB"):  # "X is a game created by Y": the game is X
            return self._subjects(tok.head)[0]
        if tok.dep_ == "appos":
            mention = self.subject(tok.head)
            return [mention] if mention is not None else []
        return []

    def _name_before(self, verb: Token) -> Mention | None:
        """The mention of the single token that opens the verb's sentence right before it."""
        i = verb.i - 1
        if i < 0 or self.sent_bounds[self.sent_index[verb.i]][0] != i:
            return None
        mention = self.tok2m[i]
        return mention if mention is not None and not mention.is_date else None

    def _subjects(self, verb: Token) -> tuple[list[Mention], bool]:
        """Subjects of a verb (coordinations expanded, inherited through conj/xcomp/acl) and passivity."""
        cached = self.subject_cache.get(verb.i)
        if cached is not None:
            return cached
        self.subject_cache[verb.i] = ([], False)  # guards against cycles in odd parses
        passive = False
        subject: Token | None = None
        derailed: Token | None = None
        for child in verb.children:
            dep = child.dep_
            if dep == "auxpass":
                passive = True
            elif subject is None and dep in ("nsubj", "nsubjpass"):
                subject = child
                passive = passive or dep == "nsubjpass"
            elif dep == "csubj":
                derailed = child
        mentions: list[Mention] = []
        dep = verb.dep_
        if subject is not None and self.paren_of[subject.i] >= 0 and self.paren_of[verb.i] != self.paren_of[subject.i]:
            # "Vera June Miles (née Ralston, born 1929) is ...": the parser took the name inside
            # the parenthesis for the subject; the sentence is about the name before it.
            owner = self._parenthesis_owner(self.paren_of[subject.i])
            mentions = [owner] if owner is not None else []
        elif subject is not None:
            if dep == "relcl" and subject.lower_ in REL_PRONOUNS:
                mentions = self._noun_head(verb.head)
            else:
                for tok in _conjuncts(subject):
                    mention = self.subject(tok)
                    if mention is not None:
                        mentions.append(mention)
                    elif tok.tag_ == "PRP" and tok.lower_ in ("he", "she", "it"):
                        self.drops.append(("pronoun unresolved", "relation", f"{tok.text} {verb.text}"))
        elif derailed is not None:
            # Clausal subjects are parser slips here: '"Too Good to Last" is a song' (a quoted
            # title) and "Lambert (died after 938) was ..." (the name before the parenthesis).
            if derailed.lower_ in ("born", "died") and derailed.i >= 2 and self.doc[derailed.i - 1].text == "(":
                mention = self.subject(self.doc[derailed.i - 2])
            else:
                mention = self.quoted(derailed)
            mentions = [mention] if mention is not None else []
        elif (dep == "conj" and self._coordinated(verb)) or (dep == "xcomp" and self.lemma(verb.head) in XCOMP_HEADS):
            head = verb.head
            if head.tag_.startswith("VB"):
                mentions, head_passive = self._subjects(head)
                passive = passive or (head_passive and verb.tag_ == "VBN")
        elif verb.tag_ in ("VBD", "VBZ", "VBP") and self._name_before(verb) is not None:
            # "Turing designed the Bombe": the name, tagged as a gerund, became the root and the
            # verb an adverbial clause; the name that opens the sentence is the subject.
            mentions = [self._name_before(verb)]  # type: ignore[list-item]
        elif dep == "acl":
            head = verb.head
            if self.lemma(verb) in CREDIT_VERBS and head.dep_ == "pobj" and head.head.dep_ == "agent":
                # "a film directed by X, written by Y": "written" hangs on X but is about the film.
                mentions = self._subjects(head.head.head)[0]
            else:
                mentions = self._noun_head(head)
            passive = verb.tag_ == "VBN"
        result = (_unique(mentions), passive)
        self.subject_cache[verb.i] = result
        return result

    # ------------------------------------------------------------------ facts

    def _use(self, mention: Mention) -> None:
        """Keep a mention that is not a named entity of this chunk because a fact needs it."""
        if id(mention) not in self.named_ids:
            self.used[id(mention)] = mention

    def _triple(self, subject: Mention, predicate: str, obj: Mention, qualifiers: list[Qualifier]) -> None:
        if subject is obj or subject.name == obj.name or subject.is_date or subject.label == CONCEPT:
            return
        key = (id(subject), predicate, id(obj))
        if key in self.seen_triples:
            return
        self.seen_triples.add(key)
        quals = [(prep, m) for prep, m in qualifiers if m is not obj and m is not subject]
        self.triples.append(Triple(subject, predicate, obj, quals))
        for mention in (subject, obj, *(m for _, m in quals)):
            self._use(mention)

    def _sentence(self, tok: Token) -> str:
        start, end = self.sent_bounds[self.sent_index[tok.i]]
        return trim_sentence(self.doc[start:end].text)

    def _clause(self, verb: Token) -> None:
        if not verb.tag_.startswith("VB"):
            return
        subjects, passive = self._subjects(verb)
        if not subjects:
            return
        if self.topic is None and self.sent_index[verb.i] == 0:
            self.topic = subjects[0]
        children = list(verb.children)
        lemma = self.lemma(verb)
        if any(c.dep_ == "neg" for c in children):
            self.drops.append(("negated", "relation", f"{subjects[0].name} not {lemma}"))
            return
        if any(c.dep_ == "aux" and c.lower_ in HEDGES for c in children):
            self.drops.append(("hedged", "relation", f"{subjects[0].name} {lemma}"))
            return
        if lemma in COPULAS and any(c.dep_ == "attr" for c in children):
            self._copula(children, subjects, lemma)
            return
        if lemma in SKIP_VERBS:
            return
        particle = next((c.lower_ for c in children if c.dep_ == "prt"), "")
        phrasal = f"{lemma} {particle}" if particle else lemma
        word = verb.lower_ if passive else lemma  # "born in", "located in", but "work at"
        if particle:
            word = f"{word} {particle}"

        objects: list[Mention] = []
        agents: list[Mention] = []
        args: list[Qualifier] = []
        roles: list[Token] = []
        has_object = False
        concept_ok = phrasal not in LIGHT_VERBS
        for child in children:
            dep = child.dep_
            if dep == "dobj" and lemma not in PREP_ONLY_VERBS:
                has_object = True
                if verb.dep_ == "relcl" and child.lower_ in REL_PRONOUNS:  # "the firm which he founded"
                    found = self.object(verb.head, concept_ok)
                    objects.extend([found] if found is not None and not found.is_date else [])
                    continue
                for tok in _conjuncts(child):
                    found = self.object(tok, concept_ok)
                    if found is not None and not found.is_date:
                        objects.append(found)
            elif dep == "agent":
                for pobj in child.children:
                    if pobj.dep_ == "pobj":
                        agents.extend(m for m in (self.named(t) for t in _conjuncts(pobj)) if m is not None)
            elif dep == "prep":
                prep = child.lower_
                for pobj in child.children:
                    if pobj.dep_ == "pobj":
                        for tok in _conjuncts(pobj):
                            found = self.object(tok, False)
                            if found is not None:
                                args.append((prep, found))
                            elif prep == "as":  # "served as Vice-President of the EPO": a role of X
                                roles.append(tok)
            elif dep == "npadvmod":
                mention = self.tok2m[child.i]
                if mention is not None and mention.is_date:
                    args.append((date_preposition(mention.name), mention))

        if lemma in ALIAS_VERBS and (passive or verb.dep_ == "acl"):
            names = [m for prep, m in args if prep == "as" and not m.is_date]
            for subject in subjects:
                subject.aliases.extend(m.name for m in names if m.name != subject.name)
            self.aliased.update(id(m) for m in names)
            args = [(prep, m) for prep, m in args if prep != "as"]

        # Qualifiers written before a coordination apply to all its verbs:
        # "In 931, Hugh disowned and removed Lambert".
        inherited = self.front_qualifiers.get(verb.head.i, []) if verb.dep_ == "conj" else []
        self.front_qualifiers[verb.i] = [(p, m) for p, m in args if _qualifies(p, m) and m.start < verb.i] + inherited

        if roles and not objects and not agents:
            qualifiers = [(p, m) for p, m in args if _qualifies(p, m)] + inherited
            if any([self._noun_relations(subjects, role, qualifiers) for role in roles]):  # a list: every role
                return  # the dates and places qualify the role: "served as X of Y from 1994"
        used_prep = ""
        if passive and agents:
            doers, targets, predicate = agents, subjects, phrasal
        elif objects:
            doers, targets, predicate = subjects, objects, word
        elif has_object:
            return  # a direct object we cannot name: the prepositions modify it, not the subject
        else:
            chosen = [(p, m) for p, m in args if not m.is_date]
            if not chosen and lemma in DATE_VERBS:
                chosen = [(p, m) for p, m in args if m.is_date]
            if not chosen:
                return
            used_prep = chosen[0][0]
            doers = subjects
            targets = [m for p, m in chosen if p == used_prep]
            predicate = f"{word} {used_prep}"
        qualifiers = [(p, m) for p, m in args if _qualifies(p, m) and m not in targets]
        qualifiers += [q for q in inherited if q[1] not in targets and q not in qualifiers]
        # Some verbs take people only: whoever directs, marries or dies is a person, whatever
        # the NER guessed ("directed by Klaus Menzel" (ORG)).
        if lemma in ("bear", "die"):
            self.birthplaces.update(id(m) for m in targets if m.is_place)
        if lemma in PERSON_DOER_VERBS:
            for subject in doers:
                if subject.label != "PERSON":
                    subject.guess_class(self.classes.person)
        if lemma in PERSON_OBJECT_VERBS:
            for target in targets:
                if target.label != "PERSON" and not target.is_date:
                    target.guess_class(self.classes.person)
        hint, overridden = OBJECT_CLASSES.get(lemma, ("", frozenset()))
        object_class = self.classes.by_hint.get(hint)
        if object_class is not None and not used_prep:  # direct objects and passive patients only
            for target in targets:
                if target.label in overridden:
                    target.guess_class(object_class)
        for subject in doers:
            for target in targets:
                self._triple(subject, predicate, target, qualifiers)
        self._event(phrasal, lemma, passive, word, doers, targets, used_prep, qualifiers)

    def _event(
        self, phrasal: str, lemma: str, passive: bool, trigger: str, doers: list[Mention], targets: list[Mention],
        used_prep: str, qualifiers: list[Qualifier],
    ) -> None:
        rule = EVENTS.get(phrasal) or EVENTS.get(lemma)
        if rule is None or not doers or (rule.passive_only and not passive):
            return
        # Birth and death take their place and time from the object too ("born in X"); other
        # events only from qualifiers (the employer is not where the work happened).
        candidates: list[Qualifier] = [(used_prep, m) for m in targets] if rule.object_role is None else []
        candidates += qualifiers
        time = next((m for _, m in candidates if m.is_date), None)
        place = next((m for p, m in candidates if not m.is_date and p in PLACE_PREPS and _qualifies(p, m)), None)
        arguments: dict[str, list[Mention]] = {rule.subject_role: list(doers)}
        if rule.object_role is None:
            if time is None and place is None:
                return
        else:
            objects = [m for m in targets if not m.is_date]
            if not objects or (rule.object_preps and used_prep not in rule.object_preps):
                return  # "worked in 1990" is no employment; "worked at X" is
            if rule.object_role == rule.subject_role:
                arguments[rule.subject_role] = _unique([*doers, *objects])
            else:
                arguments[rule.object_role] = objects
        for mention in (*(m for ms in arguments.values() for m in ms), time, place):
            if mention is not None:
                self._use(mention)
        self.events.append(EventFact(rule.type, trigger, arguments, time, place))

    # ------------------------------------------------------------------ nouns

    def _noun_relations(self, subjects: list[Mention], noun: Token, qualifiers: list[Qualifier] | None = None) -> bool:
        """ "X was the capital of Y", "Y's half-brother", "Bertha, daughter of Lothair II"."""
        if noun.tag_ in PROPER_TAGS and noun.lower_ not in TITLE_NOUNS:
            return False
        found = False
        phrase: str | None = None
        for child in noun.children:
            dep = child.dep_
            if dep == "prep" and child.lower_ in REL_NOUN_PREPS:
                prep = child.lower_
                targets = [
                    m for pobj in child.children if pobj.dep_ == "pobj"
                    for m in (self.object(t, False) for t in _conjuncts(pobj)) if m is not None and not m.is_date
                ]
            elif dep == "poss":
                prep = "of"
                targets = [m for m in (self.named(t) for t in _conjuncts(child)) if m is not None]
            else:
                continue
            if not targets:
                continue
            if phrase is None:
                phrase = self._noun_phrase(noun, hyphen_adjectives=True)
            for target in targets:
                if prep == "in" and self.lemma(noun) in PLACE_NOUNS and target.is_place:
                    predicate = "located in"
                else:
                    predicate = f"{phrase} {prep}"
                for subject in subjects:
                    self._triple(subject, predicate, target, qualifiers or [])
                    found = True
        return found

    def _noun_phrase(self, noun: Token, hyphen_adjectives: bool = False) -> str:
        """Compound nouns and hyphenated pieces plus the head's lemma: "film director",
        "half-brother" (with hyphen_adjectives), "father-in-law"."""
        doc = self.doc
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
                left.dep_ == "compound" and self.tok2m[j] is None and j < left.head.i <= noun.i
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
        return prefix + self.lemma(noun)

    def _nationality(self, noun: Token) -> list[str]:
        """NORP modifiers with their hyphenated pieces: "Hungarian-American", "American-born"."""
        doc = self.doc
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

    def _type_from(self, subjects: list[Mention], noun: Token) -> None:
        """semantic_type, nationality, description (and a class fix) from "X is a Hungarian-American film director"."""
        semantic_type = self._noun_phrase(noun)
        nationality = self._nationality(noun)
        sentence = self._sentence(noun)
        hint = class_hint(semantic_type)
        hinted = self.classes.by_hint.get(hint) if hint else None
        for subject in subjects:
            if subject.is_date or subject.label == CONCEPT or subject.semantic_type is not None:
                continue
            if id(subject) in self.birthplaces:
                continue  # "X (born 1965 in Kingston), ... is a singer" parsed with Kingston as subject
            subject.semantic_type = semantic_type
            subject.description = sentence
            subject.nationality.extend(n for n in nationality if n not in subject.nationality)
            if hinted is not None and not subject.class_fixed:
                subject.spg_class = hinted
                subject.class_fixed = True
            self._use(subject)

    @staticmethod
    def _indefinite(noun: Token) -> bool:
        return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.children)

    def _copula(self, children: list[Token], subjects: list[Mention], lemma: str) -> None:
        for attr in (c for c in children if c.dep_ == "attr"):
            typed = lemma == "be" and self._indefinite(attr)
            for noun in _conjuncts(attr):
                if self.tok2m[noun.i] is not None or noun.tag_ not in NOUN_TAGS | PROPER_TAGS or not noun.is_alpha:
                    continue  # "Hugh was Guy": identity or a mislabel, not a relation
                self._noun_relations(subjects, noun)
                if typed and noun.tag_ in NOUN_TAGS:
                    self._type_from(subjects, noun)

    def _apposition(self, tok: Token) -> None:
        """ "Alan Turing, a British mathematician" and "Hucbert, the lay-abbot of St. Maurice's Abbey"."""
        if self.tok2m[tok.i] is not None or tok.tag_ not in NOUN_TAGS | PROPER_TAGS or not tok.is_alpha:
            return
        subject = self.named(tok.head)
        if subject is None:
            return
        related = self._noun_relations([subject], tok)
        if not related and tok.tag_ in NOUN_TAGS and self._indefinite(tok):
            self._type_from([subject], tok)

    # ------------------------------------------------------------------ "(born ...)" parentheses

    def _parenthesis(self, open_i: int) -> None:
        """Life dates after a name: "(born 1950)", "(died after 938)", "(1204 – 12 April 1237)",
        "(18 February 1929, Trabzon – 21 September 1989, Istanbul)"."""
        doc = self.doc
        limit = min(len(doc), open_i + 40)
        close = next((k for k in range(open_i + 1, limit) if doc[k].text == ")"), None)
        if close is None:
            return
        owner: Mention | None = None
        start = open_i + 1
        for k in range(open_i + 1, close + 1):
            if k < close and doc[k].text != ";":
                continue
            if start < k:
                for verb, part_start, part_end in self._life_parts(start, k):
                    date, date_prep, place, place_prep = self._date_and_place(part_start, part_end)
                    if date is None and place is None:
                        continue
                    owner = owner or self._parenthesis_owner(open_i)
                    if owner is None:
                        return
                    self._life_fact(owner, verb, date, date_prep, place, place_prep)
            start = k + 1

    def _life_parts(self, start: int, end: int) -> list[tuple[str, int, int]]:
        doc = self.doc
        first = doc[start].lower_
        if start + 1 < end and (first in ("née", "nee") or (first == "born" and self._names_someone(start + 1))):
            # "(née Ralston, born August 23, 1929)", "(born Giuseppe Michele Stella, June 13, 1877
            # – November 5, 1946)": a birth name, then the rest of the parenthesis.
            comma = next((k for k in range(start + 1, end) if doc[k].text == ","), end)
            self._birth_name(start + 1, comma)
            return self._life_parts(comma + 1, end) if comma + 1 < end else []
        if first in ("born", "b."):
            return [("born", start + 1, end)]
        if first in ("died", "d."):
            return [("die", start + 1, end)]
        head = doc[start]
        starts_with_date = (
            head.text in DASHES
            or head.lower_ in ("c.", "ca.", "circa")
            or (self.tok2m[start] is not None and self.tok2m[start].is_date)  # type: ignore[union-attr]
            or (head.text.isdigit() and 3 <= len(head.text) <= 4)
        )
        if not starts_with_date:
            return []  # "(German: Friedrich I.)", "(PKK)"
        dash = next((k for k in range(start, end) if doc[k].text in DASHES), None)
        if dash is None:
            return []  # a lone date may be anything: a release, a reign, a founding
        return [("born", start, dash), ("die", dash + 1, end)]

    def _names_someone(self, i: int) -> bool:
        """Whether token i starts a name ("born Giuseppe ..."), not a date ("born May 27")."""
        mention = self.tok2m[i]
        if mention is not None:
            return not mention.is_date
        return self.doc[i].tag_ in PROPER_TAGS and not self.doc[i + 1 : i + 2].text[:1].isdigit()

    def _birth_name(self, start: int, end: int) -> None:
        """Record "née X" / "born X" as an alias of the parenthesis' owner."""
        names = [m for m in (self.named(self.doc[k]) for k in range(start, end)) if m is not None]
        open_i = self.paren_of[start]
        owner = self._parenthesis_owner(open_i) if names and open_i >= 0 else None
        if owner is None or names[0] is owner:
            return
        if names[0].name not in owner.aliases:
            owner.aliases.append(names[0].name)
        self.aliased.add(id(names[0]))

    def _date_and_place(self, start: int, end: int) -> tuple[Mention | None, str, Mention | None, str]:
        doc = self.doc
        date: Mention | None = None
        date_prep = ""
        place: Mention | None = None
        place_prep = "in"
        for k in range(start, end):
            mention = self.tok2m[k]
            if mention is None and date is None and doc[k].like_num:
                mention = self.year(doc[k])
            if mention is None and doc[k].tag_ in PROPER_TAGS:
                mention = self.proper(doc[k])
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
            place.spg_class = self.classes.place
        return date, date_prep, place, place_prep

    def _parenthesis_owner(self, open_i: int) -> Mention | None:
        """Whose life the parenthesis dates.

        In a passage's first sentence it is the name the sentence opens with (the article's
        subject), even when a title stands between: "Richard Colley Wesley, 1st Baron Mornington
        (– 31 January 1758)". Elsewhere it is the name right before the parenthesis.
        """
        doc = self.doc
        if self.sent_index[open_i] == 0:
            k = self.sent_bounds[0][0]
            while k < open_i and (doc[k].lower_ in NAME_TITLES or is_hyphen(doc[k])) and self.tok2m[k] is None:
                k += 1  # "Major-General Charles John Sackville-West"
            mention = self.tok2m[k] if k < open_i else None
            if mention is not None and not mention.is_date:
                return mention
            if mention is None and k < open_i and doc[k].tag_ in PROPER_TAGS:
                while k + 1 < open_i and doc[k + 1].tag_ in PROPER_TAGS and self.tok2m[k + 1] is None:
                    k += 1
                opener = self.proper(doc[k])
                if opener is not None:
                    return opener
        before = self.named(doc[open_i - 1]) if open_i > 0 else None
        if before is not None and (before.spg_class == self.classes.person or before.label == PROPN):
            return before
        return None

    def _life_fact(
        self, owner: Mention, verb: str, date: Mention | None, date_prep: str, place: Mention | None, place_prep: str
    ) -> None:
        owner.guess_class(self.classes.person)  # born and died: a person, unless defined otherwise
        if place is not None:
            self.birthplaces.add(id(place))
        self.person_subjects.append((owner.start, owner))  # "Hassan Al-Qeed (born 1998), he is ..."
        if place is not None:
            self._triple(owner, f"{verb} {place_prep}", place, [(date_prep, date)] if date is not None else [])
        elif date is not None:
            self._triple(owner, f"{verb} {date_prep}", date, [])
        for mention in (owner, date, place):
            if mention is not None:
                self._use(mention)
        self.events.append(EventFact("Birth" if verb == "born" else "Death", verb, {"person": [owner]}, date, place))
