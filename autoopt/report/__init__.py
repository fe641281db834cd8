"""Render findings, diffs and summaries for people and machines."""
