"""Relations and events from verbs: "X founded Y in 1990", "Y was directed by X",
"X worked at Y from 1994", with hedged and negated clauses dropped and copulas handed to `nouns`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.adjective_relations import adjective_relations
from kgbuild.extract.chunk_state import ChunkState, Qualifier, conjuncts, listed, qualifies, unique
from kgbuild.extract.coordination import shared_objects
from kgbuild.extract.facts import CONCEPT, EventFact, Mention
from kgbuild.extract.member_lists import listed_members
from kgbuild.extract.name_lists import colon_list, continue_list, included
from kgbuild.extract.names import date_preposition
from kgbuild.extract.nouns import copula, noun_relations, place_chain_head, possessed_copula
from kgbuild.extract.roles_played import ROLE_VERBS, appearances, played_role
from kgbuild.extract.subjects import verb_subjects
from kgbuild.extract.typehints import class_hint, is_person_role
from kgbuild.extract.values import age_at, counted_objects
from kgbuild.extract.vocab import (
    ALIAS_VERBS,
    COPULAS,
    DATE_VERBS,
    EVENTS,
    HEDGES,
    LIGHT_VERBS,
    OBJECT_CLASSES,
    PERSON_DOER_VERBS,
    PERSON_OBJECT_VERBS,
    PLACE_PREPS,
    PREP_ONLY_VERBS,
    PROPER_TAGS,
    REL_PRONOUNS,
    SKIP_VERBS,
    VAGUE_NOUNS,
    WORK_NOUN_VERBS,
)
from kgbuild.extract.work_credits import work_part_makers

if TYPE_CHECKING:
    from collections.abc import Sequence

    from spacy.tokens import Token


# Prepositions whose object is no further relation of an intransitive verb ("known as", "more than").
_NOT_OBJECT_PREPS = frozenset({"as", "by", "than", "like", "despite", "without", "except", "during", "including"})
# Spans of time a counted object gives ("played ten seasons in", "spent three years at").
_TIME_SPANS = frozenset({"season", "year", "month", "week", "day", "decade", "term", "game", "match"})
# Prepositions that link a verb-and-noun predicate to its object ("earned a doctorate from Y").
_OBJECT_NOUN_PREPS = frozenset({"from", "at", "in", "under", "with", "for", "to", "on", "against", "into", "of"})


def _where_done(state: ChunkState, pobj: Token) -> bool:
    """Whether a "by" after a prepositional object may name who did the verb's deed: not after a work ("based on
    the novel "Trucks" by Stephen King", "based on the novel of the same name by Nicholas Sparks": its author) or
    a person ("for Charles II's son by Louise de Kérouaille": his mother); after a place, a body or a common noun
    ("recorded in 1951 as a duet by Hank Williams and ...") it may."""
    mention = state.tok2m[pobj.i]
    if mention is not None:
        return mention.is_place or mention.label in ("ORG", "FAC")
    return pobj.tag_ in ("NN", "NNS") and state.lemma(pobj) not in WORK_NOUN_VERBS and (
        class_hint(state.lemma(pobj)) != "Work")


# Verbs whose "on"/"from" object is a source work: a "by" after that object names the source's author.
_SOURCE_VERBS = frozenset({"base", "adapt", "inspire", "derive"})


def _source_authors(state: ChunkState, children: list[Token], agents: Sequence[Mention] = ()) -> bool:
    """(author, write/create, source) for "based on the comic strip "Tailspin Tommy" by Hal Forrest and Glenn
    Chaffin": whoever is named after a "by" on the source made it; the film was not "based" by them. The verb is the
    source kind's ("novel", "play": write), else "create". `agents`: the names of a "by" the parser hung on the verb
    itself, authors of the source too. Whether an author was found (then the verb's agents, shared from a conjunct
    ("... and directed by X") or the same "by", based nothing)."""
    sources: list[tuple[Token, Mention]] = []
    for prep in (c for c in children if c.dep_ == "prep" and c.lower_ in ("on", "from")):
        for pobj in (p for p in prep.children if p.dep_ == "pobj"):
            source = state.named(pobj) or next(
                (m for c in pobj.children if c.dep_ == "appos" for m in [state.named(c)] if m is not None), None)
            if source is not None and not source.is_date:
                sources.append((pobj, source))
    found = False
    for pobj, source in sources:
        kind = pobj if pobj.tag_ in ("NN", "NNS") else pobj.head if pobj.dep_ == "appos" else None
        verb = WORK_NOUN_VERBS.get(state.lemma(kind), "create") if kind is not None else "create"
        if kind is None:  # 'the novel" Greensea Island"': the kind noun hangs on the title
            kind = next((c for c in pobj.subtree if c.tag_ == "NN" and c.i < pobj.i), None)
            verb = WORK_NOUN_VERBS.get(state.lemma(kind), "create") if kind is not None else "create"
        authors = [m for by in pobj.children if by.dep_ == "prep" and by.lower_ == "by"
                   for p in by.children if p.dep_ == "pobj" for m in _agent_names(state, p)]
        for author in (m for m in [*authors, *agents] if m is not source and not m.is_place):
            state.triple(author, verb, source, [])
            found = True
    return found


def _appears_in(lemma: str, children: list[Token]) -> bool:
    """Whether "appear" says where someone was seen, "appeared in 27 episodes of X", "has appeared in over 15 films
    including A": a preposition of place and no complement. "appeared to be", "appears unlikely" is seeming."""
    return lemma == "appear" and any(c.dep_ == "prep" and c.lower_ in ("in", "on") for c in children) and not any(
        c.dep_ in ("xcomp", "ccomp", "acomp", "attr", "oprd") for c in children)


