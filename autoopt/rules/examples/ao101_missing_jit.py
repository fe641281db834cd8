"""AO101 missing-jit: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE
_UNSAFE = Applicability.UNSAFE

VALID = (
    Valid(
        """
import jax

@jax.jit
def step(x):
    return x * 2

for _ in range(3):
    x = step(x)
""",
        "already jitted",
    ),
    Valid(
        """
import jax.numpy as jnp

def step(x):
    return jnp.sin(x)

y = step(jnp.ones(3))
""",
        "called once, not in a loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def loss(w, x):
    return jnp.sum((x @ w) ** 2)

grad = jax.grad(loss)
for _ in range(3):
    w = w - 0.1 * grad(w, x)
""",
        "only passed to jax.grad",
    ),
    Valid(
        """
import jax.numpy as jnp

def batches(x):
    for i in range(0, len(x), 8):
        yield jnp.asarray(x[i : i + 8])

for _ in range(3):
    for b in batches(data):
        pass
""",
        "a generator",
    ),
    Valid(
        """
import jax.numpy as jnp

async def fetch(x):
    return jnp.sin(x)

async def main(xs):
    for x in xs:
        await fetch(x)
""",
        "an async function",
    ),
    Valid(
        """
import jax.numpy as jnp

class Model:
    def __init__(self):
        self.scale = 2.0

    def apply(self, x):
        return jnp.tanh(x) * self.scale

    def run(self, xs):
        return [self.apply(x) for x in xs]
""",
        "a method using self state",
    ),
    Valid(
        """
import numpy as np

def step(x):
    return np.sin(x)

for _ in range(3):
    x = step(x)
""",
        "no JAX in the function",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def step(x):
    return jnp.sin(x)

fast = jax.jit(step)
for _ in range(3):
    x = fast(x)
""",
        "wrapped with jax.jit elsewhere",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def helper(x):
    return jnp.tanh(x) * 0.5

@jax.jit
def outer(x):
    for _ in range(3):
        x = helper(x)
    return x
""",
        "the loop runs inside a jitted function: it is traced already",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def helper(x):
    return jnp.tanh(x) * 0.5

def outer(x):
    for _ in range(3):
        x = helper(x)
    return x

fast = jax.jit(outer)
y = fast(jnp.ones(3))
""",
        "`outer` only runs through `jax.jit(outer)`, so its loop is traced",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def cell(h, x):
    return jnp.tanh(h + x)

def body(h, xs):
    for x in xs:
        h = cell(h, x)
    return h, h

final, hs = jax.lax.scan(body, jnp.zeros(3), jnp.ones((4, 2, 3)))
""",
        "a `lax.scan` body runs traced",
    ),
    Valid(
        """
import jax.numpy as jnp

def layer(x, w):
    return jnp.tanh(x @ w)

def apply_layers(x, ws):
    for w in ws:
        x = layer(x, w)
    return x
""",
        "a library function nothing here calls: its loop may run under the caller's jit",
    ),
    Valid(
        """
import haiku as hk
import jax
import jax.numpy as jnp

def forward(x):
    return jnp.tanh(x) * 2.0

def main():
    model = hk.transform(forward)
    x = jnp.ones(4)
    params = model.init(jax.random.PRNGKey(0), x)
    for _ in range(10):
        x = forward(x)
    return params, x
""",
        "`hk.transform` keeps `forward` as written and refuses a jitted one",
    ),
    Valid(
        """
import equinox as eqx
import jax.numpy as jnp

def step(state, x):
    return state * 0.9 + x

fast = eqx.filter_jit(step)

def main():
    state, x = jnp.zeros(8), jnp.ones(8)
    for _ in range(10):
        state = step(state, x)
    return fast(state, x)
""",
        "`step` is compiled by `eqx.filter_jit` already: never wrapped twice",
    ),
    Valid(
        """
import jax.numpy as jnp
from flax import nnx

def step(state, x):
    return state * 0.9 + x

def main():
    state, x = jnp.zeros(8), jnp.ones(8)
    fast = nnx.jit(step)
    for _ in range(10):
        state = step(state, x)
    return fast(state, x)
""",
        "`step` is compiled by `nnx.jit` already: never wrapped twice",
    ),
    Valid(
        """
import equinox as eqx
import jax.numpy as jnp

@eqx.filter_jit
def step(state, x):
    return state * 0.9 + x

def main():
    state, x = jnp.zeros(8), jnp.ones(8)
    for _ in range(10):
        state = step(state, x)
    return state
""",
        "decorated with `eqx.filter_jit`: already compiled",
    ),
)

#: `net.apply` of `hk.transform(forward)`, called through `jax.value_and_grad(loss)`.
_HAIKU_STEP = """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np

def forward(x):
    BODY

net = hk.without_apply_rng(hk.transform(forward))

def loss(params, x):
    return jnp.mean(net.apply(params, x) ** 2)

def step(params, x):
    value, grads = jax.value_and_grad(loss)(params, x)
    return value + 1.0

def main():
    x = jnp.ones((4, 3))
    params = net.init(jax.random.key(0), x)
    for i in range(4):
        value = step(params, x)
    return value
"""


def _haiku(body: str, helper: str = "") -> str:
    """The haiku program with `forward`'s body and a helper defined before it."""
    return _HAIKU_STEP.replace("def forward", helper + "def forward").replace("BODY", body)


