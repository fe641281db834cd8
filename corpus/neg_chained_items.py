"""Per-session feature smoothing for a click-stream model: embed each event, then blend it into
a running profile.

Negative for a multi-statement vmap: the loop looks per-item (`e = embed(keys[i]); profile =
...; out.append(normalise(profile))`), but each item reads the profile left by the previous
one, so the items cannot be computed independently.
"""

import jax
import jax.numpy as jnp

N_EVENTS = 40
DIM = 16
DECAY = 0.8


def embed(key, table):
    weights = jax.nn.softmax(jax.random.normal(key, (table.shape[0],)))
    return weights @ table


def normalise(v):
    return v / jnp.linalg.norm(v)


def main():
    table = jax.random.normal(jax.random.PRNGKey(1), (12, DIM))
    keys = jax.random.split(jax.random.PRNGKey(0), N_EVENTS)
    profile = jnp.zeros(DIM)
    out = []
    for i in range(N_EVENTS):
        event = embed(keys[i], table)
        profile = DECAY * profile + (1 - DECAY) * event
        out.append(normalise(profile))
    return {"profiles": jnp.stack(out), "final": profile}


if __name__ == "__main__":
    print(main())
