"""Module-level training whose batches are replayed by a recorder that was handed the
model before the loop: every batch is the first model's `"w"`. Trap for AO201's escape
reading (issue 26): the model reached unseen code before the batches were made;
donating `params` deletes the buffer the recorder replays."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
recorder = hazlib_escape.Recorder()
recorder.keep(params)
for batch in recorder.replay():
    params = step(params, batch)
RESULT = jnp.sum(params["w"])


def main():
    return RESULT