HAIKU_MLP = _haiku("return hk.nets.MLP([4, 1], activation=jnp.tanh)(x)")
HAIKU_HOST_RNG = _haiku("return hk.Linear(1)(x + np.random.normal(size=x.shape))")
HAIKU_ACTIVATION = _haiku(
    "return hk.nets.MLP([4, 1], activation=act)(x)",
    "SEEN = []\n\ndef act(v):\n    SEEN.append(v)\n    return jnp.tanh(v)\n\n",
)

INVALID = (
    # haiku's `net.apply` runs the transformed function: a global it reads that the loop
    # changes would be frozen by jit
    Invalid(
        """
import haiku as hk
import jax
import jax.numpy as jnp

SCALE = 1.0

def bump():
    global SCALE
    SCALE = SCALE * 2.0

def forward(x):
    return hk.nets.MLP([4, 1], activation=jnp.tanh)(x) * SCALE

net = hk.without_apply_rng(hk.transform(forward))

def loss(params, x):
    return jnp.mean(net.apply(params, x) ** 2)

def step(params, x):
    value, grads = jax.value_and_grad(loss)(params, x)
    return value + 1.0

def main():
    x = jnp.ones((4, 3))
    params = {"mlp/~/linear_0": {"w": jnp.ones((3, 4)), "b": jnp.zeros(4)}}
    for i in range(4):
        value = step(params, x)
        bump()
    return value
""",
        fix=_NONE,
        message="which calls `forward`, which reads `SCALE`, which the module changes",
    ),
    # `net.apply` of `hk.transform(forward)` runs `forward`, read and pure: a haiku MLP of
    # literal sizes given `jnp.tanh`
    Invalid(HAIKU_MLP, HAIKU_MLP.replace("\ndef step(", "\n@jax.jit\ndef step(")),
    # not pure: the function `hk.transform` wraps draws host random numbers
    Invalid(
        HAIKU_HOST_RNG,
        fix=_NONE,
        message="calls `net.apply`, which runs `forward`: it draws host random numbers",
    ),
    # not pure: the haiku MLP runs the activation it is given, which appends to a global
    Invalid(
        HAIKU_ACTIVATION,
        fix=_NONE,
        message="it gives `act` to `hk.nets.MLP(...)`, which runs it: it calls `act`, which",
    ),
    # the parameters of `hk.transform` of code making them with haiku's initializers are
    # JAX arrays (`init`, kept by `hk.without_apply_rng`), the batch a float32 NumPy array
    # that the code `update` runs (`opt.update`, `optax.apply_updates`: pure, the optax
    # overlay) leaves unchanged, as jit's device copy would
    Invalid(
        """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

def forward(x):
    return hk.Linear(1)(x)

net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)

def loss(params, x):
    return jnp.mean((x @ params["linear"]["w"]) ** 2)

def update(params, state, x):
    grads = jax.grad(loss)(params, x)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state

def main():
    data = np.ones((4, 3)).astype(np.float32)
    params = net.init(jax.random.key(0), data)
    state = opt.init(params)
    for i in range(4):
        params, state = update(params, state, data[i])
    return params
""",
        """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

def forward(x):
    return hk.Linear(1)(x)

net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)

def loss(params, x):
    return jnp.mean((x @ params["linear"]["w"]) ** 2)

@jax.jit
def update(params, state, x):
    grads = jax.grad(loss)(params, x)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state

def main():
    data = np.ones((4, 3)).astype(np.float32)
    params = net.init(jax.random.key(0), data)
    state = opt.init(params)
    for i in range(4):
        params, state = update(params, state, data[i])
    return params
""",
    ),
    # no safe fix: an initializer of the user's may return a NumPy array as a parameter
    Invalid(
        """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

W = np.ones((3, 1), np.float32)

def forward(x):
    return x @ hk.get_parameter("w", [3, 1], init=lambda *_: W)

net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)

def loss(params, x):
    return jnp.mean((x @ params["linear"]["w"]) ** 2)

def update(params, state, x):
    grads = jax.grad(loss)(params, x)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state

def main():
    data = np.ones((4, 3)).astype(np.float32)
    params = net.init(jax.random.key(0), data)
    state = opt.init(params)
    for i in range(4):
        params, state = update(params, state, data[i])
    return params
""",
        """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

W = np.ones((3, 1), np.float32)

def forward(x):
    return x @ hk.get_parameter("w", [3, 1], init=lambda *_: W)

net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)

def loss(params, x):
    return jnp.mean((x @ params["linear"]["w"]) ** 2)

@jax.jit
def update(params, state, x):
    grads = jax.grad(loss)(params, x)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state

def main():
    data = np.ones((4, 3)).astype(np.float32)
    params = net.init(jax.random.key(0), data)
    state = opt.init(params)
    for i in range(4):
        params, state = update(params, state, data[i])
    return params
""",
        fix=_UNSAFE,
        message="cannot prove what `params` receives",
    ),
    # no safe fix: a float64 NumPy batch becomes float32 on the device
    Invalid(
        """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

def forward(x):
    return hk.Linear(1)(x)

net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)

def loss(params, x):
    return jnp.mean((x @ params["linear"]["w"]) ** 2)

def update(params, state, x):
    grads = jax.grad(loss)(params, x)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state

def main():
    data = np.ones((4, 3)).astype(np.float64)
    params = net.init(jax.random.key(0), data)
    state = opt.init(params)
    for i in range(4):
        params, state = update(params, state, data[i])
    return params
""",
        """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

def forward(x):
    return hk.Linear(1)(x)

net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)

def loss(params, x):
    return jnp.mean((x @ params["linear"]["w"]) ** 2)

@jax.jit
def update(params, state, x):
    grads = jax.grad(loss)(params, x)
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state

def main():
    data = np.ones((4, 3)).astype(np.float64)
    params = net.init(jax.random.key(0), data)
    state = opt.init(params)
    for i in range(4):
        params, state = update(params, state, data[i])
    return params
""",
        fix=_UNSAFE,
        message="`x` receives a NumPy array, which jit turns into a device array",
    ),
    Invalid(
        """
import jax.numpy as jnp

def step(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

u = jnp.linspace(0.0, 1.0, 64)
for _ in range(100):
    u = step(u, 0.1)
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

u = jnp.linspace(0.0, 1.0, 64)
for _ in range(100):
    u = step(u, 0.1)
""",
        doc=True,
    ),
    Invalid(
        """
import jax
from jax import numpy as jnp

def init(key, n):
    return jax.random.normal(key, (n,)) + jnp.zeros(n)

keys = jax.random.split(jax.random.PRNGKey(0), 4)
xs = [init(k, 8) for k in keys]
""",
        """
import functools

import jax
from jax import numpy as jnp


@functools.partial(jax.jit, static_argnames=("n",))
def init(key, n):
    return jax.random.normal(key, (n,)) + jnp.zeros(n)

keys = jax.random.split(jax.random.PRNGKey(0), 4)
xs = [init(k, 8) for k in keys]
""",
    ),
    Invalid(
        """
import jax as J
import jax.numpy as jnp
from functools import partial

def unroll(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x

for i in range(5):
    x = unroll(x, 3)
""",
        """
import jax as J
import jax.numpy as jnp
from functools import partial


@partial(J.jit, static_argnames=("steps",))
def unroll(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x

for i in range(5):
    x = unroll(x, 3)
""",
    ),
    Invalid(
        """
from jax import jit
import jax.numpy as jnp

def predict(w, x):
    # a linear model
    return jnp.dot(x, w)  # keep this comment

w = jnp.ones(3)
xs = jnp.ones((4, 3))
for x in xs:
    y = predict(w, x)
""",
        """
from jax import jit
import jax.numpy as jnp


@jit
def predict(w, x):
    # a linear model
    return jnp.dot(x, w)  # keep this comment

w = jnp.ones(3)
xs = jnp.ones((4, 3))
for x in xs:
    y = predict(w, x)
""",
    ),
    Invalid(
        """
import sys
import jax.numpy as jnp

def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)

main(jnp.ones(8), int(sys.argv[1]))
""",
        """
import functools
import sys

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("k",))
def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)

main(jnp.ones(8), int(sys.argv[1]))
""",
        fix=Applicability.UNSAFE,
        message="cannot prove",
    ),
    Invalid(
        """
import multiprocessing
import jax.numpy as jnp

def work(x):
    return jnp.cos(x) ** 2

def main(xs):
    with multiprocessing.Pool(2) as pool:
        pool.map(work, xs)
    for x in xs:
        y = work(x)

if __name__ == "__main__":
    main(jnp.linspace(0.0, 1.0, 8))
""",
        """
import multiprocessing

import jax
import jax.numpy as jnp


def work(x):
    return jnp.cos(x) ** 2

def main(xs):
    with multiprocessing.Pool(2) as pool:
        pool.map(work, xs)
    work_jit = jax.jit(work)
    for x in xs:
        y = work_jit(x)

if __name__ == "__main__":
    main(jnp.linspace(0.0, 1.0, 8))
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def step(x):
    print("step", x)
    return jnp.tanh(x) * 2

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="prints",
    ),
    Invalid(
        """
import jax.numpy as jnp

count = 0

def step(x):
    global count
    count += 1
    return jnp.tanh(x)

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="writes the global `count`",
    ),
    Invalid(
        """
import jax.numpy as jnp

history = []

def step(x):
    history.append(x)
    return jnp.tanh(x)

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="mutates `history`",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

def step(x):
    noise = np.random.normal(size=x.shape)
    return x + jnp.asarray(noise)

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="host random numbers",
    ),
    Invalid(
        """
import jax.numpy as jnp

def step(x):
    if jnp.max(x) > 1.0:
        return x / 2
    return x * 2

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="`if` condition depends on the array argument `x`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def grow(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])

for i in range(10):
    x = grow(x, i)
""",
        fix=_NONE,
        message="recompile",
    ),
    Invalid(
        """
import jax.numpy as jnp

def describe(x):
    return f"mean={jnp.mean(x)}"

for x in xs:
    s = describe(x)
""",
        fix=_NONE,
        message="not an array",
    ),
    Invalid(
        """
import jax.numpy as jnp

def laplacian(u):
    return jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1)

def step(u, dt):
    return u + dt * laplacian(u)

u = jnp.linspace(0.0, 1.0, 64)
for _ in range(100):
    u = step(u, 0.01)
""",
        """
import jax
import jax.numpy as jnp


def laplacian(u):
    return jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1)

