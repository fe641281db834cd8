"""A frame buffer edited pixel by pixel: `canvas = frames[-1]` takes the last frame of a
list of frames, then `canvas = canvas.at[i].set(...)` in a loop; the list (with the
original last frame) is returned too. Trap for AO401: a donating in-place helper
deletes `frames[-1]`, which the list still holds."""

import jax.numpy as jnp


def main():
    frames = [jnp.zeros(6), jnp.linspace(0.0, 1.0, 6)]
    canvas = frames[-1]
    for i in range(0, 6, 2):
        canvas = canvas.at[i].set(canvas[i] * 10.0 + 1.0)
    frames.append(canvas)
    return frames
