"""The optional extras a command needs, and how to install them when they are missing."""

from __future__ import annotations


def missing_jax(command: str) -> str | None:
    """Why `command` cannot run, when jax (the `verify` extra: verification runs programs)
    is not installed; None when it is."""
    from importlib.util import find_spec

    try:
        if find_spec("jax") is not None:
            return None
    except (ImportError, ValueError):
        pass
    return (
        f"{command} needs jax, which is not installed; install it with"
        " pip install 'autoopt[verify]' (for a GPU, also the jax build for it, e.g."
        " pip install 'jax[cuda12]')"
    )