@jax.jit
def step(u, dt):
    return u + dt * laplacian(u)

u = jnp.linspace(0.0, 1.0, 64)
for _ in range(100):
    u = step(u, 0.01)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def leapfrog(x, v):
    v = v - 0.05 * x
    return x + 0.1 * v, v

x, v = jnp.ones(16), jnp.zeros(16)
for _ in range(200):
    x, v = leapfrog(x, v)
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def leapfrog(x, v):
    v = v - 0.05 * x
    return x + 0.1 * v, v

x, v = jnp.ones(16), jnp.zeros(16)
for _ in range(200):
    x, v = leapfrog(x, v)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def normalise(x, axis):
    return x / jnp.linalg.norm(x, axis=axis, keepdims=True)

x = jnp.ones((4, 3))
for _ in range(5):
    x = normalise(x, 1)
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("axis",))
def normalise(x, axis):
    return x / jnp.linalg.norm(x, axis=axis, keepdims=True)

x = jnp.ones((4, 3))
for _ in range(5):
    x = normalise(x, 1)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def activate(x, kind):
    return jnp.tanh(x) if kind == "tanh" else jax.nn.relu(x)

x = jnp.linspace(-1.0, 1.0, 8)
for _ in range(3):
    x = activate(x, "tanh")
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("kind",))
def activate(x, kind):
    return jnp.tanh(x) if kind == "tanh" else jax.nn.relu(x)