def clause(state: ChunkState, verb: Token) -> None:
    """The facts of one clause head: triples from its subject, objects and prepositions, and the event it may be."""
    if not verb.tag_.startswith("VB") or is_person_role(verb.lower_):
        return  # "and guitarist Hank Shermann" tagged as a verb is a role, not a clause
    title = state.tok2m[verb.i]
    if title is not None and title.label == "WORK_OF_ART" and title.start < verb.i:
        return  # a verb inside a title: '"I Hate Luv Storys"', '"Your Mother Wouldn't Like It"'
    if title is not None and id(title) in state.aliased:
        return  # a verb inside another name of something: 'Raja Hindustani (English: "Raja the Indian")'
    subjects, passive = verb_subjects(state, verb)
    if not subjects:
        possessed_copula(state, verb)
        listed_members(state, verb)  # "Guest stars in the episode included A, B and C"
        work_part_makers(state, verb)  # "The film's music is composed by X"
        return
    if state.aliased:  # "Senet (or Senat) is a board game": the other name is no second subject
        subjects = [m for m in subjects if id(m) not in state.aliased] or subjects
    subject_tok = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and c.i < verb.i), None)
    if subject_tok is not None:
        subjects = continue_list(state, subjects, subject_tok, verb)  # "A and bassists B, C, and D are ..."
    if state.topic is None and state.sent_index[verb.i] == 0:
        state.topic = subjects[0]
    state.thing_subjects.extend((verb.i, m) for m in subjects if not m.is_date and not state.is_person(m))
    children = list(verb.children)
    lemma = state.lemma(verb)
    if not passive:
        # "wrote and directed the 2005 film "Kids in America"": a named object only (a common noun shared this
        # way is as often the later verb's alone: "sang and played guitar")
        children += [t for t in shared_objects(verb, lemma) if state.object(t, False) is not None]
    if lemma == "bear":
        children = _birth_name(children)
    if any(c.dep_ == "neg" for c in children):
        state.drops.append(("negated", "relation", f"{subjects[0].name} not {lemma}"))
        return
    if any(c.dep_ == "aux" and c.lower_ in HEDGES for c in children):
        state.drops.append(("hedged", "relation", f"{subjects[0].name} {lemma}"))
        return
    if lemma in COPULAS and any(c.dep_ == "attr" or (c.lower_ == "among" and c.dep_ in ("prep", "conj"))
                                for c in children):  # "He was among the founders of X"
        copula(state, children, subjects, lemma, _copula_qualifiers(state, verb, children))
        return
    # Qualifiers written before a coordination apply to all its verbs ("In 931, Hugh disowned and removed
    # Lambert"), and to the verbs those take as complements ("In 1944 he learned about ENIAC and began to
    # visit the Moore School").
    inherited = state.front_qualifiers.get(verb.head.i, []) if verb.dep_ in ("conj", "xcomp") else []
    if lemma in ("be", "become", "remain"):
        stated = _copula_qualifiers(state, verb, children)  # a conj's inherited ones already among them
        if lemma == "be" and any(c.dep_ == "acomp" and c.lower_ == "married" for c in children):
            _married_to(state, verb, subjects, stated)
        # "was active in Antwerp and Paris"
        adjective_relations(state, verb, subjects, stated + [q for q in inherited if q not in stated])
    if appearances(state, subjects, verb):  # "The album features guest appearances from A, B and C"
        return
    if lemma in SKIP_VERBS and not (verb.dep_ == "xcomp" and state.lemma(verb.head) == "use") and not (
            _appears_in(lemma, children)):
        state.front_qualifiers[verb.i] = inherited
        return  # but "used it to plan EDSAC" states what was done
    particle = next((c.lower_ for c in children if c.dep_ == "prt"), "")
    phrasal = f"{lemma} {particle}" if particle else lemma
    word = verb.lower_ if passive else lemma  # "born in", "located in", but "work at"
    if particle:
        word = f"{word} {particle}"

    objects: list[Mention] = []
    noun_args: list[Qualifier] = []  # named objects of the direct object's own prepositions
    agents: list[Mention] = []
    args: list[Qualifier] = []
    roles: list[Token] = []
    has_object = False
    concept_ok = phrasal not in LIGHT_VERBS
    counted_nouns: list[Token] = []
    for child in children:
        dep = child.dep_
        if dep == "dobj" and lemma not in PREP_ONLY_VERBS:
            has_object = True
            if verb.dep_ == "relcl" and child.lower_ in REL_PRONOUNS:  # "the firm which he founded"
                found = state.object(verb.head, concept_ok)
                objects.extend([found] if found is not None and not found.is_date else [])
                continue
            counted = any(c.dep_ == "nummod" for c in child.children)  # "released seven studio albums"
            if counted:
                counted_nouns.append(child)
            listed_objects = [m for tok in listed(child) for m in [state.object(tok, concept_ok and not counted)]
                              if m is not None and not m.is_date]
            objects.extend(continue_list(state, listed_objects, child))  # "her movies A (2004), B (2009) and C"
            if lemma not in ("be", "have"):  # "had three children: A, B and C" is kinship, not "have"
                objects.extend(m for m in colon_list(state, child) if m not in objects)  # "directed five films: A, ..."
            if not listed_objects:
                objects.extend(included(state, child))  # "many artists, including A, B and C"
            for inner in child.children:  # "sold a commercial model of the Enigma": see below
                if inner.dep_ == "prep" and inner.lower_ in ("of", "for", "about", "on"):
                    noun_args.extend((inner.lower_, m) for pobj in inner.children if pobj.dep_ == "pobj"
                                     for m in (state.object(t, False) for t in listed(pobj))
                                     if m is not None and not m.is_date)
        elif dep == "agent":
            for pobj in child.children:
                if pobj.dep_ == "pobj":
                    agents.extend(continue_list(state, _agent_names(state, pobj), pobj) or included(state, pobj))
            # "formed by vocalist King Diamond and guitarist (VB, conj of the verb) Hank Shermann":
            # the list goes on through a role word the tagger read as a verb.
            for role in children:
                if role.dep_ == "conj" and role.i > child.i and role.tag_.startswith("VB") and is_person_role(
                        role.lower_):
                    agents.extend(m for t in role.children if t.dep_ in ("dobj", "nsubj", "attr")
                                  for m in [state.named(t)] if m is not None and state.is_person(m))
        elif dep == "prep":
            prep = child.lower_
            if _hedged(child):
                state.drops.append(("hedged", "relation", f"{subjects[0].name} {lemma} {prep}"))
                continue  # "she died childless at age 20, apparently of a fever"
            title = state.tok2m[child.i]
            if title is not None and title.label == "WORK_OF_ART" and title.start == child.i:
                objects.append(title)  # 'wrote "On Computable Numbers"': the title opens with a preposition
                has_object = True
                continue
            if child.i < verb.i and not any(p.dep_ == "pobj" for p in child.children):
                # "During the Second World War von Neumann worked": the parser took the object of a
                # fronted preposition into the subject; the name right after the preposition is its object.
                front = _fronted_object(state, child)
                if front is not None and qualifies(prep, front):
                    args.append((prep, front))
                continue
            # "led to the Manchester Mark 1 and to the Ferranti Mark 1": a preposition coordinated with
            # this one takes its objects to the same verb.
            for pobj, prep in [(p, prep) for p in child.children] + [
                    (p, other.lower_) for other in child.children if other.dep_ == "conj" and other.tag_ == "IN"
                    for p in other.children]:
                if pobj.dep_ == "pobj":
                    named: list[Mention] = []
                    for tok in place_chain_head(state, pobj) or listed(pobj):
                        found = state.object(tok, False)
                        if found is None and lemma == "die" and prep in ("of", "from"):
                            found = _cause(state, tok)  # "died of lung cancer": what of
                        if found is not None:
                            named.append(found)
                        elif prep == "as":  # "served as Vice-President of the EPO": a role of X
                            roles.append(tok)
                    args.extend((prep, m) for m in continue_list(state, named, pobj) or included(state, pobj))
        elif dep == "npadvmod":
            mention = state.tok2m[child.i]
            if mention is not None and mention.is_date:
                args.append((date_preposition(mention.name), mention))

    if counted_nouns and not objects and not passive:
        counted_objects(state, subjects, phrasal, counted_nouns)  # an amount: a property, not a node
    age_at(state, subjects, word, children)

    if lemma in _SOURCE_VERBS and agents:
        # "based on the novel "X" by Dominik Smole" with the "by" on the verb: Smole wrote X, nobody "based" the film
        _source_authors(state, children, agents)
        agents = []
    if not agents and verb.tag_ == "VBN" and not objects and lemma not in _SOURCE_VERBS:
        # "written and directed by Stephen King": the first participle shares the agent of its conjunct (not a
        # source verb's: "based on a novel by X and produced by Universal" was not based by Universal).
        for other in verb.conjuncts:
            if other.i > verb.i and other.tag_ == "VBN":
                for by in other.children:
                    if by.dep_ == "agent":
                        agents.extend(m for pobj in by.children if pobj.dep_ == "pobj"
                                      for m in _agent_names(state, pobj))
                break

    if not objects and not has_object and verb.tag_ == "VBG" and verb.dep_ == "acl":
        # "a 1993 film starring and directed by Mel Gibson": the participle's object is the agent
        # of the passive it is coordinated with.
        for other in verb.conjuncts:
            if other.i > verb.i and other.tag_ == "VBN":
                objects.extend(m for by in other.children if by.dep_ == "agent" for pobj in by.children
                               if pobj.dep_ == "pobj" for m in _agent_names(state, pobj))
                break

    if passive and lemma in _SOURCE_VERBS and _source_authors(state, children):
        agents = []  # "based on the comic strip "Tailspin Tommy" by Hal Forrest": Forrest made the strip
    elif passive and not agents:
        # "was built at the University of Manchester by Frederic Williams, ...": the parser hung the
        # agent on the place; people named after that "by" are who did it.
        for place_prep in (c for c in children if c.dep_ == "prep" and c.lower_ != "by"):
            # (only after a place or a body: in 'based on the novel "Trucks" by Stephen King' the "by" says who
            # wrote the novel, not who based the film on it)
            for by in (t for pobj in place_prep.children if pobj.dep_ == "pobj" and _where_done(state, pobj)
                       for t in pobj.children if t.dep_ == "prep" and t.lower_ == "by"):
                agents.extend(m for pobj in by.children if pobj.dep_ == "pobj"
                              for m in _agent_names(state, pobj) if state.is_person(m))

    if lemma in ALIAS_VERBS and (passive or verb.dep_ == "acl"):
        names = [m for prep, m in args if prep == "as" and not m.is_date]
        for subject in subjects:
            subject.aliases.extend(m.name for m in names if m.name != subject.name)
        state.aliased.update(id(m) for m in names)
        args = [(prep, m) for prep, m in args if prep != "as"]

    state.front_qualifiers[verb.i] = [(p, m) for p, m in args if qualifies(p, m) and m.start < verb.i] + inherited

    if roles and not objects and not agents:
        qualifiers = [(p, m) for p, m in args if qualifies(p, m)] + inherited
        if any([noun_relations(state, subjects, role, qualifiers) for role in roles]):  # a list: every role
            return  # the dates and places qualify the role: "served as X of Y from 1994"
    used_prep = ""
    more_preps: list[Qualifier] = []
    if objects and all(m.label == CONCEPT for m in objects) and (
        noun_args or any(p in _OBJECT_NOUN_PREPS and not m.is_date for p, m in args)
    ):
        # "wrote a programming manual for the Ferranti Mark 1": the named thing is the object
        # and the common noun joins the predicate (below), rather than a triple to a concept.
        objects = []
    if agents and not passive and not has_object and not objects and verb.tag_ in ("VBD", "VBN"):
        # "a recurring character, Karen McCluskey played by Kathryn Joosten": the tagger took the
        # participle of a reduced passive for a past tense, so its "by" names who did it.
        passive = True
        word = verb.lower_ if not particle else f"{verb.lower_} {particle}"
    if passive and agents:
        # "founded by X and Y, with Z": Z did it too.
        helpers = [m for p, m in args if p == "with" and m.label == "PERSON" and m not in agents]
        doers, targets, predicate = [*agents, *helpers], subjects, phrasal
        args = [(p, m) for p, m in args if m not in helpers]
    elif objects:
        doers, targets, predicate = subjects, objects, word
    elif has_object:
        # A direct object we cannot name: "earned a doctorate ... from the University of X",
        # "completed a doctorate under Alonzo Church". The named prepositional object is the
        # relation's object and the common noun joins the predicate: (X, earn doctorate from, Y).
        # With no named object, a date is the object: "EDSAC ran its first program on 6 May 1949".
        noun = next((c for c in children if c.dep_ == "dobj"), None)
        if noun is not None and lemma in ROLE_VERBS and played_role(
                state, subjects, noun, [(p, m) for p, m in args if qualifies(p, m)] + inherited,
                [c for c in children if c.dep_ == "prep"]):
            return  # "played the role of X on the TV series Y": see roles_played
        named_noun = noun is not None and any(c.dep_ == "compound" for c in noun.children)  # "the A-0 system"
        chosen = [(p, m) for p, m in args if not m.is_date] or noun_args or (
            [] if named_noun else [(p, m) for p, m in args if m.is_date])
        if not chosen or noun is None or noun.tag_ not in ("NN", "NNS"):
            return  # light verbs included: "earned a doctorate from", "took part in", "won a medal at"
        used_prep = chosen[0][0]
        noun_word = state.lemma(noun)
        # "played ten seasons in the National Hockey League": a counted span of time says how long, so the
        # relation is the verb's with the named place or body: (X, play in, National Hockey League).
        span = noun_word in _TIME_SPANS and any(c.dep_ == "nummod" for c in noun.children) and (
            used_prep in _OBJECT_NOUN_PREPS)
        if not span and (used_prep not in _OBJECT_NOUN_PREPS or noun_word in VAGUE_NOUNS or not noun_word.isalpha()):
            return  # "discussed similar ideas before him": time, not a relation
        doers = subjects
        targets = [m for p, m in chosen if p == used_prep]
        predicate = f"{word} {used_prep}" if span else f"{word} {noun_word} {used_prep}"
    else:
        chosen = [(p, m) for p, m in args if not m.is_date and p != "during"]  # "during the war" says when
        if not chosen and lemma in DATE_VERBS:
            chosen = [(p, m) for p, m in args if m.is_date]
        if not chosen:
            return
        used_prep = chosen[0][0]
        doers = subjects
        targets = [m for p, m in chosen if p == used_prep]
        predicate = f"{word} {used_prep}"
        # "came out in Hungary one week later through Nail Records": each preposition's named object is
        # a relation of the verb (the first one's place or date qualifies the others).
        more_preps = [(p, m) for p, m in chosen if p != used_prep and p not in _NOT_OBJECT_PREPS
                      and not qualifies(p, m) and m not in targets]
    qualifiers = [(p, m) for p, m in args if qualifies(p, m) and m not in targets]
    qualifiers += [q for q in inherited if q[1] not in targets and q not in qualifiers]
    # Some verbs take people only: whoever directs, marries or dies is a person, whatever
    # the NER guessed ("directed by Klaus Menzel" (ORG)).
    if lemma in ("bear", "die"):
        state.birthplaces.update(id(m) for m in targets if m.is_place)
    if lemma in PERSON_DOER_VERBS:
        for subject in doers:
            if subject.label != "PERSON":
                subject.guess_class(state.classes.person)
    if lemma in PERSON_OBJECT_VERBS:
        for target in targets:
            if target.label != "PERSON" and not target.is_date:
                target.guess_class(state.classes.person)
    hint, overridden = OBJECT_CLASSES.get(lemma, ("", frozenset()))
    object_class = state.classes.by_hint.get(hint)
    if object_class is not None and not used_prep:  # direct objects and passive patients only
        for target in targets:
            if target.label in overridden:
                target.guess_class(object_class)
    for subject in doers:
        for target in targets:
            state.triple(subject, predicate, target, qualifiers)
    if more_preps:
        where = [(used_prep, t) for t in targets if qualifies(used_prep, t)] + qualifiers
        for subject in doers:
            for prep, target in more_preps:
                state.triple(subject, f"{word} {prep}", target, [q for q in where if q[1] is not target])
    _event(state, phrasal, lemma, passive, word, doers, targets, used_prep, qualifiers)


