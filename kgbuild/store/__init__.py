"""The mutual index: the graph in a Cypher store (Neo4j or embedded ArcadeDB), the vectors in
Milvus (server or Milvus Lite), every node linked to the chunks that support it.

`types` holds the small interfaces the rest of kgbuild talks to; the backends live in their own
modules and are only imported when configured.
"""
