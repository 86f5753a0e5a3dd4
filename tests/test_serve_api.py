"""The explorer's JSON API (kgbuild/serve) over HTTP against a real samples build (embedded ArcadeDB +
Milvus Lite, offline extraction), the app served by uvicorn on 127.0.0.1; plus the pure parts (sentence
spans, neighbourhood caps, concept chains) on small hand-built graphs with known answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

pytest.importorskip("milvus_lite")

from kgbuild.cli.serve import serve
from kgbuild.config import ENV_OVERRIDES
from kgbuild.engine import Engine
from kgbuild.errors import ConfigError
from kgbuild.graph.projection import GraphProjection
from kgbuild.serve.app import create_app
from kgbuild.serve.data import GraphIndex
from kgbuild.serve.security import check_bind, is_loopback
from kgbuild.serve.server import BackgroundServer
from kgbuild.serve.spans import sentence_spans, triple_sentence
from kgbuild.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(samples_project: Path) -> Path:
    """The samples built once for the run with the default stores and no model (tests/conftest.py)."""
    return samples_project


@pytest.fixture(scope="module")
def engine(samples_engine: Engine) -> Engine:
    return samples_engine


@pytest.fixture(scope="module")
def client(engine: Engine) -> Iterator[httpx.Client]:
    with BackgroundServer(create_app(engine)) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def get(client: httpx.Client, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def find(client: httpx.Client, name: str, **params: Any) -> dict[str, Any]:
    hits = get(client, "/api/search", q=name, **params)["items"]
    exact = [h for h in hits if h["name"] == name]
    assert exact, hits
    return exact[0]


# ---------------------------------------------------------------- over HTTP, on the samples build


def test_search_ranks_names_and_filters_by_kind_and_class(client: httpx.Client) -> None:
    page = get(client, "/api/search", q="turing")
    names = [h["name"] for h in page["items"]]
    assert "Alan Turing" in names and all("turing" in n.lower() for n in names)
    assert "Turing" not in names  # enigma.txt's "Turing" is fused into Alan Turing (issue 17, item 8)
    assert next(h["name"] for h in get(client, "/api/search", q="alan turing")["items"]) == "Alan Turing"
    alan = find(client, "Alan Turing")
    assert alan["class"] == "Person" and alan["kind"] == "entity" and alan["degree"] >= 10
    people = get(client, "/api/search", q="", **{"class": "Person"}, limit=200)["items"]
    assert people and all(h["class"] == "Person" for h in people)
    concepts = get(client, "/api/search", q="", kind="concept", limit=200)
    assert concepts["total"] >= 5 and all(h["kind"] == "concept" for h in concepts["items"])
    assert "Scientist" in [h["name"] for h in concepts["items"]]
    assert get(client, "/api/search", q="SCIENTIST", kind="entity")["total"] == 0
    counts = get(client, "/api/classes")
    assert {"kind": "entity", "class": "Person"} in [{"kind": c["kind"], "class": c["class"]} for c in counts]


def test_pages_are_bounded_and_walk_the_whole_list_once(client: httpx.Client) -> None:
    everything = get(client, "/api/search", q="", limit=200)
    total = everything["total"]
    assert total > 200 and len(everything["items"]) == 200 and everything["next_offset"] == 200
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = get(client, "/api/search", q="", limit=97, offset=offset)
        assert page["limit"] == 97 and len(page["items"]) <= 97
        seen.extend(h["id"] for h in page["items"])
        offset = page["next_offset"]
    assert len(seen) == total == len(set(seen))
    past = get(client, "/api/search", q="", offset=total + 5)
    assert past["items"] == [] and past["next_offset"] is None
    for bad in ({"limit": 201}, {"limit": 0}, {"offset": -1}):
        assert client.get("/api/search", params=bad).status_code == 422, bad
    assert client.get("/api/merges", params={"limit": 1000}).status_code == 422
    assert client.get("/api/neighbourhood", params={"id": "x", "max_nodes": 201}).status_code == 422
    assert client.get("/api/neighbourhood", params={"id": "x", "hops": 3}).status_code == 422


def test_node_detail_has_the_concept_chain(client: httpx.Client) -> None:
    alan = get(client, "/api/node", id=find(client, "Alan Turing")["id"])
    assert alan["class"] == "Person" and alan["chunk_count"] >= 1
    chain = [(link["predicate"], link["parent"]["name"], link["depth"]) for link in alan["concept_chain"]]
    assert ("belongTo", "Scientist", 1) in chain and ("isA", "Occupation", 2) in chain
    park = get(client, "/api/node", id=find(client, "Bletchley Park")["id"])
    chain = [(link["parent"]["name"], link["depth"]) for link in park["concept_chain"]]
    # "an English country house and estate": both types at depth 1, each with its own way up.
    assert ("country house", 1) in chain and ("estate", 1) in chain, chain
    assert ("house", 2) in chain and "Building" in {name for name, _ in chain}, chain
    chunk = get(client, "/api/node", id=alan["chunk_ids"][0])
    assert chunk["kind"] == "chunk" and chunk["text"] and chunk["title"]


def test_neighbourhood_is_capped_and_carries_qualifiers(client: httpx.Client, built: Path) -> None:
    alan_id = find(client, "Alan Turing")["id"]
    one = get(client, "/api/neighbourhood", id=alan_id, hops=1, max_nodes=200, max_edges=400)
    names = {n["name"] for n in one["nodes"]}
    # every relation of the table naming Alan Turing appears, with its other end
    relations = Workspace(built / "ws").rows("relations")
    expected = {r["object_name"] for r in relations if r["subject_id"] == alan_id}
    expected |= {r["subject_name"] for r in relations if r["object_id"] == alan_id}
    assert expected and expected <= names, expected - names
    assert not one["truncated"] and all(n["hop"] <= 1 for n in one["nodes"])
    join = [e for e in one["edges"] if e["predicate"] == "join" and e["source"] == alan_id]
    assert join and {"predicate": "in", "value": "1939"} in [
        {"predicate": q["predicate"], "value": q["value"]} for q in join[0]["qualifiers"]]
    ids = {n["id"] for n in one["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in one["edges"])
    two = get(client, "/api/neighbourhood", id=alan_id, hops=2, max_nodes=200, max_edges=400)
    assert len(two["nodes"]) > len(one["nodes"]) and max(n["hop"] for n in two["nodes"]) == 2
    capped = get(client, "/api/neighbourhood", id=alan_id, hops=2, max_nodes=5, max_edges=3)
    assert capped["truncated"] and len(capped["nodes"]) <= 5 and len(capped["edges"]) <= 3
    with_chunks = get(client, "/api/neighbourhood", id=alan_id, hops=1, mentions=True, max_nodes=200)
    assert any(n["kind"] == "chunk" for n in with_chunks["nodes"])
    assert not any(n["kind"] == "chunk" for n in one["nodes"])


def test_triples_point_at_the_sentence_that_states_them(client: httpx.Client) -> None:
    alan_id = find(client, "Alan Turing")["id"]
    page = get(client, "/api/triples", id=alan_id, limit=200)
    assert page["total"] == len(page["items"]) >= 15
    by_key = {(t["subject"]["name"], t["predicate"], t["object"]["name"]): t for t in page["items"]}
    born = by_key[("Alan Turing", "bornIn", "Maida Vale")]
    assert [(q["predicate"], q["value"]) for q in born["qualifiers"]] == [("on", "23 June 1912")]
    checked = 0
    for triple in page["items"]:
        for support in triple["support"]:
            span = support["sentence"]
            if span is None:
                continue
            text = support["text"]
            sentence = text[span["start"]:span["end"]]
            # one whole sentence: starts a sentence, ends one, and holds no sentence break inside
            assert sentence == sentence.strip() and (sentence[0].isupper() or sentence[0] in "\"'(0123456789")
            assert re.search(r"[.!?][\"')]?$", sentence) or span["end"] == len(text.rstrip())
            assert not re.search(r"[.!?]\s+[A-Z]", sentence), sentence
            for mention in support["mentions"]:
                assert span["start"] <= mention["start"] < mention["end"] <= span["end"]
            if support["how"] == "both":
                said = {text[m["start"]:m["end"]].lower() for m in support["mentions"]}
                ends = {triple["subject"]["name"].lower(), triple["object"]["name"].lower()}
                assert said & ends, (said, ends)
            checked += 1
    assert checked >= 10
    sentence_of_birth = born["support"][0]
    span = sentence_of_birth["sentence"]
    stated = sentence_of_birth["text"][span["start"]:span["end"]]
    # the passage says "He": the sentence naming the object and the predicate's word is the one
    assert stated == "He was born in Maida Vale, London, on 23 June 1912." and sentence_of_birth["how"] == "one"
    assert [sentence_of_birth["text"][m["start"]:m["end"]] for m in sentence_of_birth["mentions"]] == ["Maida Vale"]
    one = get(client, "/api/triple", id=born["id"])
    assert one["support"][0]["sentence"] == span and one["support_total"] >= 1


def test_merges_report_and_strategies(client: httpx.Client) -> None:
    merges = get(client, "/api/merges")
    assert merges["total"] >= 2
    neumann = [m for m in merges["items"] if m["canonical_name"] == "John von Neumann"]
    assert neumann and len(neumann[0]["merged_ids"]) == 2 and "von neumann" in neumann[0]["reason"]
    assert get(client, "/api/merges", q="neumann")["total"] == 1
    report = get(client, "/api/report")
    assert report["persist"]["rows"]["entities"] > 100 and report["stage_seconds"]["extract"] >= 0
    strategies = {s["name"]: s for s in get(client, "/api/strategies")}
    assert strategies["hybrid"]["available"] and not strategies["hybrid"]["needs_model"]
    assert not strategies["solver"]["available"] and "model" in strategies["solver"]["reason"]
    stats = get(client, "/api/stats")
    assert stats["nodes"]["entity"] > 100 and stats["edges"]["relation"] > 10 and not stats["query_model"]
    health = get(client, "/api/health")
    assert health["entities"] == report["persist"]["rows"]["entities"] and health["warnings"] == []
    assert health["relations_per_entity"] > 0.5 and 0 < health["unrelated_entities"] < health["entities"]
    first = health["most_mentioned_unrelated"][0]
    assert get(client, "/api/node", id=first["id"])["name"] == first["name"]  # each listed name is a node


def test_query_runs_a_strategy_and_cites_its_passages(client: httpx.Client) -> None:
    response = client.post("/api/query", json={"question": "Where was Alan Turing born?", "strategy": "hybrid",
                                                "k": 5})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["strategy"] == "hybrid" and answer["mode"] == "retrieval" and answer["llm_calls"] == 0
    assert "Maida Vale" in answer["answer"]
    assert any(c["doc_id"] == "people/alan_turing" for c in answer["citations"])
    assert len(answer["chunks"]) == 5  # k
    unknown = client.post("/api/query", json={"question": "Who?", "strategy": "nonesuch"})
    assert unknown.status_code == 400 and "unknown strategy" in unknown.json()["detail"]
    needs_model = client.post("/api/query", json={"question": "Who?", "strategy": "solver"})
    assert needs_model.status_code == 400 and "needs a model" in needs_model.json()["detail"]
    assert client.post("/api/query", json={"question": ""}).status_code == 422
    assert client.post("/api/query", json={"question": "x", "k": 500}).status_code == 422
    assert client.get("/api/query").status_code == 405  # read-only: no other writes exist


def test_unknown_ids_are_404(client: httpx.Client) -> None:
    for path in ("/api/node", "/api/neighbourhood", "/api/triples", "/api/triple"):
        response = client.get(path, params={"id": "ent_does_not_exist"})
        assert response.status_code == 404, path
        assert "ent_does_not_exist" in response.json()["detail"]
    assert client.get("/api/nowhere").status_code == 404


def test_pages_docs_and_headers(client: httpx.Client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "/static/vendor/cytoscape.min.js" in page.text and "http" not in page.text.replace("http-equiv", "")
    assert client.get("/static/vendor/cytoscape.min.js").status_code == 200
    spec = get(client, "/openapi.json")
    assert {"/api/search", "/api/node", "/api/neighbourhood", "/api/triples", "/api/query"} <= set(spec["paths"])
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/vendor/swagger-ui-bundle.js" in docs.text
    # a page elsewhere reaching 127.0.0.1 through a rebound DNS name is refused
    assert client.get("/api/stats", headers={"host": "attacker.example:8321"}).status_code == 421
    assert client.get("/api/stats", headers={"host": "localhost:1"}).status_code == 200


def test_pages_answer_head(client: httpx.Client) -> None:
    # `curl -I /` was 405: the pages take HEAD (headers, no body) as well as GET
    for path in ("/", "/docs", "/static/app.js", "/openapi.json"):
        head, got = client.head(path), client.get(path)
        assert head.status_code == 200, (path, head.status_code)
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"], path
        assert "content-security-policy" in head.headers
    assert client.head("/api/nowhere").status_code == 404


def test_search_hits_of_one_name_say_what_tells_them_apart(client: httpx.Client) -> None:
    births = [h for h in get(client, "/api/search", q="born", kind="event")["items"] if h["name"] == "Birth: born"]
    assert len(births) >= 5
    contexts = [h["context"] for h in births]
    assert len(set(contexts)) == len(contexts), contexts
    assert "person Alan Turing · place Maida Vale · time 23 June 1912" in contexts, contexts
    # an entity's context is the start of its description
    alan = find(client, "Alan Turing")
    assert alan["context"].startswith("Alan Turing was a British mathematician")


def test_query_names_the_ids_of_its_trace(client: httpx.Client) -> None:
    response = client.post("/api/query", json={"question": "Where was Alan Turing born?", "strategy": "frag"})
    assert response.status_code == 200, response.text
    answer = response.json()
    rank = next(step for step in answer["trace"] if step["question"] == "rank")
    ids = rank["result"]["triples"]
    labels = answer["labels"]
    assert ids and all(i in labels for i in ids), [i for i in ids if i not in labels]
    assert "Alan Turing —bornIn→ Maida Vale" in [labels[i] for i in ids]
    mention = next(i for i in ids if ">" in i)  # a passage -> entity edge: "<chunk id>>ent_..."
    assert re.fullmatch(r".+ §\d+ —mentions→ .+", labels[mention]), labels[mention]


def test_a_token_guards_every_request(engine: Engine) -> None:
    token = "t0ken-for-tests"
    with BackgroundServer(create_app(engine, token=token, loopback_only=False)) as server:
        with httpx.Client(base_url=server.url, timeout=30) as anon:
            for path in ("/", "/api/stats", "/static/app.js", "/openapi.json", "/docs"):
                assert anon.get(path).status_code == 401, path
            assert anon.post("/api/query", json={"question": "x"}).status_code == 401
            assert anon.get("/api/stats", headers={"Authorization": "Bearer wrong"}).status_code == 401
            assert anon.get("/api/stats", headers={"Authorization": f"Bearer {token}"}).status_code == 200
            assert anon.get("/", params={"token": "wrong"}).status_code == 401
            first = anon.get("/", params={"token": token, "x": "1"})
            assert first.status_code == 303 and first.headers["location"] == "/?x=1"
            assert "httponly" in first.headers["set-cookie"].lower()
            # the cookie set by the first page load now opens pages and the API
            assert anon.get("/").status_code == 200 and anon.get("/api/stats").status_code == 200
        with httpx.Client(base_url=server.url, timeout=30) as other:
            other.cookies.set("kgbuild_token", "wrong")
            assert other.get("/api/stats").status_code == 401


def test_a_non_loopback_bind_without_a_token_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KGBUILD_SERVE_TOKEN", raising=False)
    opened: list[str] = []

    def loader() -> Any:
        opened.append("config")  # the engine would be opened after this: it must not get here
        raise AssertionError("nothing may start")

    result = CliRunner().invoke(serve, ["--host", "0.0.0.0", "--port", "8399"], obj={"config_loader": loader})
    assert result.exit_code == 2 and not opened
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --host: binding 0.0.0.0") and "--token" in lines[0]
    with pytest.raises(ConfigError):
        check_bind("192.168.1.10", None)
    with pytest.raises(ConfigError):
        check_bind("::", "  ")
    check_bind("0.0.0.0", "secret")
    check_bind("127.0.0.1", None)
    check_bind("localhost", None)


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.3.2.1", True), ("::1", True), ("[::1]", True), ("localhost", True),
    ("0.0.0.0", False), ("::", False), ("10.0.0.5", False), ("example.com", False), ("", False),
])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


# ---------------------------------------------------------------- pure parts, hand-built graphs


def test_sentence_spans_are_offsets_of_trimmed_sentences() -> None:
    text = "  Ada wrote notes. Babbage built it!\n\nIn 1843 it ran? no.  "
    spans = sentence_spans(text)
    assert [text[s.start:s.end] for s in spans] == ["Ada wrote notes.", "Babbage built it!", "In 1843 it ran? no."]


def test_triple_sentence_prefers_both_ends_then_one_then_words() -> None:
    text = ("John von Neumann was born in Budapest. He moved to Princeton in 1930. "
            "Von Neumann worked at the Institute for Advanced Study in Princeton.")
    both = triple_sentence(text, ["John von Neumann"], ["Budapest"], "bornIn")
    assert both is not None and both.how == "both"
    assert text[both.sentence.start:both.sentence.end] == "John von Neumann was born in Budapest."
    assert [text[m.start:m.end] for m in both.mentions] == ["John von Neumann", "Budapest"]
    # the alias names the subject in the third sentence
    alias = triple_sentence(text, ["John von Neumann", "von Neumann"], ["Institute for Advanced Study"], "worksFor")
    assert alias is not None and alias.how == "both" and text[alias.sentence.start:].startswith("Von Neumann worked")
    # a pronoun: only the object is named; the predicate's word picks the sentence among those naming Princeton
    one = triple_sentence(text, ["John von Neumann"], ["Princeton"], "moveTo")
    assert one is not None and one.how == "one" and text[one.sentence.start:].startswith("He moved")
    assert triple_sentence(text, ["Turing"], ["Manchester"], "x") is None
    # names match whole words only, any case, across a line break
    wrapped = "The ENIGMA\nmachine was broken. Enigmatic stories followed."
    found = triple_sentence(wrapped, ["Enigma machine"], ["nothing"], "")
    assert found is not None and found.mentions and wrapped[found.mentions[0].start:found.mentions[0].end] == "ENIGMA\nmachine"
    assert len(found.mentions) == 1


def small_graph(tmp_path: Path) -> GraphIndex:
    """A star of 6 around `hub`, a chain hub -> b -> c, and the concept chain hub -belongTo-> K1 -isA-> K2."""
    chunks = [{"id": "d#0", "doc_id": "d", "text": "Hub met A. A met B."}]
    names = ["hub", "a", "b", "c", "x1", "x2", "x3", "x4"]
    entities = [{"id": n, "name": n.upper(), "spg_class": "Thing", "chunk_ids": ["d#0"]} for n in names]
    concepts = [{"id": "k1", "name": "K1"}, {"id": "k2", "name": "K2"}]
    rel = [("hub", "p", "a"), ("hub", "p", "b"), ("b", "q", "c"), ("a", "q", "b"), ("hub", "p", "x1"),
           ("hub", "p", "x2"), ("x3", "p", "hub"), ("x4", "p", "hub"), ("hub", "belongTo", "k1"), ("k1", "isA", "k2")]
    relations = [{"id": f"r{i}", "subject_id": s, "predicate": p, "object_id": o, "chunk_ids": ["d#0"]}
                 for i, (s, p, o) in enumerate(rel)]
    hyper = [{"id": "h", "subject_id": "r0", "subject_kind": "relation", "predicate": "in", "object_id": "x9",
              "object_name": "1999"}]
    projection = GraphProjection.from_rows(chunks=chunks, entities=entities, concepts=concepts, relations=relations,
                                           hypernodes=hyper)
    return GraphIndex(projection, Workspace(tmp_path))


def test_neighbourhood_walks_hops_and_stops_at_the_caps(tmp_path: Path) -> None:
    index = small_graph(tmp_path)
    one = index.neighbourhood("hub", 1, 100, 100, mentions=False)
    assert {n.id for n in one.nodes} == {"hub", "a", "b", "x1", "x2", "x3", "x4", "k1"} and not one.truncated
    # a -q-> b joins two first-hop nodes: drawn too
    assert {e.id for e in one.edges} == {"r0", "r1", "r3", "r4", "r5", "r6", "r7", "r8"}
    assert next(e for e in one.edges if e.id == "r0").qualifiers[0].value == "1999"
    two = index.neighbourhood("hub", 2, 100, 100, mentions=False)
    assert {n.id: n.hop for n in two.nodes}["c"] == 2 and {n.id: n.hop for n in two.nodes}["k2"] == 2
    capped = index.neighbourhood("hub", 2, 4, 100, mentions=False)
    assert capped.truncated and len(capped.nodes) == 4
    few_edges = index.neighbourhood("hub", 1, 100, 2, mentions=False)
    assert few_edges.truncated and len(few_edges.edges) == 2
    chunked = index.neighbourhood("a", 1, 100, 100, mentions=True)
    assert "d#0" in {n.id for n in chunked.nodes}


def test_concept_chain_and_search_on_a_small_graph(tmp_path: Path) -> None:
    index = small_graph(tmp_path)
    chain = [(c.child_id, c.predicate, c.parent.id, c.depth) for c in index.chain(index.node("hub"))]
    assert chain == [("hub", "belongTo", "k1", 1), ("k1", "isA", "k2", 2)]
    hits = index.search("x", None, None, 0, 10)
    assert [h.id for h in hits["items"]] == ["x1", "x2", "x3", "x4"] and hits["total"] == 4
    assert index.search("k", "concept", None, 0, 10)["total"] == 2
    assert index.search("", None, None, 0, 1)["items"][0].id == "hub"  # browse: the best connected first
    assert index.search("hub", None, "Person", 0, 10)["total"] == 0


def test_engine_calls_are_served_in_arrival_order() -> None:
    """The explorer's engine lock serves waiting queries first come, first served (a plain Lock promises
    no order: under 32 clients a query could wait behind any number of later ones)."""
    import threading
    import time

    from kgbuild.serve.data import FairLock

    lock = FairLock()
    assert lock.acquire()
    order: list[int] = []
    threads = []
    for n in range(6):
        thread = threading.Thread(target=lambda n=n: (lock.acquire(), order.append(n), lock.release()))
        thread.start()
        threads.append(thread)
        deadline = time.monotonic() + 10
        while lock.waiting() < n + 2:  # this one queued behind the holder and those before it
            assert time.monotonic() < deadline
            time.sleep(0.001)
    assert not lock.acquire(blocking=False)  # taken, and others wait: no cutting in
    lock.release()
    for thread in threads:
        thread.join(10)
    assert order == list(range(6))
    assert lock.acquire(blocking=False)  # free again
    lock.release()
