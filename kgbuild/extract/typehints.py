"""Schema classes implied by a definition's head noun: "X is a 2013 film" makes X a Work.

en_core_web_sm often labels titles as PERSON ("Demon Dice", "Aas Ka Panchhi") and people as
ORG; an explicit "is a <noun>" definition is far more reliable than the NER label, so it
decides the class when its head noun is listed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_WORK = frozenset({
    "film", "movie", "documentary", "album", "song", "single", "novel", "book", "series", "play", "opera",
    "musical", "poem", "painting", "sculpture", "episode", "sitcom", "soundtrack", "ep", "anthology",
    "magazine", "newspaper", "comic", "manga", "anime", "game", "videogame", "show", "programme", "program",
    "drama", "comedy", "thriller", "western", "symphony", "concerto", "ballet", "short", "biography",
    "memoir", "novella", "essay", "journal", "sequel", "remake", "telenovela", "miniseries", "serial",
    "composition", "hymn", "ballad", "track", "film series", "mixtape", "story", "short story",
})
_ORGANIZATION = frozenset({
    "company", "corporation", "firm", "band", "group", "club", "team", "university", "college", "school",
    "party", "organization", "organisation", "agency", "association", "society", "institute", "label",
    "airline", "bank", "manufacturer", "brand", "network", "channel", "studio",
    "foundation", "charity", "federation", "league", "union", "council", "ministry", "department",
    "academy", "orchestra", "choir", "duo", "trio", "quartet", "ensemble", "franchise", "conglomerate",
    "subsidiary", "startup", "retailer", "dynasty",
})
_PLACE = frozenset({
    "village", "town", "city", "municipality", "commune", "river", "lake", "mountain", "district", "county",
    "region", "suburb", "neighbourhood", "neighborhood", "island", "settlement", "community", "parish",
    "hamlet", "province", "locality", "borough", "township", "country", "state", "capital", "port", "peak",
    "valley", "bay", "sea", "ocean", "desert", "forest", "park", "volcano", "glacier", "peninsula",
    "archipelago", "canton", "prefecture", "oblast", "voivodeship", "gmina", "departement", "kingdom",
    "principality", "duchy", "county seat", "census-designated place", "unincorporated community",
    "road", "street", "highway", "motorway", "bridge", "castle", "palace", "church", "cathedral", "abbey",
    "monastery", "stadium", "airport", "lighthouse", "tower", "dam", "canal", "square", "mosque", "temple",
})
_PERSON = frozenset({
    "actor", "actress", "singer", "songwriter", "writer", "author", "poet", "novelist", "director",
    "producer", "screenwriter", "politician", "footballer", "player", "cricketer", "athlete", "painter",
    "artist", "musician", "composer", "conductor", "pianist", "guitarist", "drummer", "rapper", "dancer",
    "model", "journalist", "presenter", "broadcaster", "comedian", "philosopher", "scientist", "physicist",
    "chemist", "biologist", "mathematician", "economist", "historian", "engineer", "architect", "inventor",
    "businessman", "businesswoman", "entrepreneur", "lawyer", "judge", "physician", "surgeon", "doctor",
    "nurse", "priest", "bishop", "archbishop", "cardinal", "pope", "monk", "nun", "saint", "king", "queen",
    "prince", "princess", "duke", "duchess", "count", "countess", "earl", "baron", "baroness", "lord",
    "lady", "emperor", "empress", "noble", "nobleman", "noblewoman", "aristocrat", "soldier", "officer",
    "general", "admiral", "colonel", "commander", "pilot", "sailor", "explorer", "diplomat", "ambassador",
    "activist", "teacher", "professor", "academic", "scholar", "theologian", "cyclist", "boxer", "wrestler",
    "swimmer", "runner", "sprinter", "skier", "tennis player", "golfer", "coach", "manager", "pitcher",
    "goalkeeper", "defender", "midfielder", "forward", "striker", "jockey", "racer", "driver", "filmmaker",
    "photographer", "illustrator", "cartoonist", "designer", "sculptor", "editor", "critic",
    "translator", "lyricist", "vocalist", "bassist", "violinist", "cellist", "organist", "tenor", "soprano",
    "baritone", "mezzo-soprano", "performer", "entertainer", "host", "personality", "socialite", "consort",
    "son", "daughter", "wife", "husband", "mother", "father", "brother", "sister", "heir", "regent",
    "monarch", "ruler", "sultan", "chief", "president", "governor", "mayor", "senator", "minister",
    "chancellor", "statesman", "official", "civil servant", "peer", "knight", "margrave", "landgrave",
    "elector", "abbot", "abbess", "rabbi", "imam", "missionary", "martyr", "warrior", "samurai", "chess player",
    "mountaineer", "astronaut", "astronomer", "geologist", "botanist", "zoologist", "psychologist",
    "sociologist", "anthropologist", "linguist", "librarian", "accountant", "banker", "merchant", "trader",
    "farmer", "industrialist", "philanthropist", "patron", "spy", "criminal", "murderer", "outlaw", "pirate",
    "vlogger", "youtuber", "blogger", "influencer", "voice actor", "character actor", "stuntman", "choreographer",
    "cinematographer", "playwright", "dramatist", "essayist", "columnist", "reporter", "correspondent",
    "commentator", "announcer", "narrator", "newscaster", "publisher", "saxophonist", "trumpeter", "keyboardist",
    "percussionist", "bandleader", "frontman", "multi-instrumentalist", "animator", "programmer", "statistician",
    "logician", "cryptographer", "cryptanalyst", "codebreaker", "researcher", "analyst", "consultant", "chef",
    "gymnast", "fencer", "rower", "skater", "figure skater", "hurdler", "batsman", "bowler", "quarterback",
    "umpire", "referee", "playmaker", "winger", "captain", "lieutenant", "sergeant",
    "general manager", "executive", "chairman", "chairwoman", "founder", "co-founder", "owner", "investor",
    "psychiatrist", "neurologist", "poetess",
})
# Made things (the schema's Product / Artifact / ArtificialObject): "ENIAC was one of the first
# electronic computers" is a machine, whatever the NER labelled it (ORG).
_ARTEFACT = frozenset({
    "computer", "machine", "device", "calculator", "engine", "rocket", "missile", "satellite", "weapon", "rifle",
    "gun", "pistol", "tank", "telescope", "microscope", "processor", "microprocessor", "robot", "camera",
    "smartphone", "phone", "console", "cipher", "typewriter", "locomotive",
})
_ANIMAL = frozenset(
    {"racehorse", "horse", "stallion", "mare", "dog", "cat", "thoroughbred", "gelding", "colt", "filly"})

_HINTS: Mapping[str, str] = MappingProxyType({
    **{noun: "Work" for noun in _WORK},
    **{noun: "Organization" for noun in _ORGANIZATION},
    **{noun: "GeographicLocation" for noun in _PLACE},
    **{noun: "Person" for noun in _PERSON},
    **{noun: "Creature" for noun in _ANIMAL},
    **{noun: "Product" for noun in _ARTEFACT},
})

# Nouns that name the same kind of thing: "the film" may refer back to "X is a 2004 movie".
_SYNONYMS: list[frozenset[str]] = [
    frozenset({"film", "movie", "picture", "documentary"}),
    frozenset({"song", "single", "track"}),
    frozenset({"album", "record", "ep", "mixtape"}),
    frozenset({"company", "firm", "corporation", "business", "manufacturer"}),
    frozenset({"band", "group", "duo", "trio"}),
    frozenset({"show", "series", "programme", "program", "sitcom", "miniseries"}),
    frozenset({"game", "videogame"}),
    frozenset({"book", "novel", "novella"}),
    frozenset({"village", "town", "city", "municipality", "commune", "settlement", "hamlet"}),
]


def class_hint(semantic_type: str) -> str | None:
    """Schema class name suggested by a semantic type ("drama film" -> Work), or None."""
    lowered = semantic_type.lower()
    words = lowered.replace("-", " ").split()
    return _HINTS.get(lowered) or (_HINTS.get(words[-1]) if words else None)


def same_kind(noun: str, semantic_type: str) -> bool:
    """Whether "the <noun>" can refer back to something defined as a <semantic_type>."""
    words = semantic_type.lower().replace("-", " ").split()
    head = words[-1] if words else ""
    if noun == head:
        return True
    return any(noun in group and head in group for group in _SYNONYMS)


def is_person_role(noun: str) -> bool:
    """Whether a noun names what a person is or does ("guitarist", "film director")."""
    return class_hint(noun) == "Person"
