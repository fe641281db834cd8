"""Hazard fragments of the differential fuzzer (benchmarks/fuzz_rewrites.py): issue 27's classes.

A fragment is a small named function `(k, n, hazard) -> Fragment`: module-level lines,
lines of `main()`'s body and the expressions `main()` returns, every name suffixed with
`k` so that fragments compose, `n` the loop's length. With `hazard` it renders the
disguise that must keep a safe fix off (or keep it harmless); without, its benign twin,
the same loop a safe fix may rewrite. A template line starting `?H ` is rendered only
with the hazard, `?B ` only without. The first word of a fragment's docstring is its
class (`CLASSES`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

CLASSES = ("traceability", "frozen-state", "host-mutation", "aliases", "dtype", "effects")


@dataclass
class Fragment:
    top: list[str]
    body: list[str]
    ret: list[str]


Maker = Callable[[int, int, bool], Fragment]
FRAGMENTS: dict[str, Maker] = {}


def fragment_class(name: str) -> str:
    """The hazard class of fragment `name` (the first word of its docstring)."""
    return (FRAGMENTS[name].__doc__ or "").split(":")[0]


def _register(fn: Maker) -> Maker:
    FRAGMENTS[fn.__name__] = fn
    assert fragment_class(fn.__name__) in CLASSES, fn.__name__
    return fn


def _lines(template: str, hazard: bool) -> list[str]:
    out = []
    for line in textwrap.dedent(template).strip("\n").splitlines():
        if line.startswith("?H "):
            if hazard:
                out.append(line[3:])
        elif line.startswith("?B "):
            if not hazard:
                out.append(line[3:])
        else:
            out.append(line)
    return out


def _frag(top: str, body: str, ret: list[str], hazard: bool) -> Fragment:
    top_lines = _lines(top, hazard)
    return Fragment(top_lines + ([""] if top_lines else []), _lines(body, hazard), ret)


# --- traceability ----------------------------------------------------------------------


@_register
def mask_in_example(k: int, n: int, h: bool) -> Fragment:
    """traceability: boolean-mask indexing in a per-example body (vmap traces it)."""
    top = f"""
    def score{k}(x):
    ?H     return jnp.sum(x[x > 1.0])
    ?B     return jnp.sum(jnp.where(x > 1.0, x, 0.0))
    """
    body = f"""
    batch{k} = jnp.arange({3 * n}.0).reshape({n}, 3)
    outs{k} = []
    for i in range(batch{k}.shape[0]):
        outs{k}.append(score{k}(batch{k}[i]))
    ys{k} = jnp.stack(outs{k})
    """
    return _frag(top, body, [f"ys{k}"], h)


@_register
def host_table_index(k: int, n: int, h: bool) -> Fragment:
    """traceability: a counted loop indexing a NumPy table or Python list with its index."""
    table = f"[0.5 + 0.25 * j for j in range({n})]" if n % 2 else f"np.linspace(0.5, 1.5, {n})"
    top = f"""
    ?H TABLE{k} = {table}
    ?B TABLE{k} = jnp.linspace(0.5, 1.5, {n})
    """
    body = f"""
    acc{k} = jnp.ones(3)
    for i in range({n}):
        acc{k} = jnp.tanh(acc{k} * TABLE{k}[i]) + 0.1
    """
    return _frag(top, body, [f"acc{k}"], h)


@_register
def lru_cache_helper(k: int, n: int, h: bool) -> Fragment:
    """traceability: a functools.lru_cache helper called with the step's argument."""
    top = f"""
    @functools.lru_cache(maxsize=None)
    def rate{k}(t):
        return 1.0 / (1.0 + t)

    def step{k}(s, t):
    ?H     return s * rate{k}(t) + 0.1
    ?B     return s * (1.0 / (1.0 + t)) + 0.1
    """
    body = f"""
    s{k} = jnp.ones(3)
    for t in range({n}):
        s{k} = step{k}(s{k}, t)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def math_on_value(k: int, n: int, h: bool) -> Fragment:
    """traceability: math.* on a value the step receives."""
    top = f"""
    def step{k}(s, t):
    ?H     return s * math.exp(-0.1 * t) + math.sqrt(t + 1.0)
    ?B     return s * jnp.exp(-0.1 * t) + jnp.sqrt(t + 1.0)
    """
    body = f"""
    s{k} = jnp.ones(3)
    for t in range({n}):
        s{k} = step{k}(s{k}, t)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def lcg_index(k: int, n: int, h: bool) -> Fragment:
    """traceability: Python int arithmetic of the loop beyond int32 (an LCG, a hash)."""
    big = (
        f"(seed{k} * 1103515245 + 12345) % 2147483648"
        if n % 2
        else f"(i * 2654435761 + seed{k}) % 4294967296"
    )
    body = f"""
    seed{k} = 12345
    acc{k} = jnp.zeros(3)
    for i in range({n}):
    ?H     seed{k} = {big}
    ?B     seed{k} = (seed{k} * 5 + 3) % 101
        acc{k} = acc{k} * 0.5 + (seed{k} % 1000) / 1000.0
    """
    return _frag("", body, [f"acc{k}", f"seed{k}"], h)