def _copula_qualifiers(state: ChunkState, verb: Token, children: list[Token]) -> list[Qualifier]:
    """When and where a copula's statement holds: "During the Second World War it was the main site of X"."""
    found = [(c.lower_, m) for c in children if c.dep_ == "prep" for pobj in c.children if pobj.dep_ == "pobj"
             for m in [state.object(pobj, False)] if m is not None and qualifies(c.lower_, m)]
    inherited = state.front_qualifiers.get(verb.head.i, []) if verb.dep_ == "conj" else []
    return found + [q for q in inherited if q not in found]


def _married_to(state: ChunkState, verb: Token, subjects: list[Mention], qualifiers: list[Qualifier]) -> None:
    """ "She was married to film director Dominik Graf": the tagger reads "married" as an adjective and
    the parse after it varies, so the people named after "married to" in the clause are the spouses."""
    doc = state.doc
    acomp = next(c for c in verb.children if c.dep_ == "acomp" and c.lower_ == "married")
    if acomp.i + 1 >= len(doc) or doc[acomp.i + 1].lower_ != "to":
        return
    end = state.sent_bounds[state.sent_index[verb.i]][1]
    spouses: list[Mention] = []
    for i in range(acomp.i + 2, end):
        tok = doc[i]
        if tok.text == ";" or any(c.dep_ in ("nsubj", "nsubjpass") for c in tok.children):
            break  # the clause ends
        mention = state.tok2m[i]
        if mention is not None and mention.label == "PERSON":
            # the first person named ("to the food writer and TV cook Nigella Lawson") and those listed with it
            spouses = unique([mention, *(m for t in conjuncts(doc[mention.end - 1])
                                         for m in [state.tok2m[t.i]] if m is not None and m.label == "PERSON")])
            break
    for subject in subjects:
        for spouse in spouses:
            state.triple(subject, "marry", spouse, qualifiers)