x = jnp.linspace(-1.0, 1.0, 8)
for _ in range(3):
    x = activate(x, "tanh")
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

lr = 0.1

def update(w, g):
    return w - lr * g

w = jnp.ones(3)
for _ in range(10):
    lr = lr * 0.9
    w = update(w, jnp.ones(3))
""",
        fix=_NONE,
        message="reads `lr`, which the module changes",
    ),
    Invalid(
        """
import jax.numpy as jnp

def train(w):
    lr = 0.1

    def update(w, g):
        return w - lr * g

    for _ in range(10):
        w = update(w, jnp.ones(3))
        lr = lr * 0.5
    return w

train(jnp.ones(3))
""",
        fix=_NONE,
        message="reads `lr`, which the enclosing function rebinds",
    ),
    Invalid(
        """
import jax.numpy as jnp

LR = 0.1

def scaled(g):
    return LR * g

def update(w, g):
    return w - scaled(g)

w = jnp.ones(3)
for epoch in range(5):
    w = update(w, jnp.ones(3))
    LR = LR / 2
""",
        fix=_NONE,
        message="calls `scaled`, which reads `LR`",
    ),
    Invalid(
        """
import jax.numpy as jnp

class Schedule:
    def __init__(self):
        self.lr = 0.1

    def decay(self):
        self.lr *= 0.5

sched = Schedule()

def update(w, g):
    return w - sched.lr * g

w = jnp.ones(3)
for _ in range(10):
    sched.decay()
    w = update(w, jnp.ones(3))
""",
        """
import jax
import jax.numpy as jnp


class Schedule:
    def __init__(self):
        self.lr = 0.1

    def decay(self):
        self.lr *= 0.5

sched = Schedule()

@jax.jit
def update(w, g):
    return w - sched.lr * g

w = jnp.ones(3)
for _ in range(10):
    sched.decay()
    w = update(w, jnp.ones(3))
""",
        fix=Applicability.UNSAFE,
        message="reads `sched` (a host object) from outside",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

MASK = np.ones(8, dtype=bool)

def masked(x):
    return jnp.where(MASK, x, 0.0)

x = jnp.ones(8)
for i in range(8):
    np.copyto(MASK, np.arange(8) > i)
    x = masked(x)
""",
        fix=_NONE,
        message="reads `MASK`, which the module changes",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

def jitter(n):
    return np.random.default_rng().normal(size=n)

def perturb(x):
    return x + jnp.asarray(jitter(x.shape))

x = jnp.zeros(4)
for _ in range(3):
    x = perturb(x)
