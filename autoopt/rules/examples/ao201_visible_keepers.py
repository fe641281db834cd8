"""AO201 cases for a function of the module given the donated value between two calls
(`analysis/facts/unkept_arguments.py`, `visible_keeps_nothing`): where its body, and the
code it runs, keep nothing they are given, it is no keeper; where it hands some of them
to code that may keep them, it joins only those (`analysis/facts/aliases.py`); appended to
`ao201_missing_donation`'s. Each case edits one program, the rewrite the same way."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid
from autoopt.rules.examples import edited

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

#: An nnx training loop whose loss function is also called eagerly, every other step.
NNX_LOOP = """
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def loss_fun(model, data, labels):
    logits = model(data)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


@nnx.jit
def train_step(model, optimizer, data, labels):
    grads = nnx.grad(loss_fun)(model, data, labels)
    optimizer.update(grads)


model = MLP(rngs=nnx.Rngs(0))
optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
data = jnp.ones((4, 3))
labels = jnp.zeros(4, dtype=jnp.int32)
for i in range(6):
    train_step(model, optimizer, data, labels)
    if i % 2 == 0:
        print(loss_fun(model, data, labels))
"""
NNX_DONATED = "\nimport functools\n" + NNX_LOOP.replace(
    "@nnx.jit\n", '@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))\n'
)
#: A plain JAX loop whose evaluation function keeps its argument as a global.
PLAIN_LOOP = """
import jax
import jax.numpy as jnp

original = None


def evaluate(params, x):
    global original
    original = params
    return jnp.mean((x @ params["w"]) ** 2)


@jax.jit
def train_step(params, x):
    grads = jax.grad(evaluate)(params, x)
    return {"w": params["w"] - 0.1 * grads["w"]}


params = {"w": jnp.ones((3, 2))}
x = jnp.ones((4, 3))
for i in range(6):
    params = train_step(params, x)
    if i % 2 == 0:
        print(evaluate(params, x))
print(original["w"].sum())
"""
PLAIN_DONATED = PLAIN_LOOP.replace("import jax\n", "import functools\n\nimport jax\n", 1).replace(
    "@jax.jit\n", '@functools.partial(jax.jit, donate_argnames=("params",))\n'
)

_LOSS = "    logits = model(data)\n"
_LIST = ("\n\nclass MLP", "\nSEEN = []\n\n\nclass MLP")
_HOOK = """

def dot(x, kernel, *args, **kwargs):
    SEEN.append(kernel)
    return jax.lax.dot_general(x, kernel, *args, **kwargs)
"""
_RETURNED = (
    "    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()\n",
    "    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()\n"
    "    return loss, [model.hidden.kernel.value]\n",
)
_KEPT_BY_CALLER = (
    (
        "for i in range(6):",
        "history = []\nfor i in range(6):",
    ),
    (
        "        print(loss_fun(model, data, labels))\n",
        "        loss, kept = loss_fun(model, data, labels)\n        history.append(kept)\n"
        "print(history[0][0].sum())\n",
    ),
)


def _nnx_case(*pairs: tuple[str, str], fix: Applicability, message: str) -> Invalid:
    """`NNX_LOOP` edited by `pairs`, and its rewrite (none where no fix is offered)."""
    expected = None if fix is _NONE else edited(NNX_DONATED, *pairs)
    return Invalid(edited(NNX_LOOP, *pairs), expected, fix=fix, message=message)


_MAY_HOLD = "`data` may hold the buffers of `model`"

#: The MNIST loop: `evaluate` hands copies of the loader's batches to code autoopt cannot
#: see, and the model only to a jitted loss, whose body sees the model's non-array leaves
#: and the copied batch as they are (`facts/jit_arguments.py`).
EQX_EVALUATE = """
import copy

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    weight: jax.Array


class Loader:
    def __init__(self, batches):
        self.batches = batches
        self.seen = []

    def __iter__(self):
        return iter(self.batches)

    def watch(self, model):
        self.seen.append(model)


@eqx.filter_jit
def loss(model, x):
    return jnp.sum(model.weight * x)


@eqx.filter_jit
def make_step(x, model):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


def evaluate(model, loader):
    total = 0.0
    for batch in loader:
        total += loss(model, copy.copy(batch))
    return total


