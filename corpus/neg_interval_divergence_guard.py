"""Linear regression by SGD with a learning rate that is too large for the later batches:
the running loss is printed every 25 steps and checked on every step, and training stops
when it passes a limit.

Negative for AO302's interval form: the running sum decides, on every step, whether the
loop goes on, so its value is needed on the host each step.
"""

import jax
import jax.numpy as jnp
import numpy as np

STEPS = 300
BATCH = 32
FEATURES = 8
LR = 0.02
LIMIT = 1e4


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - LR * grad, loss


def main():
    rng = np.random.default_rng(0)
    true_w = rng.normal(size=FEATURES).astype(np.float32)
    scale = np.linspace(1.0, 12.0, STEPS, dtype=np.float32)[:, None, None]
    x_np = rng.normal(size=(STEPS, BATCH, FEATURES)).astype(np.float32) * scale
    noise = rng.normal(size=(STEPS, BATCH)).astype(np.float32)
    xs, ys = jnp.asarray(x_np), jnp.asarray(x_np @ true_w + noise)
    w = jnp.zeros(FEATURES)

    running = 0.0
    stopped = STEPS
    for step in range(STEPS):
        w, loss = sgd_step(w, xs[step], ys[step])
        running += loss.item()
        if running > LIMIT:
            stopped = step
            break
        if step % 25 == 24:
            print(f"step {step + 1}: running loss {running:.4f}")

    return {"w": w, "running": np.float64(running), "stopped": np.int32(stopped)}


if __name__ == "__main__":
    print(main())