""",
        fix=_NONE,
        message="calls `jitter`, which draws host random numbers",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

def step(x, rng):
    return x + rng.normal(size=x.shape)

rng = np.random.default_rng(0)
x = jnp.zeros(4)
for _ in range(3):
    x = step(x, rng)
""",
        fix=_NONE,
        message="a method of `rng` (a host object)",
    ),
    Invalid(
        """
import jax.numpy as jnp

def scale(x, cfg):
    return x * cfg["scale"]

cfg = {"scale": 2.0}
x = jnp.ones(3)
for _ in range(3):
    x = scale(x, cfg)
""",
        fix=_NONE,
        message="`cfg` receives a Python container",
    ),
    Invalid(
        """
import jax.numpy as jnp

def positive_mean(x):
    return jnp.mean(x[x > 0])

x = jnp.linspace(-1.0, 1.0, 9)
for _ in range(3):
    m = positive_mean(x)
""",
        fix=_NONE,
        message="indexes with the boolean mask `x > 0`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def active(x):
    y = jnp.abs(x)
    return y.shape[0]

for x in [jnp.ones(3), jnp.ones(4)]:
    n = active(x)
""",
        fix=_NONE,
        message="returns a Python number, not an array",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

def as_float(x):
    return x * 2.0 if isinstance(x, np.ndarray) else jnp.asarray(x) * 2.0

for x in [jnp.ones(3), jnp.ones(3)]:
    y = as_float(x)
""",
        fix=_NONE,
        message="tests `isinstance` on the traced `x`",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

def clipped(x):
    return jnp.asarray(np.clip(x, 0.0, 1.0))

x = jnp.linspace(-1.0, 2.0, 5)
for _ in range(3):
    x = clipped(x)
""",
        fix=_NONE,
        message="hands the traced `x` to NumPy",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def trust_step(p, g, radius):
    return p - radius * g / max(jnp.linalg.norm(g), radius)

p = jnp.array([-1.0, 1.5])
for _ in range(5):
    p = trust_step(p, jnp.ones(2), 0.05)
""",
        fix=_NONE,
        message="`max()` depends on the array argument `g`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def jitter(x, step):
    h = (step * 9_000_017 + 12345) % 1_000_003
    return x + h / 1_000_003

x = jnp.zeros(4)
for step in range(400):
    x = jitter(x, step)
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def jitter(x, step):
    h = (step * 9_000_017 + 12345) % 1_000_003
    return x + h / 1_000_003

x = jnp.zeros(4)
for step in range(400):
    x = jitter(x, step)
""",
        fix=Applicability.UNSAFE,
        message="`step` may be a Python int that `(step * 9_000_017 + 12345)` computes on",
    ),
    Invalid(
        """
import jax.numpy as jnp

DELAY = 12

def echo(x, t):
    return x * (t * 3 + DELAY)

x = jnp.ones(4)
for t in range(300):
    x = echo(x, t) / 900.0
""",
        """
import jax
import jax.numpy as jnp

DELAY = 12

@jax.jit
def echo(x, t):
    return x * (t * 3 + DELAY)

x = jnp.ones(4)
for t in range(300):
    x = echo(x, t) / 900.0
""",
        message="add `@jax.jit`",
    ),
    Invalid(
        """
import functools
import jax.numpy as jnp

@functools.cache
def gain(level):
    return 1.0 + 0.05 * level

def amplify(x, level):
    return jnp.tanh(x * gain(level))

x = jnp.ones(4)
for i in range(8):
    x = amplify(x, i % 4)
""",
        fix=_NONE,
        message="`functools.cache` caches by its arguments",
    ),
    Invalid(
        """
import jax.numpy as jnp
import hostmath

def drive(x, t):
    return x * hostmath.envelope(t)

x = jnp.ones(2)
for i in range(8):
    x = drive(x, 0.1 * i)
""",
        fix=_NONE,
        message="hands the traced `t` to `math.exp`, which needs a Python number",
        files={"hostmath.py": "from math import exp\n\ndef envelope(t):\n    return exp(-t)\n"},
    ),
    Invalid(
        """
import jax.numpy as jnp

def step(u, t):
    return u + (t * 0.5 - 1.0) * u

u = jnp.ones(4)
for i in range(8):
    u = step(u, 0.1 * i)
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(u, t):
    return u + (t * 0.5 - 1.0) * u

u = jnp.ones(4)
for i in range(8):
    u = step(u, 0.1 * i)
""",
        fix=_UNSAFE,
        message="unsafe: `t` is a Python float and `(t * 0.5 - 1.0)` is computed in float64 "
        "eagerly, float32 traced, where cancellation may lose its digits",
    ),
    Invalid(
        """
import jax.numpy as jnp

GAIN = 0.5

def control(err):
    return err - GAIN * jnp.tanh(err)

def anneal(factor):
    globals()["GAIN"] = GAIN * factor

err = jnp.ones(3)
for t in range(20):
    err = control(err)
    anneal(0.9)
""",
        fix=_NONE,
        message="reads `GAIN`, which may be rebound through `globals()`",
    ),
    Invalid(
        """
import jax.numpy as jnp
import tuning

GAIN = 0.5

def control(err):
    return err - GAIN * jnp.tanh(err)

err = jnp.ones(3)
for _ in range(5):
    err = control(err)
    tuning.retune()
""",
        fix=_NONE,
        message="reads `GAIN`, which may be rebound through `main` in `tuning.py`",
        files={
            "pyproject.toml": "",
            "tuning.py": "import main\n\n\ndef retune():\n    main.GAIN = main.GAIN * 0.5\n",
        },
    ),
    Invalid(
        """
import sys
import jax.numpy as jnp

DT = 0.1

def set_param(name, value):
    setattr(sys.modules[__name__], name, value)

def heat(u):
    return u + DT * (jnp.roll(u, 1) - 2.0 * u)

u = jnp.ones(8)
for k in range(10):
    u = heat(u)
set_param("DT", 0.4)
""",
        """
import sys

import jax
import jax.numpy as jnp

DT = 0.1

def set_param(name, value):
    setattr(sys.modules[__name__], name, value)

@jax.jit
def heat(u):
    return u + DT * (jnp.roll(u, 1) - 2.0 * u)

u = jnp.ones(8)
for k in range(10):
    u = heat(u)
set_param("DT", 0.4)
""",
        fix=_UNSAFE,
        message="reads `DT`, which may be rebound through `sys.modules[__name__]`",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

WEIGHTS = np.array([1.0, 2.0, 3.0])

def predict(x, w=WEIGHTS):
    return jnp.tanh(x * w) + x

x = jnp.ones(3)
for epoch in range(3):
    x = predict(x)
    WEIGHTS[:] *= 0.5
""",
        fix=_NONE,
        message="reads the default of `w` (`WEIGHTS`), which the module changes in place",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

TAPS = np.array([0.25, 0.5, 0.25])

def taps_of(scale, taps=TAPS):
    return scale * jnp.asarray(taps)

def smooth(signal):
    return jnp.convolve(signal, taps_of(1.0), mode="same")

signal = jnp.ones(16)
for _ in range(3):
    signal = smooth(signal)
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

TAPS = np.array([0.25, 0.5, 0.25])

def taps_of(scale, taps=TAPS):
    return scale * jnp.asarray(taps)

@jax.jit
def smooth(signal):
    return jnp.convolve(signal, taps_of(1.0), mode="same")

signal = jnp.ones(16)
for _ in range(3):
    signal = smooth(signal)
""",
        fix=_UNSAFE,
        message="`taps_of` reads the default of `taps` (`TAPS`), a NumPy array",
    ),
    Invalid(
        """
import jax.numpy as jnp

DEBUG = False

def control(err):
    return err - 0.5 * jnp.tanh(err)

if globals().get("DEBUG") or "TRACE" in globals():
    print(sorted(globals()))
err = jnp.ones(3)
for _ in range(5):
    err = control(err)
""",
        """
import jax
import jax.numpy as jnp

DEBUG = False

@jax.jit
def control(err):
    return err - 0.5 * jnp.tanh(err)

if globals().get("DEBUG") or "TRACE" in globals():
    print(sorted(globals()))
err = jnp.ones(3)
for _ in range(5):
    err = control(err)
""",
        message="add `@jax.jit`",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

TABLE = np.array([1.0, 2.0, 3.0])

def predict(x, w=TABLE, gain=0.5, axes=(0,), bias=None, offset=jnp.zeros(3)):
    return jnp.tanh(x * w) * gain + offset

x = jnp.ones(3)
for _ in range(4):
    x = predict(x, w=jnp.full(3, 2.0))
TABLE *= 0.5
""",
        """
import functools

import jax
import jax.numpy as jnp
import numpy as np

TABLE = np.array([1.0, 2.0, 3.0])

@functools.partial(jax.jit, static_argnames=("axes", "bias"))
def predict(x, w=TABLE, gain=0.5, axes=(0,), bias=None, offset=jnp.zeros(3)):
    return jnp.tanh(x * w) * gain + offset

x = jnp.ones(3)
for _ in range(4):
    x = predict(x, w=jnp.full(3, 2.0))
TABLE *= 0.5
""",
        message="static_argnames",
    ),
    Invalid(
        """
import jax.numpy as jnp

GAIN = 0.5

def control(err):
    return err - GAIN * jnp.tanh(err)

err = jnp.ones(3)
for _ in range(5):
    err = control(err)
""",
        """
import jax
import jax.numpy as jnp

GAIN = 0.5

@jax.jit
def control(err):
    return err - GAIN * jnp.tanh(err)

err = jnp.ones(3)
for _ in range(5):
    err = control(err)
""",
        message="add `@jax.jit`",
        files={
            "pyproject.toml": "",
            "report.py": "import main\n\n\ndef gain():\n    return main.GAIN\n",
        },
    ),
    Invalid(
        """
import jax.numpy as jnp
import schedule

def control(err):
    return err - schedule.GAIN * jnp.tanh(err)

err = jnp.ones(3)
for _ in range(5):
    err = control(err)
    schedule.anneal()
""",
        fix=_NONE,
        message="reads `schedule.GAIN`, which `schedule` changes",
        files={
            "pyproject.toml": "",
            "schedule.py": (
                "GAIN = 0.5\n\n\ndef anneal():\n    global GAIN\n    GAIN = GAIN * 0.5\n"
            ),
        },
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = optimizer.init(params)
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)
""",
        """
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = optimizer.init(params)
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = optimizer.init(params)
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)

