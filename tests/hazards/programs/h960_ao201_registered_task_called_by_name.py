"""Training functions registered with a `@task` decorator in a module dict and run by name,
`TASKS["finetune"](params, xs)`; `finetune` is never called directly. `main` keeps the
pretrained params it hands over and compares after. Trap for AO201: `finetune`'s own
loop lets its parameter go, but its callers are not all visible calls: donating the
parameter deletes the caller's `pretrained`."""

import jax
import jax.numpy as jnp

TASKS = {}


def task(fn):
    TASKS[fn.__name__] = fn
    return fn


@jax.jit
def step(params, x):
    return params - 0.5 * (params - x)


@task
def finetune(params, xs):
    for x in xs:
        params = step(params, x)
    return params


def main():
    pretrained = jnp.array([1.0, 2.0, 3.0])
    tuned = TASKS["finetune"](pretrained, [jnp.zeros(3), jnp.ones(3)])
    return tuned, pretrained, jnp.sum((tuned - pretrained) ** 2)
