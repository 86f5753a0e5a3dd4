"""Word lists the dependency rules consult (lemmas, lowercase)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

PROPER_TAGS = frozenset({"NNP", "NNPS"})
NOUN_TAGS = frozenset({"NN", "NNS"})
REL_PRONOUNS = frozenset({"who", "which", "that", "whom"})
HEDGES = frozenset({"may", "might", "could", "should", "can", "must"})
COPULAS = frozenset({"be", "become", "remain"})
DASHES = frozenset({"–", "—", "-", "−"})
# Regnal and model numbers that belong to a name ("Adalbert II", "UNIVAC I").
ROMAN_NUMERALS = frozenset(
    {"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi"}
)
# Titles and ranks written before a name ("Major-General Charles ...", "Princess Yolanda").
NAME_TITLES = frozenset(
    {"king", "queen", "prince", "princess", "duke", "duchess", "count", "countess", "saint", "st.", "emperor",
     "empress", "lord", "lady", "margrave", "archduke", "archduchess", "grand", "pope", "bishop", "earl", "sir",
     "dame", "dr.", "dr", "mr.", "mrs.", "ms.", "major", "general", "colonel", "captain", "lieutenant", "admiral",
     "sergeant", "president", "senator", "governor", "reverend", "rev.", "baron", "baroness", "marquess",
     "viscount", "sultan", "shah", "emir", "tsar", "czar", "infante", "infanta", "father", "brother", "sister"}
)

# Verbs that say nothing checkable about their object, or only report speech and thought.
SKIP_VERBS = frozenset(
    {"be", "have", "do", "say", "seem", "appear", "think", "believe", "want", "try", "need", "let", "tell", "hope",
     "plan"}
)
# Light verbs: fine with a named object ("left Paris"), noise with a common noun ("took part").
LIGHT_VERBS = frozenset(
    {"make", "take", "give", "get", "see", "find", "use", "put", "keep", "begin", "start", "continue",
     "become", "go", "come", "include", "contain", "show", "follow", "lead", "leave", "hold", "reach",
     "mark", "feature", "spend", "gain", "lose", "bring", "serve", "remain", "consider", "describe",
     "know", "call", "name", "play", "receive", "win", "earn"}
)
# Verbs whose object is only meaningful through a preposition ("worked at X", not "works X").
PREP_ONLY_VERBS = frozenset({"work", "live", "die", "bear"})
# Verbs whose date alone is a fact worth a triple ("released in 1990", "died on 3 May 1950");
# for other verbs "signed in 2005" only qualifies a triple with a named object.
DATE_VERBS = frozenset(
    {"bear", "die", "found", "establish", "cofound", "co-found", "form", "release", "publish", "premiere", "air",
     "debut", "open", "close", "build", "construct", "complete", "launch", "create", "dissolve", "disband",
     "incorporate", "inaugurate", "marry", "retire", "write", "compose", "record", "invent", "discover",
     "elect", "appoint", "crown", "abdicate", "assassinate", "execute", "kill", "murder", "bury", "baptize",
     "christen", "canonize", "beatify", "demolish", "destroy", "reign", "graduate", "ordain", "consecrate",
     "produce", "film", "abolish", "merge", "acquire", "rename", "sink"}
)
# Verbs whose doer (or object) can only be a person: they correct the NER's class.
PERSON_DOER_VERBS = frozenset(
    {"bear", "die", "direct", "paint", "narrate", "choreograph", "marry"}  # not "write": bands write songs
)
PERSON_OBJECT_VERBS = frozenset({"star", "co-star", "marry"})
# What the object of these verbs is, when the NER called it a person or did not label it:
# "Flowers designed Colossus", "founded Hyperwerks (PERSON)", "wrote Hamlet (PERSON)".
# Value: (class, NER labels it overrides). A founded GPE is a city ("founded Rome"), so
# founding overrides only person labels; a designed "GPE" ("designed the Bombe") is a slip.
_PEOPLE = frozenset({"PERSON", "PROPN"})
OBJECT_CLASSES: Mapping[str, tuple[str, frozenset[str]]] = MappingProxyType({
    **{verb: ("Organization", _PEOPLE) for verb in ("found", "establish", "cofound", "co-found")},
    **{
        verb: ("Work", _PEOPLE | {"GPE", "LOC", "ORG", "NORP"})
        for verb in ("write", "co-write", "compose", "paint", "direct", "publish", "film")
    },
    **{verb: ("Product", _PEOPLE | {"GPE", "LOC", "NORP"})
       for verb in ("design", "build", "invent", "construct", "manufacture")},
})
# Heads through which an xcomp verb inherits its subject: "went on to found X" states a fact,
# "wanted to found X" does not.
XCOMP_HEADS = frozenset({"go", "continue", "begin", "start", "return", "move", "proceed", "help", "use"})
# Participles that credit people for a work; chained after another ("directed by X, written by
# Y, and starring Z") the parser hangs them on the previous person instead of on the work.
CREDIT_VERBS = frozenset(
    {"write", "direct", "produce", "star", "compose", "edit", "release", "publish", "distribute", "feature",
     "co-write", "co-produce", "co-star", "create", "develop", "design", "illustrate", "score", "narrate",
     "animate", "choreograph", "film", "shoot", "record", "perform", "sing", "cowrite", "present", "host"}
)
# "X, also known as Y" / "originally published as Y": Y is another name of X, not a relation.
ALIAS_VERBS = frozenset(
    {"know", "refer", "call", "name", "title", "rename", "publish", "release", "style", "nickname", "bill", "credit"}
)

# Vague head nouns that make useless concept objects.
VAGUE_NOUNS = frozenset(
    {"thing", "part", "one", "lot", "number", "way", "time", "year", "role", "use", "kind", "type", "sort",
     "place", "end", "lack", "variety", "range", "member", "group", "rest", "majority", "total", "amount",
     "deal", "bit", "piece", "side", "form", "career", "life", "name", "title", "position", "job", "interest",
     "attention", "support", "access", "help", "chance", "opportunity", "attempt", "effort", "step",
     "decision", "idea", "fact", "case", "point", "reason", "result", "effect", "term", "period", "day",
     "night", "week", "month", "season", "death", "birth", "home", "work", "order", "other", "many", "most",
     "some", "all", "each", "both", "several", "first", "last", "same", "series", "couple", "half", "list"}
)
STOP_ADJECTIVES = frozenset(
    {"same", "other", "such", "several", "many", "various", "own", "first", "last", "next", "former",
     "following", "certain", "different", "numerous", "few", "more", "most", "further", "only", "main",
     "new", "early", "late", "later", "earlier", "previous", "current", "whole", "entire", "second", "third"}
)
BAD_DETERMINERS = frozenset(
    {"this", "that", "these", "those", "such", "another", "each", "every", "some", "any", "no", "which", "what",
     "whose"}
)
# Capitalised relational nouns ("King of Italy", "First Lady of the United States"); other
# capitalised attributes are names ("Isabel of Dover"), not relations.
TITLE_NOUNS = NAME_TITLES | frozenset(
    {"lady", "minister", "chancellor", "secretary", "chairman", "chairwoman", "director", "justice", "master",
     "mayor", "ambassador", "chief", "head", "leader", "ceo", "founder", "speaker", "archbishop", "marshal",
     "commander", "consort", "heir", "regent", "patriarch", "prior", "dean", "rector", "provost", "professor",
     "member", "governor-general", "viceroy", "prefect", "premier", "chair", "principal", "editor", "captain",
     "vice", "deputy", "vice-president", "vice president", "prime minister"}
)
REL_NOUN_PREPS = frozenset({"of", "in", "at", "for", "from", "to"})
# Agent nouns read as the verb they name, so "the founder of Y" and "founded Y" are one
# predicate in the graph: (X, found, Y).
AGENT_NOUN_VERBS: Mapping[str, str] = MappingProxyType({
    "founder": "found", "co-founder": "cofound", "cofounder": "cofound", "author": "write", "writer": "write",
    "creator": "create", "inventor": "invent", "designer": "design", "composer": "compose",
    "builder": "build", "discoverer": "discover", "developer": "develop", "publisher": "publish",
    "screenwriter": "write", "lyricist": "write", "illustrator": "illustrate", "architect": "design",
})
# A player "for" a team played for it (issue 23, eleventh session): "a rugby league footballer for the Newcastle
# Knights", "a first-class cricket player for Lancashire" are (X, play for, team), as "played for" is.
PLAYER_NOUNS = frozenset({"player", "footballer", "cricketer", "batsman", "bowler", "midfielder", "defender",
                          "forward", "striker", "goalkeeper", "winger", "pitcher", "quarterback", "fullback",
                          "halfback", "centre", "center", "guard", "hooker", "prop", "outfielder", "catcher"})
# Works a possessive owner made: "his book with X, T" -> (he, write, T), (X, write, T).
WORK_NOUN_VERBS: Mapping[str, str] = MappingProxyType({
    "book": "write", "novel": "write", "paper": "write", "report": "write", "essay": "write", "article": "write",
    "poem": "write", "memoir": "write", "autobiography": "write", "treatise": "write", "thesis": "write",
    "play": "write", "symphony": "compose", "opera": "compose", "painting": "paint", "film": "direct",
    "album": "record", "song": "write", "invention": "invent", "design": "design", "story": "write",
    "collection": "write", "screenplay": "write", "single": "record",
})
PLACE_PREPS = frozenset({"in", "at", "near", "on"})
# "X is a village in Y" reads better as (X, located in, Y).
PLACE_NOUNS = frozenset(
    {"village", "town", "city", "municipality", "commune", "river", "lake", "mountain", "district", "county",
     "region", "suburb", "neighbourhood", "neighborhood", "island", "settlement", "community", "parish",
     "hamlet", "province", "locality", "borough", "township", "area", "capital", "port", "peak", "valley",
     "road", "street", "highway", "bridge", "castle", "palace", "church", "cathedral", "abbey", "monastery",
     "stadium", "airport", "lighthouse", "tower", "dam", "canal", "square", "mosque", "temple", "park"}
)


@dataclass(frozen=True)
class EventRule:
    type: str
    subject_role: str
    object_role: str | None = None  # None: the event needs only its subject plus a time or place
    object_preps: frozenset[str] = frozenset()  # if set, the object must come through one of these
    passive_only: bool = False  # "was awarded X": the subject received; "awards X": it gave


EVENTS: Mapping[str, EventRule] = MappingProxyType({
    "bear": EventRule("Birth", "person"),
    "die": EventRule("Death", "person"),
    **{
        verb: EventRule("Founding", "founder", "organization")
        for verb in ("found", "establish", "cofound", "co-found", "set up")
    },
    **{
        verb: EventRule("Creation", "creator", "work")
        for verb in ("build", "design", "invent", "create", "develop", "write", "compose", "direct", "paint", "compile")
    },
    # "formed in 1981 by King Diamond": the passive only ("formed a partnership" founds nothing)
    "form": EventRule("Founding", "founder", "organization", passive_only=True),
    "join": EventRule("Employment", "employee", "employer"),
    "work": EventRule("Employment", "employee", "employer", frozenset({"at", "for"})),
    "win": EventRule("Award", "recipient", "award"),
    "receive": EventRule("Award", "recipient", "award"),
    "award": EventRule("Award", "recipient", "award", passive_only=True),
    "marry": EventRule("Marriage", "spouse", "spouse"),
})


# A nation's institutions, named by its people's adjective: "the German navy" (Arguments.national_body).
NATIONAL_BODIES = frozenset({
    "army", "navy", "government", "military", "police", "parliament", "senate", "monarchy", "administration",
    "cabinet", "marines", "airforce", "legislature", "embassy", "consulate", "treasury", "admiralty",
})

# Words for the kind of artefact a name before them is: "the Enigma machine" (Arguments.named_kind).
ARTEFACT_KINDS = frozenset({
    "machine", "computer", "device", "system", "engine", "program", "programme", "project", "rocket", "ship",
    "aircraft", "satellite", "missile", "processor", "software", "cipher", "calculator", "telescope", "vehicle",
})
