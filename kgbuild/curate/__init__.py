"""Human corrections of the graph: the corrections file, applying it after fusion, the review queue.

`file` (the YAML records), `apply` (merge, reject, retype, rename, add on an aligned graph; stale
entries), `constraints` (never_merge as fusion constraints), `review` (fusion decisions near the
thresholds, for a person to approve or reject). The build stage and the table-level sync are in
`kgbuild.build.corrections`; the CLI in `kgbuild.cli.curate`; the explorer's write API in
`kgbuild.serve`. See docs/curation.md.
"""