def reset():
    global optimizer
    optimizer = optax.sgd(0.1)
""",
        fix=_NONE,
        message="mutates `optimizer`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

class Acc:
    def update(self, *args):
        self.seen = args
        return args[0], args[1]

optimizer = Acc()

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = params
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)
""",
        fix=_NONE,
        message="mutates `optimizer`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

def train_step(params, opt_state, x, y, optimizer=optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = optimizer.init(params)
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)
""",
        expected="""
import functools

import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

@functools.partial(jax.jit, static_argnames=("optimizer",))
def train_step(params, opt_state, x, y, optimizer=optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = optimizer.init(params)
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)
""",
        fix=_UNSAFE,
        message="unsafe: cannot prove every call passes a hashable constant for `optimizer`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)

def loss_fn(params, x, y):
    return jnp.mean((x @ params - y) ** 2)

def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.frobnicate(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

params = jnp.zeros(3)
opt_state = optimizer.init(params)
x, y = jnp.ones((4, 3)), jnp.ones(4)
for _ in range(100):
    params, opt_state, loss = train_step(params, opt_state, x, y)
""",
        fix=_NONE,
        message="calls `optimizer.frobnicate`",
    ),
    # A function handed to a transform, a tree map or a partial runs traced inside the
    # jitted function: what it reads is judged as a direct call's.
    Invalid(
        """
import jax
import jax.numpy as jnp

MU = 1.0

def penalised(w, x):
    return jnp.sum((w - x) ** 2) + MU * (jnp.sum(w) - 1.0) ** 2

def sgd(w, x):
    return w - 0.01 * jax.grad(penalised)(w, x)

def increase_mu():
    global MU
    MU = MU * 2.0

w, x = jnp.zeros(3), jnp.ones(3)
for _ in range(5):
    w = sgd(w, x)
    increase_mu()
""",
        fix=_NONE,
        message="it uses the function `penalised`, which reads `MU`, which the module changes "
        "(jit would freeze it)",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

LR = 0.2

def scaled_step(p, g):
    return p - LR * g

def apply_sgd(params, grads):
    return jax.tree.map(lambda p, g: scaled_step(p, g), params, grads)

params = {"w": jnp.ones(2)}
for epoch in range(4):
    params = apply_sgd(params, params)
    LR = LR / 2
""",
        fix=_NONE,
        message="it uses the function `scaled_step`, which reads `LR`, which the module changes "
        "(jit would freeze it)",
    ),
    Invalid(
        """
import functools

import jax
import jax.numpy as jnp

WEIGHTS = [1.0, 2.0]

def weighted_loss(w, scale):
    return scale * jnp.sum(jnp.asarray(WEIGHTS) * w**2)

def update(w):
    return w - 0.05 * jax.grad(functools.partial(weighted_loss, scale=2.0))(w)

w = jnp.ones(2)
for step in range(3):
    w = update(w)
    WEIGHTS.append(float(step))
""",
        fix=_NONE,
        message="it uses the function `weighted_loss`, which reads `WEIGHTS`, which the module "
        "changes (jit would freeze it)",
    ),
    # Must not regress: the handed function reads a global nothing rebinds.
    Invalid(
        """
import jax
import jax.numpy as jnp

SCALE = 2.0

def loss(w, x):
    return SCALE * jnp.sum((w - x) ** 2)

def sgd(w, x):
    return w - 0.01 * jax.grad(loss)(w, x)

w, x = jnp.zeros(3), jnp.ones(3)
for _ in range(5):
    w = sgd(w, x)
""",
        """
import jax
import jax.numpy as jnp

SCALE = 2.0

def loss(w, x):
    return SCALE * jnp.sum((w - x) ** 2)

@jax.jit
def sgd(w, x):
    return w - 0.01 * jax.grad(loss)(w, x)

w, x = jnp.zeros(3), jnp.ones(3)
for _ in range(5):
    w = sgd(w, x)
""",
        message="add `@jax.jit`",
    ),
    # An optimizer holds the schedule it was given, and `tx.update` calls it: the
    # schedule reads a global the loop changes, which jit would freeze.
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

BASE_LR = 0.2
tx = optax.sgd(learning_rate=lambda count: BASE_LR * 0.9**count)

def train_step(w, state, x):
    g = jax.grad(lambda v: jnp.sum((x @ v) ** 2))(w)
    updates, state = tx.update(g, state, w)
    return optax.apply_updates(w, updates), state

def main():
    global BASE_LR
    x, w = jnp.ones((3, 2)), jnp.zeros(2)
    state = tx.init(w)
    for step in range(6):
        w, state = train_step(w, state, x)
        BASE_LR = BASE_LR * 0.5
    return w
""",
        fix=_NONE,
        message="it reads `tx`, which holds the lambda `lambda count: BASE_LR * 0.9**count`, "
        "which reads `BASE_LR`, which the module changes (jit would freeze it)",
    ),
    # Must not regress: the schedule reads only constants and its argument.
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