# Adverbs that say a phrase is not known for certain.
_HEDGE_ADVERBS = frozenset({"apparently", "reportedly", "allegedly", "possibly", "probably", "presumably",
                            "supposedly", "perhaps", "maybe", "purportedly", "rumoredly", "rumouredly"})


def _hedged(prep: Token) -> bool:
    before = prep.doc[prep.i - 1] if prep.i > 0 else None
    return (before is not None and before.lower_ in _HEDGE_ADVERBS) or any(
        c.dep_ == "advmod" and c.lower_ in _HEDGE_ADVERBS for c in prep.children)


def _cause(state: ChunkState, tok: Token) -> Mention | None:
    """A cause of death as a concept: "died of lung cancer", "died of pneumonia" (a bare disease noun is
    specific enough here, where a bare object elsewhere is not), never "died of his wounds"."""
    if tok.tag_ != "NN" or not tok.is_alpha or any(
            c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ not in ("a", "an")) for c in tok.children):
        return None
    found = state.concept(tok)
    if found is None and state.lemma(tok) not in VAGUE_NOUNS and len(tok.text) > 3:
        found = Mention(state.lemma(tok), state.classes.concept, CONCEPT, tok.i, tok.i + 1)
    return found


def _fronted_object(state: ChunkState, prep: Token) -> Mention | None:
    """The name that starts right after a fronted preposition the parser left without an object."""
    j = prep.i + 1
    if j < len(state.doc) and state.doc[j].lower_ == "the":
        j += 1
    if j >= len(state.doc):
        return None
    mention = state.tok2m[j]
    return mention if mention is not None and mention.start >= prep.i + 1 else None


