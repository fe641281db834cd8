"""Shared run settings of the hazard programs' small "project" (imported by h17)."""

SETTINGS = {"temperature": 1.0, "cooling": 0.8}


def reset():
    SETTINGS["temperature"] = 1.0


def anneal():
    """One step of the cooling schedule, in place: every importer sees it."""
    SETTINGS["temperature"] *= SETTINGS["cooling"]
