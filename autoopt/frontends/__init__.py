"""Thin frontends over the pipeline: the CLI and the language server."""
