"""Cellular-automaton style painting of a grid, keeping the initial grid in a list of
frames for an animation. Trap for AO401: a donating in-place helper deletes the
buffer that the list of frames still holds (aliasing through a list)."""

import jax.numpy as jnp


def paint(value, t):
    return jnp.sin(value + 0.3 * t)


def main():
    grid = jnp.zeros(10)
    frames = [grid]
    for t in range(10):
        grid = grid.at[t].set(paint(1.0, t))
    frames.append(grid)
    return frames
