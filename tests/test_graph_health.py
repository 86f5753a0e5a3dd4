"""`kgbuild inspect health` and the warnings a build prints about a thin graph: real builds through the
CLI (a contributors list that states no relation, the samples that state many) and the thresholds."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kgbuild.cli import main
from kgbuild.cli.inspect_view import health_lines
from kgbuild.display_width import display_width
from kgbuild.health import MIN_ENTITIES, GraphHealth, NamedCount, warnings

NO_STORES = "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"
PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "John von Neumann", "Claude Shannon", "Donald Knuth",
          "Edsger Dijkstra", "Barbara Liskov", "Tony Hoare", "Niklaus Wirth", "Dennis Ritchie", "Ken Thompson",
          "Bjarne Stroustrup", "Guido van Rossum", "James Gosling", "Margaret Hamilton", "Frances Allen",
          "John McCarthy", "Marvin Minsky", "Herbert Simon", "Allen Newell", "Leslie Lamport", "Butler Lampson",
          "Jim Gray", "Michael Stonebraker", "Edgar Codd", "Charles Bachman", "Robert Floyd", "Richard Hamming",
          "Maurice Wilkes", "Kristen Nygaard", "Alan Kay", "Ivan Sutherland", "Douglas Engelbart", "Vint Cerf",
          "Bob Kahn", "Tim Berners-Lee", "Whitfield Diffie"]


def kg(config: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["-c", str(config), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_build_that_relates_nothing_says_so_and_health_shows_what(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "contributors.md").write_text("# Contributors\n\nThe people below reviewed the chapters.\n\n"
                                            + "\n".join(f"- {name}" for name in PEOPLE) + "\n", encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(f"workspace: ws\nbuild:\n  workers: 1\n{NO_STORES}", encoding="utf-8")
    code, _, err = kg(config, "build", str(corpus), "-q")
    assert code == 0
    health = json.loads(kg(config, "inspect", "health", "--json", "-n", "3")[1])
    assert health["entities"] >= MIN_ENTITIES and health["relations"] == 0
    assert health["unrelated_entities"] == health["entities"] and health["documents_without_relations"] == 1
    [quiet] = health["documents_with_no_relation"]
    assert (quiet["name"], quiet["count"]) == ("contributors", health["entities"])
    listed = health["most_mentioned_unrelated"]
    assert len(listed) == 3 and all(item["id"].startswith("ent_") and item["detail"] == "Person" for item in listed)
    warned = [line for line in err.splitlines() if line.startswith("warning: graph: ")]
    assert len(warned) == len(health["warnings"]) == 3, err
    assert "0 relations (0.00 per entity)" in warned[0] and "separate pieces" in warned[2]
    code, out, _ = kg(config, "inspect", "health")
    assert code == 0 and "relations per entity: 0.00" in out and "contributors: " in out


def test_the_samples_graph_raises_no_warning(samples_project: Path) -> None:
    code, out, _ = kg(samples_project / "kgbuild.yaml", "inspect", "health", "--json")
    health = json.loads(out)
    assert code == 0 and health["warnings"] == []
    assert health["relations_per_entity"] > 0.5 and health["documents_without_relations"] == 0
    assert 0 < health["unrelated_entities"] < health["entities"] / 2


def test_inspect_health_before_a_build_says_what_to_do(tmp_path: Path) -> None:
    config = tmp_path / "kgbuild.yaml"
    config.write_text(f"workspace: ws\n{NO_STORES}", encoding="utf-8")
    code, _, err = kg(config, "inspect", "health")
    assert code == 2 and "kgbuild build" in err


def figures(**values: object) -> GraphHealth:
    base: dict[str, object] = {"entities": 100, "relations": 80, "relations_per_entity": 0.8, "unrelated_entities": 30,
                               "unrelated_share": 0.3, "class_shares": {"Person": 0.4, "Work": 0.6},
                               "components": 10, "largest_component_share": 0.7}
    return GraphHealth.model_validate({**base, **values})


def test_each_warning_starts_at_its_threshold() -> None:
    assert warnings(figures(), 120) == []
    assert len(warnings(figures(relations_per_entity=0.49), 120)) == 1
    assert warnings(figures(relations_per_entity=0.5), 120) == []
    assert len(warnings(figures(unrelated_entities=61, unrelated_share=0.61), 120)) == 1
    assert len(warnings(figures(largest_component_share=0.05, components=40), 120)) == 1
    assert warnings(figures(largest_component_share=0.05, components=20), 120) == []  # a few pieces, not islands
    # A toy build says nothing: its shares are noise.
    assert warnings(figures(entities=MIN_ENTITIES - 1, relations_per_entity=0.0, unrelated_share=1.0), 40) == []


def test_health_lines_fit_80_columns_with_chinese_names() -> None:
    health = figures(documents=3, unrelated_by_class={"Organization": 20, "Person": 10},
                     most_mentioned_unrelated=[NamedCount(name="某某科技股份有限公司" * 6, count=4, detail="Organization")],
                     documents_with_no_relation=[NamedCount(name="年度报告" * 15, count=12)],
                     warnings=warnings(figures(relations_per_entity=0.2), 120))
    lines = health_lines(health)
    assert all(display_width(line) <= 80 for line in lines), lines
    assert "某某科技股份有限公司" * 6 in "".join(line.strip() for line in lines)
    assert any(line.startswith("warning: ") for line in lines)