def _birth_name(children: list[Token]) -> list[Token]:
    """ "She was born Augusta Ada Byron in London": the parser hangs the place on the birth name after
    "born", though it is where the birth was. (The birth name itself makes no node: as a person, entity
    fusion joins it with a relative who shares the surname, "Lord Byron".)"""
    out = list(children)
    for child in children:
        if child.dep_ == "oprd" and child.tag_ in PROPER_TAGS:
            out.extend(c for c in child.children if c.dep_ == "prep")
    return out


def _agent_names(state: ChunkState, pobj: Token) -> list[Mention]:
    """Who is named after "by": the names listed there, or the names in apposition to a common
    noun ("by husband and wife team Eric Obenauf and Eliza Jane Wood-Obenauf")."""
    found: list[Mention] = []
    for tok in listed(pobj):
        mention = state.named(tok)
        if mention is not None:
            found.append(mention)
            # "written by Iannucci with Andy Riley and Kevin Cecil": the people "with" the agent did it too
            found.extend(m for w in tok.children if w.dep_ == "prep" and w.lower_ == "with"
                         for p in w.children if p.dep_ == "pobj" for t in listed(p)
                         for m in [state.named(t)] if m is not None and m.label == "PERSON")
        elif tok.tag_ in ("NN", "NNS"):
            for child in tok.children:
                if child.dep_ == "appos":
                    found.extend(m for m in (state.named(t) for t in listed(child)) if m is not None)
    return unique(found)