# --- frozen state ----------------------------------------------------------------------


def _gain_loop(k: int, n: int, h: bool, rebind: str) -> Fragment:
    top = f"""
    GAIN{k} = 0.5

    def step{k}(s):
        return s * GAIN{k} + 1.0
    """
    body = f"""
    s{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k})
    ?H     {rebind}
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def globals_rebind(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a global the step reads rebound through globals()[...]."""
    return _gain_loop(k, n, h, f'globals()["GAIN{k}"] = GAIN{k} * 0.9')


@_register
def setattr_module_rebind(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a global the step reads rebound through setattr(sys.modules[...])."""
    return _gain_loop(k, n, h, f'setattr(sys.modules[__name__], "GAIN{k}", GAIN{k} + 0.25)')


@_register
def call_counter(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a decorator counting calls in a function attribute."""
    top = f"""
    def counted{k}(fn):
        def wrapper(*args):
            wrapper.calls += 1
            return fn(*args)

        wrapper.calls = 0
        return wrapper

    ?H @counted{k}
    def step{k}(s, x):
        return jnp.tanh(s + x)
    """
    body = f"""
    s{k} = jnp.zeros(3)
    x{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}", f'getattr(step{k}, "calls", 0)'], h)


@_register
def nested_host_rng(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: host RNG reached through a nested function."""
    top = f"""
    def make_noise{k}(seed):
        rng = np.random.default_rng(seed)

        def noise(shape):
    ?H         return rng.normal(size=shape)
    ?B         return np.zeros(shape)

        return noise

    NOISE{k} = make_noise{k}(0)

    def step{k}(s):
        return s * 0.9 + NOISE{k}(s.shape)
    """
    body = f"""
    s{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k})
    """
    return _frag(top, body, [f"s{k}"], h)


# --- host mutation ---------------------------------------------------------------------


def _host_loop(k: int, n: int, h: bool, change: str, after: bool = False) -> Fragment:
    change_line = f"?H     {change}"
    body = f"""
    host{k} = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc{k} = jnp.zeros(4)
    for i in range({n}):
    {change_line if not after else ""}
        d{k} = jnp.asarray(host{k})
        acc{k} = acc{k} + d{k}[0] * d{k}[2]
    {change_line if after else ""}
    """
    return _frag(
        "", "\n".join(x for x in body.splitlines() if x.strip()), [f"acc{k}", f"host{k}"], h
    )


@_register
def positional_out(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer refilled by a ufunc's positional out argument."""
    return _host_loop(k, n, h, f"np.multiply(host{k}, 0.5, host{k})")


@_register
def fill_refill(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer refilled with .fill after its transfer."""
    return _host_loop(k, n, h, f"host{k}.fill(float(i))", after=True)


@_register
def flat_write(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer written through .flat."""
    return _host_loop(k, n, h, f"host{k}.flat[{n % 12}] = i + 0.5")


@_register
def augmented_refill(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer changed by augmented assignment."""
    return _host_loop(k, n, h, f"host{k} += 1.0", after=True)


@_register
def strided_slice_write(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer written through a strided slice."""
    return _host_loop(k, n, h, f"host{k}[1:, ::2] = i")


@_register
def helper_list_extend(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a helper growing the caller's list with `points += [p]`."""
    top = f"""
    def record{k}(points, p):
        points += [p]
    """
    body = f"""
    points{k} = [0.0, 1.0]
    other{k} = [0.0]
    acc{k} = jnp.zeros(())
    for i in range({n}):
        acc{k} = acc{k} + jnp.sum(jnp.asarray(points{k}))
    ?H     record{k}(points{k}, float(i))
    ?B     record{k}(other{k}, float(i))
    """
    return _frag(top, body, [f"acc{k}", f"points{k}"], h)


@_register
def module_refill(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a module-level buffer refilled by a module function."""
    top = f"""
    BUF{k} = np.ones(4)

    def refill{k}(v):
        BUF{k}[:] = v
    """
    body = f"""
    acc{k} = jnp.zeros(4)
    for i in range({n}):
        acc{k} = acc{k} + jnp.asarray(BUF{k}) * 2.0
    ?H     refill{k}(i + 1.0)
    """
    return _frag(top, body, [f"acc{k}"], h)


@_register
def callback_reads_deferred(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a callback reading the list whose float() syncs would be deferred."""
    body = f"""
    losses{k} = []
    seen{k} = []

    def hook{k}():
        seen{k}.append(type(losses{k}[-1]).__name__)

    w{k} = jnp.arange(3.0)
    for i in range({n}):
        w{k} = w{k} * 0.9 + i
        losses{k}.append(float(jnp.sum(w{k} * w{k})))
    ?H     hook{k}()
    """
    return _frag("", body, [f"losses{k}", f"seen{k}"], h)


@_register
def row_reused(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a NumPy row reused after its piece was deferred to a join."""
    body = f"""
    row{k} = np.zeros((1, 3))
    grown{k} = jnp.zeros((0, 3))
    for i in range({n}):
    ?H     row{k}[0, :] = i
    ?B     row{k} = np.full((1, 3), float(i))
        grown{k} = jnp.concatenate([grown{k}, row{k}])
    """
    return _frag("", body, [f"grown{k}"], h)


# --- aliases ---------------------------------------------------------------------------


@_register
def repeated_leaf(k: int, n: int, h: bool) -> Fragment:
    """aliases: a state of two leaves built by [x] * 2 (one buffer)."""
    top = f"""
    def step{k}(state):
        a, b = state
        return [a + 1.0, b * 2.0]
    """
    body = f"""
    ?H state{k} = [jnp.zeros(5)] * 2
    ?B state{k} = [jnp.zeros(5), jnp.zeros(5)]
    for i in range({n}):
        state{k} = step{k}(state{k})
    """
    return _frag(top, body, [f"state{k}"], h)


@_register
def fromkeys_state(k: int, n: int, h: bool) -> Fragment:
    """aliases: a dict state whose values share one buffer (dict.fromkeys)."""
    top = f"""
    def step{k}(state):
        return {{"a": state["a"] + 1.0, "b": state["b"] * 0.5}}
    """
    body = f"""
    ?H state{k} = dict.fromkeys(("a", "b"), jnp.ones(3))
    ?B state{k} = {{"a": jnp.ones(3), "b": jnp.ones(3)}}
    for i in range({n}):
        state{k} = step{k}(state{k})
    """
    return _frag(top, body, [f"state{k}"], h)


@_register
def class_attr_state(k: int, n: int, h: bool) -> Fragment:
    """aliases: the state kept in a class attribute and read after the loop."""
    top = f"""
    class Box{k}:
        last = None

    def step{k}(s, x):
        return s * 0.5 + x
    """
    body = f"""
    s{k} = jnp.ones(4)
    x{k} = jnp.arange(4.0)
    for i in range({n}):
    ?H     Box{k}.last = s{k}
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}", f"Box{k}.last"], h)


@_register
def generator_ref(k: int, n: int, h: bool) -> Fragment:
    """aliases: a generator holding a reference to the starting state."""
    top = f"""
    def step{k}(s):
        return jnp.sin(s) + 1.0
    """
    body = f"""
    s{k} = jnp.ones(4)
    ?H firsts{k} = (v for v in [s{k}])
    ?B firsts{k} = iter([jnp.ones(4)])
    for i in range({n}):
        s{k} = step{k}(s{k})
    first{k} = next(firsts{k})
    """
    return _frag(top, body, [f"s{k}", f"first{k}"], h)


# --- dtype -----------------------------------------------------------------------------


@_register
def join_dtypes(k: int, n: int, h: bool) -> Fragment:
    """dtype: grown pieces whose dtype changes over the loop (a deferred join)."""
    body = f"""
    grown{k} = jnp.zeros((0, 2), dtype=jnp.int8)
    for i in range({n}):
    ?H     piece{k} = jnp.full((1, 2), i, dtype=jnp.uint8 if i % 2 else jnp.float16)
    ?B     piece{k} = jnp.full((1, 2), i, dtype=jnp.int8)
        grown{k} = jnp.concatenate([grown{k}, piece{k}])
    """
    return _frag("", body, [f"grown{k}"], h)


@_register
def weak_syncs(k: int, n: int, h: bool) -> Fragment:
    """dtype: synced values of weak and strong dtypes collected in one list."""
    body = f"""
    vals{k} = []
    for i in range({n}):
    ?H     v{k} = jnp.asarray(i) * 3 if i % 2 else jnp.asarray(i, dtype=jnp.uint8) * 100
    ?B     v{k} = jnp.asarray(float(i)) * 3
        vals{k}.append(v{k}.item())
    """
    return _frag("", body, [f"vals{k}"], h)


# --- host effects ----------------------------------------------------------------------


@_register
def debug_print_layers(k: int, n: int, h: bool) -> Fragment:
    """effects: jax.debug.print in repeated layers under jax.grad (checkpointing repeats it)."""
    top = f"""
    def layer{k}(w, x):
    ?H     jax.debug.print("layer{k} {{s}}", s=jnp.sum(x))
        return jnp.tanh(x @ w)

    def loss{k}(ws, x):
        for w in ws:
            x = layer{k}(w, x)
        return jnp.sum(x * x)
    """
    body = f"""
    ws{k} = [jnp.eye(3) * (0.5 + 0.1 * j) for j in range({n + 1})]
    grads{k} = jax.grad(loss{k})(ws{k}, jnp.ones(3))
    """
    return _frag(top, body, [f"grads{k}"], h)


@_register
def debug_print_example(k: int, n: int, h: bool) -> Fragment:
    """effects: jax.debug.print in a per-example body (vmap regroups it)."""
    top = f"""
    def per_example{k}(x):
    ?H     jax.debug.print("example{k} {{v}}", v=x[0])
        return jnp.sum(x * x)
    """
    body = f"""
    batch{k} = jnp.arange({3 * n}.0).reshape({n}, 3)
    ys{k} = jnp.stack([per_example{k}(batch{k}[i]) for i in range({n})])
    """
    return _frag(top, body, [f"ys{k}"], h)


@_register
def logging_in_step(k: int, n: int, h: bool) -> Fragment:
    """effects: logging in a step function (a jitted step logs once, at trace)."""
    top = f"""
    LOG{k} = logging.getLogger("fuzz{k}")

    def step{k}(s, x):
    ?H     LOG{k}.warning("step%d", {k})
        return s * 0.9 + x
    """
    body = f"""
    logging.basicConfig(stream=sys.stdout, format="%(name)s %(message)s")
    s{k} = jnp.zeros(3)
    x{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}"], h)


# --- second round: disguises the first round's analysis might not name ----------------


@_register
def view_write(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer changed through a view taken before the loop."""
    body = f"""
    host{k} = np.arange(12, dtype=np.float64).reshape(3, 4)
    view{k} = host{k}[0]
    acc{k} = jnp.zeros(4)
    for i in range({n}):
        d{k} = jnp.asarray(host{k})
        acc{k} = acc{k} + d{k}[0] * d{k}[2]
    ?H     view{k} += 1.0
    """
    return _frag("", body, [f"acc{k}", f"host{k}"], h)


@_register
def ufunc_at_write(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer changed by np.add.at / np.put / np.negative(x, x)."""
    change = (
        f"np.add.at(host{k}, (0, 1), 1.0)",
        f"np.put(host{k}, [0, 5], i)",
        f"np.negative(host{k}, host{k})",
    )[n % 3]
    body = f"""
    host{k} = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc{k} = jnp.zeros(4)
    for i in range({n}):
        d{k} = jnp.asarray(host{k})
        acc{k} = acc{k} + d{k}[0] * d{k}[2]
    ?H     {change}
    """
    return _frag("", body, [f"acc{k}", f"host{k}"], h)


@_register
def object_buffer(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a buffer an object holds, refilled by its method."""
    top = f"""
    class Sensor{k}:
        def __init__(self):
            self.buf = np.ones(4)

        def read(self, v):
            self.buf[:] = v
    """
    body = f"""
    sensor{k} = Sensor{k}()
    acc{k} = jnp.zeros(4)
    for i in range({n}):
        acc{k} = acc{k} + jnp.asarray(sensor{k}.buf) * 2.0
    ?H     sensor{k}.read(i + 0.5)
    """
    return _frag(top, body, [f"acc{k}"], h)


@_register
def index_as_shape(k: int, n: int, h: bool) -> Fragment:
    """traceability: the loop index used as a shape or slice bound in the step."""
    top = f"""
    def step{k}(s, t):
    ?H     return s * 0.5 + jnp.arange(t + 3).sum()
    ?B     return s * 0.5 + (t + 3) * (t + 2) / 2.0
    """
    body = f"""
    s{k} = jnp.ones(3)
    for t in range({n}):
        s{k} = step{k}(s{k}, t)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def nonlocal_rebind(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a closure variable the step reads, rebound by a nonlocal helper."""
    body = f"""
    scale{k} = 1.0

    def decay{k}():
        nonlocal scale{k}
        scale{k} = scale{k} * 0.5

    def step{k}(s):
        return s * scale{k} + 1.0

    s{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k})
    ?H     decay{k}()
    """
    return _frag("", body, [f"s{k}"], h)


@_register
def defaults_rebind(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a step's default argument replaced through __defaults__."""
    top = f"""
    def step{k}(s, gain=0.5):
        return s * gain + 1.0
    """
    body = f"""
    s{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k})
    ?H     step{k}.__defaults__ = (0.25 + 0.1 * i,)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def identity_alias(k: int, n: int, h: bool) -> Fragment:
    """aliases: a state kept by a call that returns its input (jnp.asarray, astype)."""
    keep = (f"jnp.asarray(s{k})", f"s{k}.block_until_ready()", f"s{k}.astype(s{k}.dtype)")[n % 3]
    top = f"""
    def step{k}(s, x):
        return s * 0.5 + x
    """
    body = f"""
    s{k} = jnp.ones(4)
    x{k} = jnp.arange(4.0)
    ?H kept{k} = {keep}
    ?B kept{k} = s{k} + 0.0
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}", f"kept{k}"], h)


@_register
def closure_keeps_state(k: int, n: int, h: bool) -> Fragment:
    """aliases: a lambda made before the loop that returns the starting state."""
    top = f"""
    def step{k}(s, x):
        return jnp.cos(s) + x
    """
    body = f"""
    s{k} = jnp.ones(4)
    x{k} = jnp.arange(4.0)
    ?H start{k} = lambda: s{k}
    ?B start{k} = lambda: jnp.ones(4)
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}", f"start{k}()"], h)


@_register
def aliased_print(k: int, n: int, h: bool) -> Fragment:
    """effects: printing in the step through an alias of print or sys.stdout.write."""
    say = "say = print" if n % 2 else "say = sys.stdout.write"
    top = f"""
    ?H {say}

    def step{k}(s, x):
    ?H     say("step{k}\\n")
        return s * 0.9 + x
    """
    body = f"""
    s{k} = jnp.zeros(3)
    x{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def index_branch(k: int, n: int, h: bool) -> Fragment:
    """traceability: Python control flow or range() on the loop index in the step."""
    top = f"""
    def step{k}(s, t):
    ?H     for _ in range(t % 3):
    ?H         s = s * 0.9
    ?H     if t % 2:
    ?H         return s + 1.0
        return s * 0.5 + 0.25
    """
    body = f"""
    s{k} = jnp.ones(3)
    for t in range({n}):
        s{k} = step{k}(s{k}, t)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def numpy_on_index(k: int, n: int, h: bool) -> Fragment:
    """traceability: NumPy (or a dict lookup) on the loop index inside the step."""
    expr = "np.sin(t) * 0.1" if n % 2 else "{0: 0.1, 1: 0.2}.get(t % 2, 0.3)"
    top = f"""
    def step{k}(s, t):
    ?H     return s * 0.5 + {expr}
    ?B     return s * 0.5 + jnp.sin(t) * 0.1
    """
    body = f"""
    s{k} = jnp.ones(3)
    for t in range({n}):
        s{k} = step{k}(s{k}, t)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def rows_iterated_inplace(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer changed through the row views of iterating it."""
    body = f"""
    host{k} = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc{k} = jnp.zeros(4)
    for i in range({n}):
        d{k} = jnp.asarray(host{k})
        acc{k} = acc{k} + d{k}[0] * d{k}[2]
    ?H     for row{k} in host{k}:
    ?H         row{k} += 1.0
    """
    return _frag("", body, [f"acc{k}", f"host{k}"], h)


@_register
def method_mutation(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a host buffer changed by .sort(), .put() or an unbound ndarray method."""
    change = (f"host{k}.sort(axis=0)", f"host{k}.put([0, 3], i)", f"np.ndarray.fill(host{k}, i)")
    body = f"""
    host{k} = np.arange(12, dtype=np.float64)[::-1].reshape(3, 4).copy()
    acc{k} = jnp.zeros(4)
    for i in range({n}):
        d{k} = jnp.asarray(host{k})
        acc{k} = acc{k} + d{k}[0] * d{k}[2]
    ?H     {change[n % 3]}
    """
    return _frag("", body, [f"acc{k}", f"host{k}"], h)


@_register
def tuple_of_one_buffer(k: int, n: int, h: bool) -> Fragment:
    """aliases: a tuple state whose two leaves are one array, built by a comprehension."""
    top = f"""
    def step{k}(state):
        a, b = state
        return (a * 2.0, b + 1.0)
    """
    body = f"""
    base{k} = jnp.ones(4)
    ?H state{k} = tuple(base{k} for _ in range(2))
    ?B state{k} = tuple(jnp.ones(4) for _ in range(2))
    for i in range({n}):
        state{k} = step{k}(state{k})
    """
    return _frag(top, body, [f"state{k}"], h)


@_register
def history_before_loop(k: int, n: int, h: bool) -> Fragment:
    """aliases: the starting state kept in a list made before the loop, read after."""
    top = f"""
    def step{k}(s):
        return s * 0.5 + 1.0
    """
    body = f"""
    s{k} = jnp.zeros(3)
    ?H history{k} = [s{k}]
    ?B history{k} = [jnp.zeros(3)]
    for i in range({n}):
        s{k} = step{k}(s{k})
    history{k}.append(s{k})
    """
    return _frag(top, body, [f"history{k}"], h)


@_register
def item_of_ints(k: int, n: int, h: bool) -> Fragment:
    """dtype: .item() / int() of integer and boolean device values, collected in a loop."""
    conv = f"v{k}.item()" if n % 2 else f"int(v{k})"
    body = f"""
    vals{k} = []
    for i in range({n}):
    ?H     v{k} = jnp.arange(4)[i % 4] * 7
    ?B     v{k} = jnp.arange(4.0)[i % 4] * 7
        vals{k}.append({conv})
    """
    return _frag("", body, [f"vals{k}"], h)


@_register
def print_partial(k: int, n: int, h: bool) -> Fragment:
    """effects: a print reached through functools.partial in the step."""
    top = f"""
    ?H LOGLINE{k} = functools.partial(print, "step{k}")

    def step{k}(s, x):
    ?H     LOGLINE{k}()
        return jnp.sin(s) + x
    """
    body = f"""
    s{k} = jnp.zeros(3)
    x{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def example_index_slice(k: int, n: int, h: bool) -> Fragment:
    """traceability: a per-example body slicing by the example's index (vmap traces it)."""
    top = f"""
    def per_example{k}(x, i):
    ?H     return jnp.sum(x[: i + 1]) * 2.0
    ?B     return jnp.sum(x) * (i + 1.0)
    """
    body = f"""
    batch{k} = jnp.arange({3 * n}.0).reshape({n}, 3)
    outs{k} = []
    for i in range({n}):
        outs{k}.append(per_example{k}(batch{k}[i], i))
    ys{k} = jnp.stack(outs{k})
    """
    return _frag(top, body, [f"ys{k}"], h)


@_register
def at_set_host_math(k: int, n: int, h: bool) -> Fragment:
    """traceability: an .at[i].set value computed by math.* or int hashing of the index."""
    value = "math.sin(i) * 2.0" if n % 2 else "float((i * 2654435761) % 97)"
    body = f"""
    arr{k} = jnp.zeros({n})
    for i in range({n}):
    ?H     arr{k} = arr{k}.at[i].set({value})
    ?B     arr{k} = arr{k}.at[i].set(i * 2.0)
    """
    return _frag("", body, [f"arr{k}"], h)


@_register
def global_initial_state(k: int, n: int, h: bool) -> Fragment:
    """aliases: a donated state that starts as a module global read after the loop."""
    top = f"""
    START{k} = jnp.linspace(0.0, 1.0, 4)

    def step{k}(s, x):
        return s * 0.5 + x
    """
    body = f"""
    ?H s{k} = START{k}
    ?B s{k} = jnp.linspace(0.0, 1.0, 4)
    x{k} = jnp.ones(4)
    for i in range({n}):
        s{k} = step{k}(s{k}, x{k})
    """
    return _frag(top, body, [f"s{k}", f"START{k} + 0.0"], h)


@_register
def nested_element_write(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a list of NumPy rows changed through one of its elements."""
    body = f"""
    rows{k} = [np.zeros(3), np.ones(3)]
    acc{k} = jnp.zeros(3)
    for i in range({n}):
        acc{k} = acc{k} + jnp.asarray(rows{k}).sum(axis=0)
    ?H     rows{k}[0][1] = i + 0.5
    """
    return _frag("", body, [f"acc{k}"], h)


@_register
def list_method_mutation(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a Python list the loop transfers, changed by .sort() or .reverse()."""
    change = f"vals{k}.reverse()" if n % 2 else f"vals{k}.sort(reverse=bool(i % 2))"
    body = f"""
    vals{k} = [3.0, 1.0, 2.0]
    acc{k} = jnp.zeros(3)
    for i in range({n}):
        acc{k} = acc{k} * 0.5 + jnp.asarray(vals{k})
    ?H     {change}
    """
    return _frag("", body, [f"acc{k}", f"vals{k}"], h)


@_register
def len_of_growing_list(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a step reading len() of a global list the loop grows."""
    top = f"""
    HISTORY{k} = [0.0]

    def step{k}(s):
    ?H     return s * 0.5 + len(HISTORY{k})
    ?B     return s * 0.5 + 1.0
    """
    body = f"""
    s{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k})
        HISTORY{k}.append(float(i))
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def vars_rebind(k: int, n: int, h: bool) -> Fragment:
    """frozen-state: a config attribute the step reads, rebound through vars(obj)[...]."""
    top = f"""
    class Config{k}:
        def __init__(self):
            self.scale = 1.0

    CFG{k} = Config{k}()

    def step{k}(s):
        return s * CFG{k}.scale + 0.5
    """
    body = f"""
    s{k} = jnp.ones(3)
    for i in range({n}):
        s{k} = step{k}(s{k})
    ?H     vars(CFG{k})["scale"] = 0.5 / (i + 1)
    """
    return _frag(top, body, [f"s{k}"], h)


@_register
def list_read_in_loop(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: the loop itself reads the list whose float() syncs would be deferred."""
    body = f"""
    losses{k} = []
    flags{k} = []
    w{k} = jnp.arange(3.0)
    for i in range({n}):
        w{k} = w{k} * 0.9 + i
        losses{k}.append(float(jnp.sum(w{k})))
    ?H     flags{k}.append(isinstance(losses{k}[-1], float) and losses{k}[-1] > 3.0)
    """
    return _frag("", body, [f"losses{k}", f"flags{k}"], h)


@_register
def grown_read_in_loop(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: an array grown by concatenate, read inside the loop that grows it."""
    body = f"""
    grown{k} = jnp.zeros((1, 3))
    sizes{k} = []
    for i in range({n}):
        grown{k} = jnp.concatenate([grown{k}, jnp.full((1, 3), float(i))])
    ?H     sizes{k}.append(float(grown{k}.sum()))
    """
    return _frag("", body, [f"grown{k}", f"sizes{k}"], h)


@_register
def synced_value_printed(k: int, n: int, h: bool) -> Fragment:
    """effects: the float() a loop collects also printed or formatted in the loop."""
    use = f'print("loss{k}", l{k})' if n % 2 else f'notes{k}.append(f"{{l{k}:.3f}}")'
    body = f"""
    losses{k} = []
    notes{k} = []
    w{k} = jnp.arange(3.0)
    for i in range({n}):
        w{k} = w{k} * 0.9 + i
        l{k} = float(jnp.sum(w{k} * w{k}))
        losses{k}.append(l{k})
    ?H     {use}
    """
    return _frag("", body, [f"losses{k}", f"notes{k}"], h)


@_register
def synced_value_steers(k: int, n: int, h: bool) -> Fragment:
    """host-mutation: a collected float() that also steers the next step's rate."""
    top = f"""
    def step{k}(w, lr):
        return w - lr * jnp.tanh(w)
    """
    body = f"""
    losses{k} = []
    lr{k} = 0.1
    w{k} = jnp.arange(3.0)
    for i in range({n}):
        w{k} = step{k}(w{k}, lr{k})
        losses{k}.append(float(jnp.sum(w{k} * w{k})))
    ?H     lr{k} = 0.1 / (1.0 + losses{k}[-1])
    """
    return _frag(top, body, [f"losses{k}", f"w{k}"], h)
