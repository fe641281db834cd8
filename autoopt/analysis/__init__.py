"""Stage 2, graph: imports, the dataflow graph and the facts rules read (never runs user code)."""
