"""Annealed temperature for the blind hazard programs (h919): a module global that
`cool()` rebinds."""

TEMPERATURE = 2.0


def cool():
    global TEMPERATURE
    TEMPERATURE = TEMPERATURE * 0.5
