"""AO103 examples, loops AO103 must leave alone (the kept appends' refusals are in `kept`)."""

from autoopt.rules.base import Valid

VALID = (
    Valid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def rollout(x):
    for _ in range(4):
        dx = jnp.sin(x)
        x = x + 0.1 * dx
    return x
""",
        "a loop inside a jitted function already runs traced",
    ),
    Valid(
        """
import jax.numpy as jnp


def step(x):
    return x + 0.1 * jnp.sin(x)


def run(x):
    for _ in range(10):
        x = step(x)
    return x
""",
        "one call whose step is not proven (nothing shows what `x` receives): a loop of "
        "one call is taken only as a proven scan, else AO101 jits the function it calls",
    ),
    Valid(
        """
import jax.numpy as jnp


def step(x, w):
    return jnp.tanh(w @ x)


def run(x, w, n):
    for _ in range(n):
        x = step(x, w)
    return x


def main():
    return run(jnp.ones(4), jnp.eye(4), 10)
""",
        "one call in a loop of unknown count: no scan, and a step of one call would only "
        "be AO101's jit of it",
    ),
    Valid(
        """
import jax.numpy as jnp

N_STEPS = 10


def step(x, w):
    return jnp.tanh(w @ x)


def main():
    x, w = jnp.ones(4), jnp.eye(4)
    for _ in range(N_STEPS):
        x = step(x, w)
        print(x[0])
    return x
""",
        "one call and a print: the step is not the whole body, so no scan",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    for t in range(10):
        d = jnp.sin(x)
        print(t, float(d.sum()))
        x = x + 0.1 * d
    return x


def main():
    return run(jnp.ones(3))
""",
        "a print between the device statements leaves one statement to compile",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np


def run(x, seed):
    rng = np.random.default_rng(seed)
    for _ in range(10):
        noise = rng.normal(size=3)
        x = x + 0.1 * jnp.asarray(noise)
    return x


def main():
    return run(jnp.zeros(3), 0)
""",
        "a host RNG draw in the body: the step would freeze it",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    out = jnp.zeros((0, 3))
    for _ in range(5):
        x = x * 2
        out = jnp.concatenate([out, x[None]])
    return out


def main():
    return run(jnp.ones(3))
""",
        "a carried array that grows every iteration (AO402's)",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x, n):
    for t in range(1, n):
        z = jnp.zeros(t)
        x = x + z.sum()
    return x


def main():
    return run(jnp.ones(3), 5)
""",
        "the loop variable sizes an array: static, it would recompile every iteration",
    ),
    Valid(
        """
import jax.numpy as jnp

LOG = []


def record(value):
    LOG.append(value)
    return value


def update(x):
    return record(x * 0.5)


def run(x):
    for _ in range(5):
        y = update(x)
        x = x + y
    return x


def main():
    return run(jnp.ones(3))
""",
        "a side effect two calls deep",
    ),
    Valid(
        """
import jax.numpy as jnp


def fill(xs):
    acc = jnp.zeros((4, 3))
    for i in range(xs.shape[0]):
        row = xs[i] * 2
        acc = acc.at[i].set(row)
    return acc


def main():
    return fill(jnp.ones((4, 3)))
""",
        "AO401 runs this loop as lax.fori_loop (one owner per loop)",
    ),
    Valid(
        """
import jax.numpy as jnp


def relax(x):
    if x.sum() > 0:
        return x * 0.5
    return x


def run(x):
    for _ in range(5):
        y = relax(x)
        x = x + y
    return x


def main():
    return run(jnp.ones(3))
""",
        "Python control flow on a traced value in a callee",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    count = 0
    for _ in range(5):
        x = jnp.sin(x)
        count = count + 1
    return x, count


def main():
    return run(jnp.ones(3))
""",
        "a carried Python counter would come back as an array",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

WEIGHTS = np.array([1.0, 2.0, 3.0])


def predict(x, w=WEIGHTS):
    return jnp.tanh(x * w) + x


def main():
    x = jnp.array([0.1, 0.2, 0.3])
    for epoch in range(5):
        for _ in range(4):
            x = predict(x)
        WEIGHTS[:] *= 0.5
    return x
""",
        "the step calls `predict`, whose default `w` is a NumPy buffer the module scales in "
        "place: a compiled step would freeze the weights it traced first",
    ),
)