def train(model, trainloader, testloader):
    for step, x in enumerate(trainloader):
        model = make_step(x, model)
        if step % 2 == 0:
            print(evaluate(model, testloader))
    return model


def main():
    model = Linear(jnp.arange(4.0))
    testloader = Loader([jnp.full(4, 2.0)])
    model = train(model, [jnp.ones(4)] * 4, testloader)
    return model, testloader.seen
"""
EQX_EVALUATE_DONATED = EQX_EVALUATE.replace(
    "@eqx.filter_jit\ndef make_step", '@eqx.filter_jit(donate="all-except-first")\ndef make_step'
)
#: `evaluate` also hands the model to the loader's own code, which may keep it.
_WATCHED = ("    return total\n", "    loader.watch(model)\n    return total\n")


#: diffrax's latent ODE example: the loop samples from the model between steps; the
#: sample solves an ODE whose vector field is a module of the file (its fields given by
#: position), in a `diffrax.diffeqsolve`, which runs it on tracers, and the latent's size
#: is a field every construction gives a number (`analysis/facts/field_arguments.py`).
LATENT_LOOP = """import diffrax
import equinox as eqx
import jax
import jax.nn as jnn
import jax.numpy as jnp
import jax.random as jr
import optax
from plotting import Figure


class Func(eqx.Module):
    scale: jnp.ndarray
    mlp: eqx.nn.MLP

    def __call__(self, t, y, args):
        return self.scale * self.mlp(y)


class LatentODE(eqx.Module):
    func: Func
    latent_to_hidden: eqx.nn.MLP
    hidden_to_data: eqx.nn.Linear
    latent_size: int

    def __init__(self, *, hidden_size, latent_size, key):
        mkey, lhkey, hdkey = jr.split(key, 3)
        scale = jnp.ones(())
        mlp = eqx.nn.MLP(hidden_size, hidden_size, 8, 1, activation=jnn.softplus, key=mkey)
        self.func = Func(scale, mlp)
        self.latent_to_hidden = eqx.nn.MLP(latent_size, hidden_size, 8, 1, key=lhkey)
        self.hidden_to_data = eqx.nn.Linear(hidden_size, 2, key=hdkey)
        self.latent_size = latent_size

    def sample(self, ts, *, key):
        latent = jr.normal(key, (self.latent_size,))
        y0 = self.latent_to_hidden(latent)
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(self.func),
            diffrax.Tsit5(),
            ts[0],
            ts[-1],
            0.1,
            y0,
            saveat=diffrax.SaveAt(ts=ts),
        )
        return jax.vmap(self.hidden_to_data)(sol.ys)


def main(latent_size=2):
    model = LatentODE(hidden_size=4, latent_size=latent_size, key=jr.PRNGKey(0))
    optim = optax.sgd(0.01)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))

    @eqx.filter_jit
    def make_step(ts, model, opt_state):
        grads = eqx.filter_grad(lambda m: jnp.sum(m.sample(ts, key=jr.PRNGKey(1))))(model)
        updates, opt_state = optim.update(grads, opt_state)
        model = eqx.apply_updates(model, updates)
        return model, opt_state

    figure = Figure()
    ts = jnp.linspace(0.0, 1.0, 5)
    for step in range(4):
        model, opt_state = make_step(ts, model, opt_state)
        if step % 2 == 0:
            figure.plot(model.sample(ts, key=jr.PRNGKey(2)))
    figure.show()


