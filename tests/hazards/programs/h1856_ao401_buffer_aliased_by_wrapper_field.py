"""plain jax: a `Replay` wrapper keeps the initial buffer (`Replay(buf)` stores it as
`self.initial`), then an eager loop writes rows with `buf = buf.at[i].set(row)`. Trap
for AO401: a donating in-place helper deletes the buffer the wrapper still reads."""

import jax.numpy as jnp


class Replay:
    def __init__(self, buf):
        self.initial = buf

    def fresh(self):
        return jnp.sum(self.initial)


def main():
    buf = jnp.zeros((4, 2))
    replay = Replay(buf)
    for i in range(4):
        row = jnp.array([i, i * 2.0])
        buf = buf.at[i].set(row)
    return buf, replay.fresh()