BASE_LR = 0.2
tx = optax.sgd(learning_rate=lambda count: 0.2 * 0.9**count)

def train_step(w, state, x):
    g = jax.grad(lambda v: jnp.sum((x @ v) ** 2))(w)
    updates, state = tx.update(g, state, w)
    return optax.apply_updates(w, updates), state

def main():
    x, w = jnp.ones((3, 2)), jnp.zeros(2)
    state = tx.init(w)
    for step in range(6):
        w, state = train_step(w, state, x)
    return w
""",
        """
import jax
import jax.numpy as jnp
import optax

BASE_LR = 0.2
tx = optax.sgd(learning_rate=lambda count: 0.2 * 0.9**count)

@jax.jit
def train_step(w, state, x):
    g = jax.grad(lambda v: jnp.sum((x @ v) ** 2))(w)
    updates, state = tx.update(g, state, w)
    return optax.apply_updates(w, updates), state

def main():
    x, w = jnp.ones((3, 2)), jnp.zeros(2)
    state = tx.init(w)
    for step in range(6):
        w, state = train_step(w, state, x)
    return w
""",
        message="add `@jax.jit`",
    ),
    # A `custom_vjp` function's backward rule is part of it: it reads a global the loop
    # changes, which jit would freeze.
    Invalid(
        """
import jax
import jax.numpy as jnp

CLIP = 1.0

@jax.custom_vjp
def clip_grad(x):
    return x

def _fwd(x):
    return x, None

def _bwd(_, g):
    return (jnp.clip(g, -CLIP, CLIP),)

clip_grad.defvjp(_fwd, _bwd)

def sgd_step(w, x):
    return w - 0.05 * jax.grad(lambda v: jnp.sum(clip_grad(x @ v)))(w)

def main():
    global CLIP
    x, w = jnp.ones((3, 2)), jnp.zeros(2)
    for i in range(5):
        w = sgd_step(w, x)
        CLIP = CLIP * 0.7
    return w
""",
        fix=_NONE,
        message="it uses the function `clip_grad`, which has the `defvjp` rule `_bwd`, which "
        "reads `CLIP`, which the module changes (jit would freeze it)",
    ),
    # A module-level `jax.vmap` of a function, called in a lambda, runs that function.
    Invalid(
        """
