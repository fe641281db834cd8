"""Stage 2 of the pipeline: what the code means, never running it. Layered sub-packages
(`overlays`, `core`, `values`, `facts`, `plans`; docs/architecture.md) and the query
surface rules ask (`semantic`)."""
