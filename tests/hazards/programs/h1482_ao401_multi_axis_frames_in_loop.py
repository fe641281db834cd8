"""Filling an image one pixel column at a time, `img.at[:, y, x].set(...)`, and keeping
every intermediate image in a list for an animation. Trap for AO401's multi-axis helper:
the list holds the buffer each update replaces; donating it deletes the frames."""

import jax.numpy as jnp


def animate(h, w):
    img = jnp.zeros((3, h, w))
    frames = []
    for y in range(h):
        for x in range(w):
            frames.append(img)
            img = img.at[:, y, x].set(jnp.array([y, x, y * x], dtype=jnp.float32))
    return img, jnp.stack(frames)


def main():
    img, frames = animate(3, 4)
    return img, frames.sum(axis=(1, 2, 3))
