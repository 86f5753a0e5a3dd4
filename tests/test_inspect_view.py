"""`kgbuild inspect` in a terminal: every subcommand fits 80 columns, `--wide` shows every column,
`--json` parses, and the ids it prints are accepted back by `inspect support`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kgbuild.cli import main
from kgbuild.cli.inspect_view import event_arguments, first_chunk, item_label, short_id, shorten_middle
from kgbuild.workspace import Workspace

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"
CONFIG = "workspace: ws\nbuild:\n  workers: 1\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n"
LIST_COMMANDS = ("entities", "triples", "hypernodes", "events", "documents", "chunks", "merges", "drops")


def kg(config: Path, *args: str, width: int = 80) -> Result:
    return CliRunner().invoke(main, ["-c", str(config), *args], env={"COLUMNS": str(width)},
                              terminal_width=width, catch_exceptions=False)


def widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inspect_view")
    config = root / "kgbuild.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = kg(config, "build", str(SAMPLES), "--json")
    assert result.exit_code == 0, result.output
    return config


# ---------------------------------------------------------------- pure helpers


def test_shorten_middle_keeps_both_ends() -> None:
    assert shorten_middle("people/alan_turing#p00004#0", 18) == "people/al…p00004#0"
    assert len(shorten_middle("x" * 100, 18)) == 18
    assert shorten_middle("short", 18) == "short"
    assert shorten_middle("abcdef", 1) == "…"


def test_short_id_is_a_prefix_with_a_mark() -> None:
    assert short_id("rel_007839b5e26623eeb951") == "rel_007839b5…"
    assert short_id("rel_0078") == "rel_0078"
    assert short_id(None) == ""


def test_first_chunk_counts_the_rest() -> None:
    assert first_chunk(["Bombe#p00000#0"]) == "Bombe#p00000#0"
    assert first_chunk(["a#p00000#0", "b#p00001#0", "c#p00002#0"]) == "a#p00000#0\n+2 more"
    assert first_chunk([]) == ""


def test_event_arguments_by_role_and_name_never_ids() -> None:
    arguments = {"employee": [{"id": "ent_1", "kind": "entity", "name": "Gordon Welchman"},
                              {"id": "ent_2", "kind": "entity", "name": "Dilly Knox"}],
                 "employer": [{"id": "ent_3", "kind": "entity", "name": "GC&CS"}]}
    text = "employee: Gordon Welchman, Dilly Knox; employer: GC&CS"
    assert event_arguments(arguments) == text
    assert event_arguments(json.dumps(arguments)) == text  # a raw table cell reads the same
    assert event_arguments({}) == ""


def test_item_label_per_kind() -> None:
    assert item_label("entities", {"name": "COBOL", "spg_class": "Thing", "semantic_type": "language"}) \
        == "COBOL (Thing (language))"
    assert item_label("relations", {"subject_name": "A", "predicate": "p", "object_name": "B"}) == "(A, p, B)"
    event = {"type": "Birth", "trigger": "born", "arguments": {"person": [{"id": "e", "name": "Ada"}]}}
    assert item_label("events", event) == "Birth: born (person: Ada)"


# ---------------------------------------------------------------- 80 columns


KEY_VALUES = {
    "entities": ["Alan Turing", "Grace Hopper", "Person"],
    "triples": ["Tommy Flowers", "Colossus"],
    "hypernodes": ["Grace Hopper", "bornIn"],
    "events": ["Birth", "person: Ada Lovelace", "10 December 1815"],
    "documents": ["Colossus", "machines/colossus"],
    "chunks": ["Bombe#p00000#0", "electromechanical machine"],
    "merges": ["John von Neumann", "variant"],
    "drops": ["pronoun", "unresolved"],
}


@pytest.mark.parametrize("command", LIST_COMMANDS)
def test_every_subcommand_fits_80_columns_and_shows_its_key_values(built: Path, command: str) -> None:
    result = kg(built, "inspect", command, "-n", "0")
    assert result.exit_code == 0, result.output
    assert widest(result.stdout) <= 80, result.stdout
    flat = " ".join(result.stdout.split())  # a long value may wrap inside its cell
    for value in KEY_VALUES[command]:
        assert value in flat or value in result.stdout, (command, value)


def test_counts_and_support_fit_80_columns(built: Path) -> None:
    counts = kg(built, "inspect")
    assert counts.exit_code == 0 and widest(counts.stdout) <= 80
    assert "relations" in counts.stdout and "hypernodes" in counts.stdout
    rows = json.loads(kg(built, "inspect", "triples", "--entity", "Turing", "--json").stdout)
    support = kg(built, "inspect", "support", rows[0]["id"])
    assert support.exit_code == 0 and widest(support.stdout) <= 80
    assert support.stdout.startswith("triple (") and rows[0]["chunk_ids"][0] in support.stdout


def test_default_triples_hide_classes_and_shorten_ids(built: Path) -> None:
    rows = json.loads(kg(built, "inspect", "triples", "-n", "5", "--json").stdout)
    narrow = kg(built, "inspect", "triples", "-n", "5").stdout
    assert "s class" not in narrow and rows[0]["id"] not in narrow
    assert short_id(rows[0]["id"]) in narrow
    assert "{" not in kg(built, "inspect", "events").stdout  # no JSON, no internal ids
    assert "ent_" not in kg(built, "inspect", "events", "-n", "0").stdout


def test_wide_shows_every_column_in_full(built: Path) -> None:
    rows = json.loads(kg(built, "inspect", "triples", "-n", "5", "--json").stdout)
    wide = kg(built, "inspect", "triples", "-n", "5", "--wide")
    assert wide.exit_code == 0
    lines = wide.stdout.splitlines()
    assert "s class" in wide.stdout and "o class" in wide.stdout
    for row in rows:
        # every row on one line, with its classes, first chunk and id in full
        line = next(line for line in lines if row["id"] in line)
        assert row["subject_class"] in line and row["object_class"] in line and row["chunk_ids"][0] in line
    assert widest(wide.stdout) > 80  # wider than the terminal rather than folded into it
    entities = kg(built, "inspect", "entities", "--type", "Thing", "-n", "0", "-w").stdout
    assert "semantic type" in entities and "programming language" in entities
    events = kg(built, "inspect", "events", "--wide").stdout
    assert "arguments" in events and "person: Ada Lovelace" in events and "evt_" in events
    chunks = kg(built, "inspect", "chunks", "-n", "2", "--wide").stdout
    assert "previous" in chunks and "document" in chunks
    merges = kg(built, "inspect", "merges", "--wide").stdout
    assert re.search(r"ent_[0-9a-f]{20}, ent_[0-9a-f]{20}", merges)


def test_wide_on_a_wide_terminal_uses_its_width(built: Path) -> None:
    out = kg(built, "inspect", "chunks", "-n", "1", "--wide", width=200).stdout
    assert 80 < widest(out) <= 240


JSON_KEY = {"entities": "name", "triples": "predicate", "hypernodes": "predicate", "events": "type",
            "documents": "title", "chunks": "text", "merges": "step", "drops": "reason"}


@pytest.mark.parametrize("command", LIST_COMMANDS)
def test_json_on_every_subcommand(built: Path, command: str) -> None:
    result = kg(built, "inspect", command, "-n", "3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert isinstance(data, list) and 0 < len(data) <= 3 and all(row[JSON_KEY[command]] for row in data)
    assert json.loads(kg(built, "inspect", "--json").stdout)["documents"] == 12


def test_json_nests_event_arguments(built: Path) -> None:
    events = json.loads(kg(built, "inspect", "events", "--type", "Birth", "--json").stdout)
    assert events and all(isinstance(e["arguments"], dict) for e in events)
    names = {ref["name"] for e in events for refs in e["arguments"].values() for ref in refs}
    assert "Ada Lovelace" in names
    support = json.loads(kg(built, "inspect", "support", events[0]["id"], "--json").stdout)
    assert support["kind"] == "events" and isinstance(support["item"]["arguments"], dict)


def test_support_takes_the_id_as_printed(built: Path) -> None:
    rows = json.loads(kg(built, "inspect", "hypernodes", "-n", "1", "--json").stdout)
    printed = short_id(rows[0]["id"])
    assert printed in kg(built, "inspect", "hypernodes", "-n", "1").stdout
    for given in (printed, printed.rstrip("…")):
        result = kg(built, "inspect", "support", given, "--json")
        assert result.exit_code == 0 and json.loads(result.stdout)["item"]["id"] == rows[0]["id"]
    ambiguous = kg(built, "inspect", "support", "ent_")
    assert ambiguous.exit_code == 2 and "items have ids starting with it" in ambiguous.stderr
    assert len(ambiguous.stderr.strip().splitlines()) == 1


def test_long_and_markup_like_values_stay_inside_80_columns_and_literal(built: Path, tmp_path: Path) -> None:
    config = tmp_path / "kgbuild.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    shutil.copytree(built.parent / "ws", tmp_path / "ws")
    ws = Workspace(tmp_path / "ws")
    relations = ws.rows("relations")
    relations[0] |= {"subject_name": "[bold]Hostile[/bold] " + "x" * 150, "predicate": "p" * 60,
                     "object_name": "<img src=x onerror=alert(1)>"}
    ws.write_table("relations", relations)
    out = kg(config, "inspect", "triples", "-n", "0").stdout
    assert widest(out) <= 80
    assert "[bold]Hostile" in out and "[/bold]" in out and "<img src=x" in out  # shown as typed, not styled
    wide = kg(config, "inspect", "triples", "-n", "0", "--wide").stdout
    assert "[bold]Hostile[/bold]" in wide and 80 < widest(wide) <= 240  # wider than the terminal, up to a cap