import jax
import jax.numpy as jnp

SHIFT = 0.0

def predict(w, x):
    return jnp.tanh(x @ w + SHIFT)

batched = jax.vmap(predict, in_axes=(None, 0))

def sgd_step(w, xs):
    return w - 0.3 * jax.grad(lambda v: jnp.mean(batched(v, xs) ** 2))(w)

def main():
    global SHIFT
    xs, w = jnp.ones((4, 2)), jnp.zeros(2)
    for epoch in range(4):
        w = sgd_step(w, xs)
        SHIFT = SHIFT - 0.05
    return w
""",
        fix=_NONE,
        message="it uses the function `predict`, which reads `SHIFT`, which the module "
        "changes (jit would freeze it)",
    ),
    # A Python float that a Python sum cancels (`1 - decay`) is float64 eagerly and
    # float32 traced: static where every call passes a constant, else unproven.
    Invalid(
        """
import jax.numpy as jnp

def ema_update(ema, x, decay):
    return decay * ema + (1 - decay) * x

ema, x = jnp.zeros(3), jnp.ones(3)
for _ in range(5):
    ema = ema_update(ema, x, 0.99999)
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("decay",))
def ema_update(ema, x, decay):
    return decay * ema + (1 - decay) * x

ema, x = jnp.zeros(3), jnp.ones(3)
for _ in range(5):
    ema = ema_update(ema, x, 0.99999)
""",
        message="(`(1 - decay)` is computed in float64 eagerly, float32 traced)",
    ),
    Invalid(
        """
import jax.numpy as jnp

def ema_update(ema, x, decay):
    return decay * ema + (1 - decay) * x

ema, x = jnp.zeros(3), jnp.ones(3)
for i in range(5):
    ema = ema_update(ema, x, 0.99 + 0.001 * i)
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def ema_update(ema, x, decay):
    return decay * ema + (1 - decay) * x

ema, x = jnp.zeros(3), jnp.ones(3)
for i in range(5):
    ema = ema_update(ema, x, 0.99 + 0.001 * i)
""",
        fix=_UNSAFE,
        message="unsafe: `decay` is a Python float and `(1 - decay)` is computed in float64 "
        "eagerly, float32 traced, where cancellation may lose its digits",
    ),
    # Must not regress: a Python float multiplied by an array directly computes alike.
    Invalid(
        """
import jax.numpy as jnp

def sgd(w, g, lr):
    return w - lr * g

w, g = jnp.ones(3), jnp.ones(3)
for i in range(5):
    w = sgd(w, g, 0.1 / (i + 1))
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def sgd(w, g, lr):
    return w - lr * g

w, g = jnp.ones(3), jnp.ones(3)
for i in range(5):
    w = sgd(w, g, 0.1 / (i + 1))
""",
    ),
    # a user init that builds its list empty and fills it only by appending lists of
    # arrays (`analysis/values/filled.py`): `params` is a pytree of arrays
    Invalid(
        """
import jax
import jax.numpy as jnp

def init(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params.append([jax.random.normal(key, (n_out, n_in)), jnp.zeros(n_out)])
    return params

def accuracy(params, x, labels):
    for w, b in params:
        x = jnp.tanh(x @ w.T + b)
    return jnp.mean(jnp.argmax(x, axis=1) == labels)

params = init(jax.random.key(0), [4, 8, 2])
x, labels = jnp.ones((16, 4)), jnp.zeros(16, dtype=int)
for epoch in range(3):
    print(accuracy(params, x * epoch, labels))
""",
        """
import jax
import jax.numpy as jnp

def init(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params.append([jax.random.normal(key, (n_out, n_in)), jnp.zeros(n_out)])
    return params

@jax.jit
def accuracy(params, x, labels):
    for w, b in params:
        x = jnp.tanh(x @ w.T + b)
    return jnp.mean(jnp.argmax(x, axis=1) == labels)

params = init(jax.random.key(0), [4, 8, 2])
x, labels = jnp.ones((16, 4)), jnp.zeros(16, dtype=int)
for epoch in range(3):
    print(accuracy(params, x * epoch, labels))
""",
    ),
    # no safe fix: the init appends a string to its list through an alias of it
    Invalid(
        """
import jax
import jax.numpy as jnp

def init(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params.append([jax.random.normal(key, (n_out, n_in)), jnp.zeros(n_out)])
    layers = params
    layers.append('tanh')
    return params

def accuracy(params, x, labels):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w.T + b)
    return jnp.mean(jnp.argmax(x, axis=1) == labels)

params = init(jax.random.key(0), [4, 8, 2])
x, labels = jnp.ones((16, 4)), jnp.zeros(16, dtype=int)
for epoch in range(3):
    print(accuracy(params, x * epoch, labels))
""",
        """
import jax
import jax.numpy as jnp

def init(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params.append([jax.random.normal(key, (n_out, n_in)), jnp.zeros(n_out)])
    layers = params
    layers.append('tanh')
    return params

@jax.jit
def accuracy(params, x, labels):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w.T + b)
    return jnp.mean(jnp.argmax(x, axis=1) == labels)

params = init(jax.random.key(0), [4, 8, 2])
x, labels = jnp.ones((16, 4)), jnp.zeros(16, dtype=int)
for epoch in range(3):
    print(accuracy(params, x * epoch, labels))
""",
        fix=_UNSAFE,
        message="cannot prove what `params` receives",
    ),
)
