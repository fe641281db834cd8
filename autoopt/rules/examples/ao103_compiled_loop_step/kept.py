"""AO103 examples, appends under `if` blocks on the loop variable alone (`if it % k == 0:
xs.append(v)`): stacked every step, the list gets the rows where the condition holds.
"""

from autoopt.rules.base import Invalid, Valid

#: a CG loop of one call that keeps a value under `{block}`'s condition; `{head}` goes
#: above `main`: the shape of corpus/cg_poisson_bc.py, for the kept appends' premises
_KEPT = """
import jax.numpy as jnp
import numpy as np

ITERS = 30
EVERY = 10


def cg_iteration(x, r, p, rs):
    alpha = rs / jnp.sum(p * p)
    x = x + alpha * p
    r = r - alpha * p
    rs_new = jnp.sum(r * r)
    return x, r, r + (rs_new / rs) * p, rs_new
{head}

def main():
    r = jnp.ones(8)
    x, p, rs = jnp.zeros(8), r, jnp.sum(r * r)
    norms = []
    for it in {loop}:
        x, r, p, rs = cg_iteration(x, r, p, rs)
{block}
    return x, norms
"""


def _kept(block: str, head: str = "", loop: str = "range(ITERS)") -> str:
    return _KEPT.format(block=block, head=head, loop=loop)


VALID = (
    Valid(
        _kept("        if rs > 1e-3:\n            norms.append(jnp.sqrt(rs))"),
        "the condition of a kept append reads a carried device value",
    ),
    Valid(
        _kept(
            "        if keep(it):\n            norms.append(jnp.sqrt(rs))",
            "\n\ndef keep(i):\n    return i % 3 == 0\n",
        ),
        "the condition of a kept append calls a function",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs))\n"
            "        else:\n            norms.append(rs)"
        ),
        "a kept append with an `else`",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n"
            "            norms.append(jnp.sqrt(rs))\n"
            "            print(it)"
        ),
        "a kept block that does more than append",
    ),
    Valid(
        _kept("        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs) + len(norms))"),
        "the kept value reads its list",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            alias = norms\n            alias.append(rs)"
        ),
        "the list is aliased inside the loop",
    ),
    Valid(
        _kept("        if it % EVERY == 0:\n            norms.append(np.sqrt(2.0) * np.ones(3))"),
        "the kept value is a NumPy array",
    ),
    Valid(
        _kept("        if it % EVERY == 0:\n            norms.append(EVERY * 2)"),
        "the kept value is a Python number",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            norms.append(noisy(rs))",
            "\n\ndef noisy(v):\n    print(v)\n    return jnp.sqrt(v)\n",
        ),
        "the kept value is impure (it prints)",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs))",
            loop="[0, 10, 20]",
        ),
        "a kept append in a loop over a list, not a known `range(...)`",
    ),
    Valid(
        _kept(
            "        every = it + 1\n"
            "        if it % every == 0:\n"
            "            norms.append(jnp.sqrt(rs))"
        ),
        "the condition reads a name the loop rebinds",
    ),
)


MODULE_WAVE_PROBE = Invalid(
    """
import jax.numpy as jnp
import numpy as np

GRID = 16
N_STEPS = 50
PROBE = (5, 4)

interior = np.zeros((GRID, GRID), np.float32)
interior[1:-1, 1:-1] = 1.0
mask = jnp.asarray(interior)
bump = np.exp(-np.arange(GRID * GRID).reshape(GRID, GRID) / 40.0).astype(np.float32)
u_prev = jnp.asarray(bump) * mask
u = u_prev
probe = []
for _ in range(N_STEPS):
    lap = jnp.roll(u, 1, axis=0) + jnp.roll(u, -1, axis=0) - 2.0 * u
    u_next = (2.0 * u - u_prev + 0.25 * lap) * mask
    u_prev, u = u, u_next
    probe.append(u[PROBE])

signal = jnp.stack(probe)


def main():
    return u, signal
""",
    expected="""
import jax
import jax.numpy as jnp
import numpy as np

GRID = 16
N_STEPS = 50
PROBE = (5, 4)

interior = np.zeros((GRID, GRID), np.float32)
interior[1:-1, 1:-1] = 1.0
mask = jnp.asarray(interior)
bump = np.exp(-np.arange(GRID * GRID).reshape(GRID, GRID) / 40.0).astype(np.float32)
u_prev = jnp.asarray(bump) * mask
u = u_prev
probe = []


@jax.jit
def _loop(u, u_prev):
    def body(carry, _):
        u, u_prev, lap, u_next = carry
        lap = jnp.roll(u, 1, axis=0) + jnp.roll(u, -1, axis=0) - 2.0 * u
        u_next = (2.0 * u - u_prev + 0.25 * lap) * mask
        u_prev, u = u, u_next
        probe_item = u[PROBE]
        return (u, u_prev, lap, u_next), probe_item

    return jax.lax.scan(
        body, (u, u_prev, jnp.zeros_like(u), jnp.zeros_like(u)), length=N_STEPS
    )


(u, u_prev, lap, u_next), probe_items = _loop(u, u_prev)
probe.extend(probe_items[i] for i in range(N_STEPS))
_ = N_STEPS - 1

signal = probe_items


def main():
    return u, signal
""",
    message="run the whole loop as one jitted `lax.scan`, `_loop`; it carries `lap`, `u_next`",
)


