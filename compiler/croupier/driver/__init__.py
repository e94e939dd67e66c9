"""The driver: the one way a command turns a spec into what it needs.

`compile.compile_spec(path, level)` takes one spec to ENGINE (play, analyze, simulate),
CHECKED (check, simulate) or ALL (build, check's staleness), keeping its work under a
content key (see `croupier.cache`); `pipeline` runs it over a tree of specs and writes
or compares the artefacts.
"""
