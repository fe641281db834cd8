"""Control for h248/h288: a `match` in the loop captures the message payload into
another name (`gain`); the transferred table is never rebound, so hoisting its
transfer is correct."""

import jax.numpy as jnp
import numpy as np

MESSAGES = [("gain", 2.0), ("noop", None), ("gain", 0.5), ("noop", None)]


def main():
    table = np.array([1.0, -1.0, 3.0])
    gain = 1.0
    out = []
    for message in MESSAGES:
        match message:
            case ("gain", gain):
                pass
            case _:
                pass
        out.append(jnp.asarray(table) * gain)
    return jnp.stack(out)
