"""Rule-based relations of Chinese sentences, and aliases.

Chinese drops a subject the previous clause named (脂溢性皮炎，亦称…，是一种…皮肤病), so each rule
takes its subject from its own clause when a mention starts it, else from the sentence's first
mention, else from the passage's topic (its first dictionary term or typed mention). Predicates are
the schema's where it has them (isA -> subtypeOf in the medicine schema), else these plain names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgbuild.extract.zh.mentions import Mention

# Markers of another name for the mention just before: X（简称Y）, X，亦称Y, X又称Y, X俗称Y...
_ALIAS = re.compile(r"[（(]?\s*(?:简称|又称|亦称|也称|俗称|别名|又名|也叫|曾用名)\s*[:：]?\s*"
                    r"(?P<alias>[\u4e00-\u9fffA-Za-z0-9\-]{2,30})")
_ALIAS_OF = re.compile(r"^\s*是\s*(?P<full>[^，。；]{2,30}?)\s*(?:\[\d+\])?\s*的(?:简称|别称|俗称)")
_LATIN_PAREN = re.compile(r"^\s*[（(](?P<inside>[A-Za-z][A-Za-z0-9 ,，\-]{1,80})[）)]")
# ． (full-width full stop) ends sentences in some Chinese sources (doc.txt: 全身生长．促进蛋白质合成).
_CLAUSE_END = re.compile(r"[，,；;。．！？!?：:\n]")
_SENTENCE_END = re.compile(r"(?<=[。．！？!?\n])")
_REF = re.compile(r"\s*\[\d+\]")


@dataclass(frozen=True)
class Triple:
    subject: Mention
    predicate: str  # a rule name: isA, belongTo, commonIn, locatedIn, hasSymptom, hasComplication, causedBy...
    object: Mention


@dataclass
class SentenceFacts:
    triples: list[Triple] = field(default_factory=list)
    aliases: list[tuple[Mention, str]] = field(default_factory=list)  # (mention, its other name)
    # Where each other name is written: a mention inside it (用人生长激素 in 注射用人生长激素) is a
    # piece of that name, not a thing of its own.
    alias_spans: list[tuple[Mention, int, int]] = field(default_factory=list)
    retyped: dict[int, str] = field(default_factory=dict)  # id(mention) -> class its context gives it
    added: list[Mention] = field(default_factory=list)  # list items the tokens did not make mentions of


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int
    text: str
    mentions: list[Mention]


def sentences(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for piece in _SENTENCE_END.split(text):
        if piece.strip():
            out.append((start, start + len(piece)))
        start += len(piece)
    return out


def _clauses(text: str, start: int, end: int, mentions: list[Mention]) -> list[_Clause]:
    out: list[_Clause] = []
    pos = start
    for m in [*_CLAUSE_END.finditer(text, start, end), None]:
        stop = m.start() if m else end
        if stop > pos:
            inside = [x for x in mentions if x.start >= pos and x.end <= stop]
            out.append(_Clause(pos, stop, text[pos:stop], inside))
        pos = m.end() if m else end
    return out


class RelationRules:
    def __init__(self, classes: dict[str, str]) -> None:
        """`classes`: the schema's class for each role the rules type by context (Symptom, Drug...),
        only those the schema has."""
        self.classes = classes

    def sentence(self, text: str, start: int, end: int, mentions: list[Mention],
                 topic: Mention | None) -> SentenceFacts:
        facts = SentenceFacts()
        inside = [m for m in mentions if m.start >= start and m.end <= end]
        self._aliases(text, inside, facts)
        clauses = _clauses(text, start, end, inside)
        lead = next((m for m in inside if m.spg_class), None)
        subject = lead if lead is not None and lead.start - start <= 2 else topic
        sentence_text = text[start:end]
        for clause in clauses:
            own = clause.mentions[0] if clause.mentions and clause.mentions[0].start - clause.start <= 1 else None
            # A department list names one department per clause: its subject is the sentence's.
            dept = self.classes.get("HospitalDepartment")
            chosen = subject if own is not None and own.spg_class == dept and subject is not None else own or subject
            self._clause(clause, chosen, sentence_text, facts)
        return facts

    # ------------------------------------------------ aliases

    def _aliases(self, text: str, inside: list[Mention], facts: SentenceFacts) -> None:
        for m in inside:
            after = text[m.end:m.end + 60]
            if (paren := _LATIN_PAREN.match(after)) is not None:
                for part in re.split(r"[,，]", paren.group("inside")):
                    if part.strip():
                        facts.aliases.append((m, part.strip()))
            if (of := _ALIAS_OF.match(after)) is not None:
                facts.aliases.append((m, _REF.sub("", of.group("full")).strip()))
                facts.alias_spans.append((m, m.end + of.start("full"), m.end + of.end("full")))
        for match in _ALIAS.finditer(text, inside[0].start if inside else 0, inside[-1].end + 40 if inside else 0):
            before = [m for m in inside if m.end <= match.start() and match.start() - m.end <= 2]
            if before:
                facts.aliases.append((before[-1], match.group("alias")))
                facts.alias_spans.append((before[-1], match.start("alias"), match.end("alias")))

    # ------------------------------------------------ clause rules

    def _retype(self, facts: SentenceFacts, ms: list[Mention], role: str) -> list[Mention]:
        cls = self.classes.get(role)
        out = []
        for m in ms:
            if not m.spg_class and cls:
                facts.retyped[id(m)] = cls
            if m.spg_class or cls:
                out.append(m)
        return out

    def _list_items(self, clause: _Clause, offset: int, facts: SentenceFacts, stop: int | None = None) -> list[Mention]:
        """The items of a list (A、B和C等) from `offset` in the clause: each is the mention spanning
        it exactly, else a new untyped mention (jieba may tag a symptom such as 瘙痒 a verb)."""
        out: list[Mention] = []
        pos = clause.start + offset
        for piece in re.split(r"([、和及与或])", clause.text[offset:stop]):
            start, end = pos, pos + len(piece)
            pos = end
            item = re.sub(r"等$", "", piece.strip())
            if len(item) < 2 or (len(piece) == 1 and piece in "、和及与或"):
                continue
            end = start + len(item)
            found = next((m for m in clause.mentions if m.start == start and m.end == end), None)
            if found is None:
                found = Mention(item, "", start, end, item)
                facts.added.append(found)
            out.append(found)
        return out

    def _clause(self, clause: _Clause, subject: Mention | None, sentence_text: str, facts: SentenceFacts) -> None:
        text, ms = clause.text, clause.mentions
        rest = [m for m in ms if m is not subject]
        add = facts.triples.append
        if subject is None:
            return
        if re.search(r"症状(?:主要)?(?:包括|有|为|是|表现为)", text):
            cut = re.search(r"(?:包括|有|为|是)", text)
            items = self._list_items(clause, cut.end() if cut else 0, facts)
            for m in self._retype(facts, items, "Symptom"):
                add(Triple(subject, "hasSymptom", m))
            return
        if "并发症" in text and (cue := re.search(r"导致|引起|出现|包括", text)) is not None:
            tail = re.search(r"等?并发症", text[cue.end():])
            stop = cue.end() + tail.start() if tail else None
            for m in self._retype(facts, self._list_items(clause, cue.end(), facts, stop), "Disease"):
                add(Triple(subject, "hasComplication", m))
            return
        if (cue := re.search(r"药物(?:有|是|包括|如)", text)) is not None:
            self._retype(facts, self._list_items(clause, cue.end(), facts), "Drug")
            return
        if (m_isa := re.search(r"是(?:一种|一类|一个)|属于|是[^，。]*的一种", text)) is not None:
            targets = [m for m in rest if m.spg_class and m.start - clause.start >= m_isa.start()]
            if targets:
                predicate = "belongTo" if "属于" in m_isa.group(0) else "isA"
                add(Triple(subject, predicate, targets[-1]))
            return
        if re.search(r"(?:可|可以)?分为", text):
            for m in [m for m in rest if m.spg_class]:
                add(Triple(m, "isA", subject))
            return
        if re.search(r"常见于|好发于|多见于|多发于|易感|易患|更易|高发", text):
            for m in self._retype(facts, rest, "Population"):
                if m.spg_class == self.classes.get("Population") or id(m) in facts.retyped:
                    add(Triple(subject, "commonIn", m))
            return
        if "位于" in text:
            for m in [m for m in rest if m.spg_class]:
                add(Triple(subject, "locatedIn", m))
            return
        if re.search(r"挂号|就诊", text) or (re.search(r"挂号|就诊", sentence_text) and re.search(r"科$", text)):
            for m in rest:
                if m.spg_class == self.classes.get("HospitalDepartment"):
                    add(Triple(subject, "belongsToDepartment", m))
            return
        if "病因" in sentence_text and re.search(r"与|导致|引起", text):
            for m in [m for m in rest if m.spg_class]:
                add(Triple(subject, "causedBy", m))
            return
        if re.search(r"治疗|服用|口服|用药|采用|应用", text) and subject.spg_class in (
                self.classes.get("Disease"), self.classes.get("Symptom")):
            for m in rest:
                if m.spg_class in (self.classes.get("Drug"), self.classes.get("Treatment"),
                                   self.classes.get("SurgicalOperation")):
                    add(Triple(subject, "treatedWith", m))
            return
        if (cause := re.search(r"导致|引起", text)) is not None:
            before = [m for m in rest if m.end - clause.start <= cause.start()]
            after = [m for m in rest if m.start - clause.start >= cause.end() and m.spg_class]
            source = before[-1] if before and before[-1].spg_class else subject
            for m in after:
                add(Triple(m, "causedBy", source))
