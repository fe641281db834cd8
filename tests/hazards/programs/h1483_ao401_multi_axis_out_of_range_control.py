"""Control (for h1480-h1482): pixels written with `img.at[:, y - 1, x, ...].set(v)` where
`y - 1` is -1 on the first row (the last row, as NumPy counts) and `x` runs two past
the width (the update is dropped), into an int8 image from float values. Trap for a
multi-axis rewrite through `lax.dynamic_update_slice`: it would clamp the start (the
update lands on the last column instead of being dropped) and write -1 as row -1, not
the last row; the same `.at` subscript in the helper keeps every case, and the dtype
cast."""

import jax.numpy as jnp


def fill(b, h, w):
    img = jnp.zeros((b, h, w, 2), dtype=jnp.int8)
    for y in range(h):
        for x in range(w + 2):
            img = img.at[:, y - 1, x, ...].set(jnp.full((b, 2), 1.7 * y + x))
    return img


def main():
    img = fill(2, 3, 4)
    return img, img.sum(), img.dtype.name