main()
"""
LATENT_DONATED = LATENT_LOOP.replace(
    "    @eqx.filter_jit\n", '    @eqx.filter_jit(donate="all-except-first")\n'
)
_FIELD_CALL = "        return self.scale * self.mlp(y)\n"
_SAMPLED = "`ts` may hold the buffers of `model` and is passed in the same call"


def _latent_case(*pairs: tuple[str, str]) -> Invalid:
    """`LATENT_LOOP` edited by `pairs`: the sample may keep the model (unsafe)."""
    code, expected = edited(LATENT_LOOP, *pairs), edited(LATENT_DONATED, *pairs)
    return Invalid(code, expected, fix=_UNSAFE, message=_SAMPLED)


INVALID: tuple[Invalid, ...] = (
    # safe: the loss function called eagerly, and the model class's `__call__` it runs,
    # keep nothing they are given
    Invalid(NNX_LOOP, NNX_DONATED),
    # unsafe: the loss function appends the model's kernel to a module list
    _nnx_case(
        _LIST,
        (_LOSS, "    SEEN.append(model.hidden.kernel.value)\n" + _LOSS),
        fix=_UNSAFE,
        message=_MAY_HOLD,
    ),
    # unsafe: the loss function stores the model on the batch it is given
    _nnx_case((_LOSS, "    data.owner = model\n" + _LOSS), fix=_UNSAFE, message=_MAY_HOLD),
    # unsafe: the model class's `__call__`, which the loss runs, keeps its own kernel
    _nnx_case(
        _LIST,
        (
            "        return self.out(",
            "        SEEN.append(self.hidden.kernel.value)\n        return self.out(",
        ),
        fix=_UNSAFE,
        message=_MAY_HOLD,
    ),
    # unsafe: a layer given a `dot_general` hook, which runs at every call (and keeps
    # the kernel)
    _nnx_case(
        ("import jax.numpy as jnp\n", "import jax\nimport jax.numpy as jnp\n"),
        ("\n\nclass MLP", "\nSEEN = []\n" + _HOOK + "\n\nclass MLP"),
        ("nnx.Linear(3, 8, rngs=rngs)", "nnx.Linear(3, 8, dot_general=dot, rngs=rngs)"),
        fix=_UNSAFE,
        message=_MAY_HOLD,
    ),
    # unsafe: the loss function hands the model to code autoopt cannot see
    _nnx_case(
        ("from flax import nnx\n", "from flax import nnx\nfrom monitor import watch\n"),
        (_LOSS, "    watch(model)\n" + _LOSS),
        fix=_UNSAFE,
        message=_MAY_HOLD,
    ),
    # no fix: the loss function keeps nothing, but returns the model's kernel in a list
    # the caller keeps and reads after the loop
    _nnx_case(
        _RETURNED,
        ("    grads = nnx.grad(loss_fun)(", "    grads, _ = nnx.grad(loss_fun, has_aux=True)("),
        *_KEPT_BY_CALLER,
        fix=_NONE,
        message="`history` may hold the buffers of `model`",
    ),
    # unsafe: the jitted loss may store a buffer the model holds outside its array leaves
    # into the batch, a copy of the loader's (tests/hazards h1260): neither is proven to
    # hold no buffer there
    Invalid(
        EQX_EVALUATE,
        EQX_EVALUATE_DONATED,
        fix=_UNSAFE,
        message="`testloader` may hold the buffers of `model` and is read at line 46",
    ),
    # unsafe: `evaluate` hands the model to the loader's method, which may keep it
    Invalid(
        edited(EQX_EVALUATE, _WATCHED),
        edited(EQX_EVALUATE_DONATED, _WATCHED),
        fix=_UNSAFE,
        message="`testloader` may hold the buffers of `model` and is read at line 47",
    ),
    # unsafe: the function keeps its argument as `original = params` through `global`
    # (and keeps `x` apart from it)
    Invalid(
        PLAIN_LOOP,
        PLAIN_DONATED,
        fix=_UNSAFE,
        message="`params` is handed to `evaluate`, which may keep it",
    ),
    # safe: the sample between steps keeps nothing: the solve runs the vector field,
    # read to keep nothing given data, on tracers; its solver and `SaveAt` run nothing else
    Invalid(LATENT_LOOP, LATENT_DONATED),
    # unsafe: the vector field appends what it is given to a module list
    _latent_case(
        ("\n\nclass Func", "\nSEEN = []\n\n\nclass Func"),
        (_FIELD_CALL, "        SEEN.append(y)\n" + _FIELD_CALL),
    ),
    # unsafe: the vector field's layer runs a function of the program's
    _latent_case(("activation=jnn.softplus", "activation=lambda x: x")),
    # unsafe: a `SaveAt` given a function to run on every saved state (none is read)
    _latent_case(("saveat=diffrax.SaveAt(ts=ts)", "saveat=diffrax.SaveAt(ts=ts, fn=print)")),
    # unsafe: a second construction gives the latent's size a list, which may hold
    # anything (the sample computes a shape of it)
    _latent_case(
        ("\n\nmain()\n", "\n\nmain()\nLatentODE(hidden_size=4, latent_size=[2], key=None)\n")
    ),
)
