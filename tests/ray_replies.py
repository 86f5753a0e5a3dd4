"""A scripted model's extraction replies, derived from the passage alone (so any corpus gets a
deterministic graph): the first capitalised words become entities related in reading order."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any


def passage(body: dict[str, Any]) -> str:
    """The chunk text of an extraction request: between the last pair of triple quotes."""
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    found = re.findall(r'"""\n(.*?)\n"""', user, flags=re.S)
    return found[-1] if found else user


def extraction_reply(body: dict[str, Any]) -> str:
    names: list[str] = []
    for word in re.findall(r"\b[A-Z][a-z]{3,}\b", passage(body)):
        if word not in names:
            names.append(word)
        if len(names) == 3:
            break
    entities = [{"name": n, "type": "Person" if i == 0 else "Organization", "description": f"{n} in the passage."}
                for i, n in enumerate(names)]
    relations = [{"subject": a, "predicate": "relatedTo", "object": b} for a, b in itertools.pairwise(names)]
    return json.dumps({"entities": entities, "events": [], "relations": relations, "hypernodes": []})