def _event(
    state: ChunkState, phrasal: str, lemma: str, passive: bool, trigger: str, doers: list[Mention],
    targets: list[Mention], used_prep: str, qualifiers: list[Qualifier],
) -> None:
    rule = EVENTS.get(phrasal) or EVENTS.get(lemma)
    if rule is None or not doers or (rule.passive_only and not passive):
        return
    # Birth and death take their place and time from the object too ("born in X"); other
    # events only from qualifiers (the employer is not where the work happened).
    candidates: list[Qualifier] = [(used_prep, m) for m in targets] if rule.object_role is None else []
    candidates += qualifiers
    time = next((m for _, m in candidates if m.is_date), None)
    place = next((m for p, m in candidates if not m.is_date and p in PLACE_PREPS and qualifies(p, m)), None)
    arguments: dict[str, list[Mention]] = {rule.subject_role: list(doers)}
    if rule.object_role is None:
        if time is None and place is None:
            return
    else:
        objects = [m for m in targets if not m.is_date]
        if not objects or (rule.object_preps and used_prep not in rule.object_preps):
            return  # "worked in 1990" is no employment; "worked at X" is
        if rule.object_role == rule.subject_role:
            arguments[rule.subject_role] = unique([*doers, *objects])
        else:
            arguments[rule.object_role] = objects
    for mention in (*(m for ms in arguments.values() for m in ms), time, place):
        if mention is not None:
            state.use(mention)
    state.events.append(EventFact(rule.type, trigger, arguments, time, place))
