"""Online system identification: fit a linear model x' = A x to a noisy linear system.

The simulator runs in NumPy and keeps a sliding window of the most recent transitions; every
step we take a few gradient steps on the whole window.
"""

import jax
import jax.numpy as jnp
import numpy as np

DIM = 8
BUFFER = 512
STEPS = 150
LR = 0.05


@jax.jit
def fit_steps(A, states, next_states):
    def loss(A):
        return jnp.mean((states @ A.T - next_states) ** 2)

    for _ in range(5):
        A = A - LR * jax.grad(loss)(A)
    return A, loss(A)


def main():
    rng = np.random.default_rng(0)
    q, _ = np.linalg.qr(rng.normal(size=(DIM, DIM)))
    A_true = (0.95 * q).astype(np.float32)

    states = np.zeros((BUFFER, DIM), dtype=np.float32)
    next_states = np.zeros((BUFFER, DIM), dtype=np.float32)
    x = rng.normal(size=DIM).astype(np.float32)
    # prefill the buffer with a random rollout
    for i in range(BUFFER):
        x_next = A_true @ x + 0.1 * rng.normal(size=DIM).astype(np.float32)
        states[i], next_states[i] = x, x_next
        x = x_next if i % 50 else rng.normal(size=DIM).astype(np.float32)

    A = jnp.zeros((DIM, DIM))
    losses = []
    for _ in range(STEPS):
        # slide the window: drop the oldest transition, append the newest
        x_next = A_true @ x + 0.1 * rng.normal(size=DIM).astype(np.float32)
        states = np.roll(states, -1, axis=0)
        next_states = np.roll(next_states, -1, axis=0)
        states[-1], next_states[-1] = x, x_next
        x = x_next
        A, loss = fit_steps(A, jnp.asarray(states), jnp.asarray(next_states))
        losses.append(loss)

    return {"A": A, "losses": jnp.stack(losses), "err": jnp.linalg.norm(A - A_true)}


if __name__ == "__main__":
    print(main())