GUARDED_CG = Invalid(
    _kept("        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs))"),
    expected='''
import functools

import jax
import jax.numpy as jnp
import numpy as np

ITERS = 30
EVERY = 10


def cg_iteration(x, r, p, rs):
    alpha = rs / jnp.sum(p * p)
    x = x + alpha * p
    r = r - alpha * p
    rs_new = jnp.sum(r * r)
    return x, r, r + (rs_new / rs) * p, rs_new


@functools.partial(jax.jit, donate_argnames=("rs", "x"))
def _main_step(p, r, rs, x):
    x, r, p, rs = cg_iteration(x, r, p, rs)
    norms_item = jnp.sqrt(rs)
    return p, r, rs, x, norms_item


@functools.partial(jax.jit, static_argnames=("peel",), donate_argnames=("rs", "x"))
def _main_scan(p, r, rs, x, peel=False):
    def body(carry, it):
        p, r, rs, x = carry
        p, r, rs, x, norms_item = _main_step(p, r, rs, x)
        return (p, r, rs, x), norms_item

    if not peel:
        return jax.lax.scan(body, (p, r, rs, x), length=ITERS)
    # the first step, on the starting types
    (p, r, rs, x), first = body((p, r, rs, x), 0)
    (p, r, rs, x), rest = jax.lax.scan(body, (p, r, rs, x), length=ITERS - 1)
    return (p, r, rs, x), jnp.concatenate([first[None], rest])


def _main_loop(p, r, rs, x):
    """One jitted `lax.scan` of `_main_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(
            jax.eval_shape(lambda x: x, tree)
        )
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_main_step, p, r, rs, x)[:4]
    if types(first) == types((p, r, rs, x)):
        return _main_scan(p, r, rs, x)
    if types(jax.eval_shape(_main_step, *first)[:4]) == types(first):
        return _main_scan(p, r, rs, x, peel=True)
    norms = []
    for it in range(ITERS):
        p, r, rs, x, norms_item = _main_step(p, r, rs, x)
        norms.append(norms_item)
    return (p, r, rs, x), norms


def main():
    r = jnp.ones(8)
    x, p, rs = jnp.zeros(8), r, jnp.sum(r * r)
    norms = []
    (p, r, rs, x), norms_items = _main_loop(p, r, rs, x)
    norms.extend(norms_items[i] for i, it in enumerate(range(ITERS)) if it % EVERY == 0)
    return x, norms
''',
    message="run the whole loop as one jitted `lax.scan` when the carry keeps its types",
)


SNAPSHOTS = Invalid(
    """
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    snapshots = []
    for step in range(N_STEPS):
        u = advance(u, 0.1)
        energy.append(jnp.sum(u**2))
        if step % 100 == 0:  # a snapshot every 100 steps
            snapshots.append(u)
    return u, jnp.stack(energy), jnp.stack(snapshots)


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
    expected="""
import jax
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


@jax.jit
def _simulate_loop(u):
    def body(u, step):
        u = advance(u, 0.1)
        energy_item = jnp.sum(u**2)
        return u, (energy_item, u)

    return jax.lax.scan(body, u, length=N_STEPS)


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    snapshots = []
    u, (energy, snapshots_items) = _simulate_loop(u)
    snapshots.extend(
        snapshots_items[i] for i, step in enumerate(range(N_STEPS)) if step % 100 == 0
    )
    return u, energy, jnp.stack(snapshots)


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
    message="run the whole loop as one jitted `lax.scan`, `_simulate_loop`",
)


MODULE_FROM_TWO = Invalid(
    """
import jax.numpy as jnp

N_STEPS = 30
u = jnp.sin(jnp.arange(16.0, dtype=jnp.float32))
snaps = []
for step in range(2, N_STEPS):
    du = jnp.roll(u, 1) - u
    u = u + 0.25 * du
    if step % 7 == 3:
        snaps.append(u)


def main():
    return u, jnp.stack(snaps), du
""",
    expected="""
import jax
import jax.numpy as jnp

N_STEPS = 30
u = jnp.sin(jnp.arange(16.0, dtype=jnp.float32))
snaps = []


@jax.jit
def _loop(u):
    def body(carry, step):
        u, du = carry
        du = jnp.roll(u, 1) - u
        u = u + 0.25 * du
        return (u, du), u

    return jax.lax.scan(body, (u, jnp.zeros_like(u)), length=N_STEPS - 2)


(u, du), snaps_items = _loop(u)
snaps.extend(
    snaps_items[i] for i, step in enumerate(range(2, N_STEPS)) if step % 7 == 3
)
step = N_STEPS - 1


def main():
    return u, jnp.stack(snaps), du
""",
    message="run the whole loop as one jitted `lax.scan`, `_loop`",
)
