"""AO201 missing-donation."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis.plans import keep_first
from autoopt.analysis.plans.keep_first import KeepFirst
from autoopt.analysis.semantic import (
    Donation,
    DonationTarget,
    ModuleContext,
    overlays,
    semantic,
    weakest,
)
from autoopt.model import Applicability, Edit, Finding, NodeTransform, Replace
from autoopt.rewrite.jit import (
    add_decorator,
    is_spelling,
    jit_decorator,
    with_donate_mode,
    with_donation,
)
from autoopt.rewrite.keep_first import keep_first_call, keep_first_def
from autoopt.rules.base import Rule

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE
_FILTER_JIT = "equinox.filter_jit"


class MissingDonation(Rule):
    """
    ## What it does
    Finds a jitted function whose input is dead after every call in the module
    because the call's output replaces it (`state = step(state, batch)`,
    `params, opt = update(params, opt, grads)`), and donates that input with
    `donate_argnames`, merged into the existing `jax.jit` options. Functions
    that AO101 jits in the same run are included: AO201's finding sits on the
    same name and runs after AO101, so its edit merges the donation into AO101's
    decorator, or adds that decorator itself when AO101's fix is not applied,
    never with weaker safety than AO101's. The frameworks' jits are read in their
    own spelling: `nnx.jit` takes `donate_argnames`, and since it writes a module
    argument back in place, a module passed to it (`loss = step(model, opt, x)`)
    is replaced as a rebound array is; `eqx.filter_jit` donates by mode,
    `donate="all"` or `donate="all-except-first"`, written only when every
    argument it donates is dead, holds no array (a number, a function, an optax
    optimizer) or is a NumPy array (jit donates its device copy); a batch that a
    generator of the module yields anew every iteration
    (`for x, y in dataloader((xs, ys), 32)`) is dead after the step that takes it.
    Where an argument that no call replaces must stay live (read after a call, or not
    proven dead) and neither mode fits, the kept arguments are passed first, packed in a
    tuple when several (`def step(undonated, model): xs, ys = undonated`, called as
    `step((xs, ys), model)`), and `donate="all-except-first"` donates the rest: equinox's
    own advice for donating only some arguments, written only where every use of the
    function is a call autoopt updates too. It is preferred to a `jax.jit` with
    `donate_argnums` over `eqx.partition`ed arrays, which would have to redo at each site
    what `filter_jit` does for non-array arguments and outputs (held static, returned as
    they are: an MLP's activation function).
    In a trainer class the replaced input may be an attribute,
    `self.state, loss = self.train_step(self.state, batch)`, with the step jitted
    at module level or into an attribute (`self.train_step = jax.jit(train_step)`).
    A method jitted with a static `self` (`functools.partial(jax.jit,
    static_argnums=0)`) and called through the one instance of its class
    (`rng, state = gan.update(rng, state, batch)`) donates the parameters after `self`.
    Where every value a fix would donate is proven tiny, every array leaf a 0-d array or a
    PRNG key (an equinox module of one scalar and its optax state, a key alone), the
    finding stays with no fix: the donation saves nothing worth a diff. A key donated
    with a big state, or with a value autoopt cannot size, stays donated.

    ## Why is this bad?
    Without donation XLA must keep the old buffers alive while it writes the new
    ones: every step allocates and fills a second copy of the state. Donated,
    the output reuses the input's memory. Measured on CPU for a 200 MB state:
    7.7x faster per step for `s + 1`, 250x for a scattered update, and the peak
    memory of the loop no longer doubles. An `eqx.filter_jit` momentum step that keeps
    its dataset, with 256 MiB of parameters and momentum (`benchmarks/eqx_keep_first.py`):
    passed first, the compiled step needs 258 MiB instead of 514 on a TPU v5e at the same
    speed, and runs 2.5x faster on CPU (60 ms instead of 147 per step).

    ## Fix safety
    A donated buffer is deleted by the call, so the fix is **safe** only when
    autoopt proves nothing reads it afterwards; **unsafe** when an alias or a
    caller can only be ruled out for code autoopt cannot see (a public function of
    a library module, the caller's own parameter where its callers are not all known
    or not all let it go, a closure or a global, a value
    handed to code that may keep it, one stored in or read from a class or a module,
    one returned by code that may keep it too, such as a cache, pytree leaves not
    shown distinct); **no fix**
    when a proven alias is read later, the same buffer is passed twice, or one
    buffer fills two leaves of the donated value (XLA refuses to donate it twice).

    - every call site passes a plain name that the call's result rebinds:
      `analysis/core/jitted.py` (the call sites), `analysis/core/graph.py` (liveness)
    - or an attribute `self.x` the statement rebinds, in a class that code autoopt does
      not read cannot reach, whose every read of `self.x` keeps no reference and whose
      every stored value is new buffers: `analysis/facts/attributes.py`,
      `analysis/facts/self_attrs.py`; a read that reaches only a call keeping none of its
      arguments (`checkpoints.save_checkpoint` without an asynchronous manager or
      checkpointer, `jax.random.split`: `analysis/facts/unkept_arguments.py`) or the
      `TrainState.create`
      or `TrainState(...)` (flax's or a field subclass's: `analysis/facts/train_states.py`)
      whose record replaces `self.x` keeps none, and that record's fields read from
      `self.x` are its own: `analysis/facts/attribute_reads.py`; nor does a method of a
      helper object the class stores (`self.callback.log(self.model, self.state)`) whose
      body keeps nothing of that argument, handing its parameters only to the `apply`
      of a linen model whose code reaches no variable:
      `analysis/facts/unkept_parameters.py`, `analysis/facts/linen_outputs.py`; a stored
      value that may
      hold another attribute's buffers names it (`self.init_params`) unless that
      attribute is spent: new buffers, read only by methods that run before any step on
      the instance (while it is built, or before the first step statement of a step
      method its holders call first), only into the record replacing `self.x`, and
      named nowhere outside the class: `analysis/facts/attributes.py`,
      `analysis/facts/trainer_steps.py`; one that fills
      two leaves with one name (`params=p, ema_params=p`) gets no fix, asked first; a
      key unpacked from `jax.random.split` (`self.rng, sub = ...`) is a new buffer
    - code outside the class reads `trainer.x`, or copies or hands on the trainer, only
      where no step can run on that instance after it (a method run only then may keep
      `self.x`): `analysis/facts/trainer_steps.py`; the subclasses the module derives
      from the class (one base, no decorator, bound once) are read as its own methods
      and instances, and a class derived any other way leaves it open:
      `analysis/facts/class_family.py`
    - a library's `init` (optax, haiku, flax linen), an equinox layer or
      `TrainState.create` makes new buffers, none twice, and `TrainState(...)` holds the
      fields it is given (its `tx` such an optimizer or `None`): `analysis/facts/fresh.py`; a
      haiku function or linen module only with library initializers given constants
      (`init=lambda *_: w` twice ties two parameters; `self.variable(c, n, jnp.asarray,
      w)` holds `w`): `analysis/facts/initializers.py`, a module global only ever bound to
      such an initializer the call written in place: `analysis/facts/initializer_globals.py`;
      a linen module class built from anything (`Model(**hparams)`) only where no field
      can become a variable (each only sizes, shapes or switches what it computes):
      `analysis/facts/linen_fields.py`; or, for one building, where each field given a
      value is so, or given one of JAX's functions it only calls (`act_fn=nn.relu`) or a
      sealed class of the program it only builds (`block_class=ResNetBlock`):
      `analysis/facts/linen_builds.py`, `**self.hparams` read as the dict literal each
      building passes, which nothing changes: `analysis/facts/splatted_dicts.py`;
      one assembled from such modules (a list of layers in a field it calls, a subclass
      chain binding none of linen's names) or returned by a factory function, its lists
      left alone by every name and attribute that held it on the way:
      `analysis/facts/linen_trees.py`, `analysis/facts/module_custody.py`;
      `self.model` read while the trainer is built (in `__init__` or a method only it
      calls, `self` handed to nothing) holds what the class stores there, a parameter
      of `__init__` followed to every building of an instance:
      `analysis/facts/construction.py`
    - a function of the module, an equinox or nnx module class with its own `__init__`
      or a list filled in place gives distinct leaves only where each is a new array,
      none referenced twice (`z = jnp.zeros(n); return [z, z]` is refused, so is a
      cached function or `self.b = self.a`); an nnx layer the overlay lists draws new
      buffers from `rngs` (given no initializer); a value built of literals holds no
      buffer; an nnx class only where no other method writes through `self` (tied
      weights): `analysis/facts/aliases.py` (`Leaves`), `analysis/facts/constructors.py`;
      a name, a class's argument or a helper's that stands for a whole value only where
      that value's own leaves are distinct (`pair = [w, w]; state = (pair, 1)` is
      refused), and a caller's value handed in only where it is too
    - an equinox layer that holds its arguments (`BatchNorm`, `SpectralNorm(layer)`)
      holds new buffers and theirs; `eqx.nn.make_with_state(Model)(key)` splits the
      buffers of `Model(key)` between the model and its state, each as often, while
      `eqx.nn.State(model)` holds the model's own initial values (both passed to one
      call, a buffer would be donated twice): `analysis/facts/split_makers.py`
    - an nnx optimizer built from the model passed with it (`nnx.ModelAndOptimizer(model,
      optax.adam(lr))`) shares nothing with it but the model, which `nnx.jit` passes once,
      where its transformation's `init` makes new buffers and nothing else in the scope
      links the two: `analysis/facts/nnx_optimizers.py`
    - the function cannot be called from code autoopt does not see:
      `analysis/core/jitted.py` (`escapes`); a method jitted with a static `self` only
      through `obj.m(...)` on the one instance of its class, which is then an input of
      each call (what it may hold is not donated): `analysis/core/jitted_methods.py`
    - no other name or container that may hold the buffer is read after the call,
      and no code keeps a reference to it (code it is handed to or that made it, a
      class or module attribute, a function of any file of the project that stores
      it), nor to a value that may hold one object with it (a score holding the model
      and a batch from a loader joins neither to the other): `analysis/facts/aliases.py`;
      a function of the module it is given to keeps none of it where its body, and the
      code it runs (a method of a module class, a layer the overlay lists, an
      `nnx.Sequential` of such layers, lambdas and objects of module classes), stores
      nothing it was given: `analysis/facts/unkept_arguments.py`; an object of a class of
      the module called, or a method of its class called (`model(x)`, `model.keep()`),
      is handed to that code unless it is proven so: `analysis/facts/aliases.py`;
      `nnx.display` keeps none of a model built just before it that flax's code alone
      renders (no hook of the program's: `__repr__`, a field of a class of the
      program): `analysis/facts/rendering.py`
    - no buffer is passed twice or fills two leaves: `analysis/facts/aliases.py`
      (`repeated_leaf`); another argument of the call may hold one object with it, not
      merely a third value holding both (`Sharing.may_share`), and a name that only ever
      holds a number, a shape or a string holds none: `analysis/facts/bufferless.py`;
      where it may, the finding names the link not ruled out: the other argument is bound
      to the result of a call given the donated one (an `eqx.filter_jit` hands back its
      non-array leaves as the very objects, which may hold an argument's arrays), it holds
      what code autoopt cannot see keeps and the donated one was handed to such code
      (`model(x)` of a class whose `__call__` is not proven to keep nothing), or the call
      reads only a field of it (`diffusion.rates`), not proven to hold none of the donated
      buffers, naming the premise that failed: `analysis/facts/alias_reasons.py`
    - a field of an object of a plain class of the module (`diffusion.rates`, `diffusion =
      Diffusion(model, steps)`) holds none of the model's buffers where `__init__` alone
      stores it, once, as arrays or numbers made of new buffers, of its own methods'
      results and of arguments sharing nothing with the model (`jnp.asarray(x)` holds
      `x`), and nothing can change it after: the class derives from nothing, is
      undecorated, has no subclass, hook or descriptor, no other method writes through
      `self`, nothing reaches attributes by name, and the object is bound once and only
      read as `obj.field` or `obj.method(...)`, there or in a function of the module it is
      handed to; an `nnx.jit` call's object read after it holds the model only as the
      very module the call writes back (`self.model = model`) with every other field so
      proven: `analysis/facts/wrapper_fields.py`; the constructor keeps what it is given
      nowhere but in the object (its `__init__`, and its own methods it calls, store only
      into `self` and call only JAX, NumPy and builtins on data):
      `analysis/facts/unkept_arguments.py` (`construction_keeps_nothing`)
    - where no code reaches the scope's names but through what it hands out (no
      `globals()`, `sys.modules`, `inspect` or frames in the file's code or strings;
      comments aside), in a module that
      runs once (a script, a notebook; no project file importing it), or in a function
      for a value every name of which is the call's own (no parameter, global or
      keeper's: an earlier call's keepers hold none of it), sharing is read as of the
      call: only what may run
      before it (earlier, or in a loop with it) links values, so a batch from code
      autoopt cannot see holds none of the model's new buffers unless something that
      may share them reached that code first (the loader built with the model, a
      logger or a closure handed it, the model stored in a module), and a keeper
      reached only after the last call keeps none; a module that may hand out its own
      namespace lets code autoopt cannot see read any global at any time, so a global
      is unsafe to donate there (`from inspect import signature`, called plainly, hands
      out nothing, nor does `model.eval()` of a name proven to hold an nnx module, flax's
      method): `analysis/facts/escape.py`, `analysis/facts/reflection.py`
    - a value built from an expression that received the model holds it, and so does
      what is built from that value: a closure, or a generator, that a factory or a method
      makes, a `functools.partial`, and what calling any of them returns (a name bound
      to a value is a variable, though a nested function elsewhere has that name):
      `analysis/facts/aliases.py`
    - assigning `self.x` runs no code of the class: no class of its family binds `x` in
      its body (a property, a method, or any value but a literal, which may be a
      descriptor whose setter keeps the value): `analysis/facts/self_attrs.py`
    - a local reaches no code but through what its function hands out: no `locals()`,
      `vars()`, `eval` or `exec` in the function, no frame read in the module
      (`inspect`, `f_locals`, `sys._getframe`): `analysis/facts/escape.py`
      (`reflection.locals_escape`)
    - no nested or other function reads it (a module function every call of which, at
      the top level, comes before the name is rebound from the import it shadows, in no
      loop with that binding, reads the import: `analysis/facts/shadowed_imports.py`),
      and the first call donates no array of
      the caller's or from outside it: `analysis/core/graph.py`, `analysis/facts/aliases.py`;
      an array the calling function was given only where every call of that function is
      known (a module-level function of a script, never used as a value, its module's
      namespace never reached, no other project file importing it:
      `analysis/facts/known_callers.py`) and each passes a plain name dead after the call
      that no alias read later shares, proven again of that caller's own callers:
      `analysis/facts/donation.py`
    - the jit premises of a function AO101 jits: `analysis/facts/jit_plan.py`
    - an `nnx.jit` argument is an array or a name proven to hold an nnx module, which
      `nnx.jit` writes back: `analysis/facts/nnx_modules.py`; data made before the module
      was built holds none of its buffers: `analysis/facts/module_provenance.py`; an
      `eqx.filter_jit` mode donates only dead arguments: `analysis/facts/donation.py`; a
      loop's batch is new buffers every iteration: `analysis/facts/loop_batches.py`; an
      argument holds no array: `analysis/facts/no_arrays.py`; where one is only unproven
      the fix is unsafe
    - a donation is offered unless every value it donates is proven tiny at every call
      (`jnp.array(0.0)`, `jax.random.PRNGKey(0)` and its splits, an equinox module of this
      file whose fields the call sets to such values, an optax state of such parameters,
      and the step's output that replaces them where its every return is proven tiny
      given tiny arguments): `analysis/facts/tiny.py`, `LEAF_SHAPES_FROM` in
      `analysis/overlays/optax.py` and `analysis/overlays/equinox.py`
    - kept arguments passed first: the step's one decorator is its jit, every caller is in
      sight and every read of its name is a direct call (none from another module, as a
      value, through `functools.partial` or an attribute such as `.lower`), no kept
      parameter has a default, is keyword-only or is returned as it is, no call spreads
      `*args`, and arguments whose order of evaluation changes are names or literals, or
      a local name no call can rebind and an expression without `:=`:
      `analysis/plans/keep_first.py`, `analysis/facts/known_callers.py`
    """

    id = "AO201"
    name = "missing-donation"
    summary = "Jitted function whose input is dead after every call is not donated"
    goal = "memory"
    fixes = (
        "adds `donate_argnames` for jitted inputs that every call replaces with the output "
        "(`state = step(state, batch)`), after a liveness and alias check"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        for target in semantic(ctx).donation_targets():
            finding = self._finding(ctx, target)
            if finding is not None:
                yield finding

    def _finding(self, ctx: ModuleContext, target: DonationTarget) -> Finding | None:
        donate, blocked = semantic(ctx).donation_verdicts(target)
        if donate and target.transform == _FILTER_JIT:
            return self._mode_fix(ctx, target, donate, blocked)
        if donate:
            return self._fix(ctx, target, donate, blocked)
        if blocked:
            where = f"`{target.name}` could donate its input"
            message = f"{where}, but {blocked[0]}; donating it would delete a live buffer"
            return self.finding(ctx, _anchor(target), message, _NONE, target=target.name)
        return None

    def _fix(self, ctx, target: DonationTarget, donate, blocked: list[str]) -> Finding:
        names = [p for p, _, _ in donate]
        fixes = [f for _, f, _ in donate] + [target.fix]
        notes = [why for _, _, why in donate if why]
        escape = semantic(ctx).escapes(target.name)
        if escape:
            fixes.append(_UNSAFE)
            notes.append(f"{escape}: callers autoopt cannot see may read the donated input")
        fix = weakest(fixes)
        listed = ", ".join(f"`{n}`" for n in names)
        verb = "is" if len(names) == 1 else "are"
        where = f"{listed} {verb} dead after every call of `{target.name}`"
        worthless = _worthless(ctx, target, names, where)
        if worthless:
            return self.finding(ctx, _anchor(target), worthless, _NONE, target=target.name)
        replaced = "replaced by its output"
        if target.transform in overlays.UPDATES_MODULES:
            replaced += " (a module: written back in place)"
        message = (
            f"{listed} {'is' if len(names) == 1 else 'are'} dead after every call of "
            f"`{target.name}` and {replaced}: donate "
            f"{'it' if len(names) == 1 else 'them'} (`donate_argnames`) so XLA reuses the buffer"
        )
        if fix is _UNSAFE and notes:
            message += f"; unsafe: {notes[0]}"
        if blocked:
            message += f"; not donated: {blocked[0]}"
        edits = _edits(ctx, target, names)
        title = f"Donate {', '.join(names)}"
        return self.finding(
            ctx, _anchor(target), message, fix, edits, target=target.name, title=title
        )

    def _mode_fix(self, ctx, target: DonationTarget, donate, blocked: list[str]) -> Finding:
        """`eqx.filter_jit` donates by mode: `donate="all"` or `"all-except-first"`."""
        mode, donated, missing = semantic(ctx).donate_mode(target, donate)
        names = [p for p, _, _ in donate]
        listed = ", ".join(f"`{n}`" for n in names)
        where = (
            f"{listed} {'is' if len(names) == 1 else 'are'} dead after every call of "
            f"`{target.name}` and replaced by its output"
        )
        if mode is None:
            kept, moved = semantic(ctx).kept_arguments(target, donate)
            plan = _keep_first_plan(ctx, target, kept)
            if type(plan) is KeepFirst:
                return self._keep_first_fix(ctx, target, where, plan, moved, blocked)
            message = (
                f"{where}, but `eqx.filter_jit` donates the arrays of every argument "
                f'(`donate="all"`) or of all but the first, and {missing}'
            )
            message += f"; {_listed(kept)} cannot be passed first: {plan}"
            if blocked:
                message += f"; not donated: {blocked[0]}"
            return self.finding(ctx, _anchor(target), message, _NONE, target=target.name)
        fixes = [f for _, f, _ in donated] + [target.fix]
        notes = [why for _, _, why in donated if why]
        escape = semantic(ctx).escapes(target.name)
        if escape:
            fixes.append(_UNSAFE)
            notes.append(f"{escape}: callers autoopt cannot see may read the donated input")
        fix = weakest(fixes)
        params = target.function.params
        worthless = _worthless(ctx, target, params if mode == "all" else params[1:], where)
        if worthless:
            return self.finding(ctx, _anchor(target), worthless, _NONE, target=target.name)
        message = f'{where}: donate (`donate="{mode}"`) so XLA reuses the buffers'
        if fix is _UNSAFE and notes:
            message += f"; unsafe: {notes[0]}"
        if blocked:
            message += f"; not donated: {blocked[0]}"
        edits = [Replace(target.carrier, lambda n: _add_mode(ctx, n, mode))]
        title = f'Donate with donate="{mode}"'
        return self.finding(
            ctx, _anchor(target), message, fix, edits, target=target.name, title=title
        )

    def _keep_first_fix(
        self,
        ctx: ModuleContext,
        target: DonationTarget,
        where: str,
        plan: KeepFirst,
        donated: list[Donation],
        blocked: list[str],
    ) -> Finding:
        """Pass the kept arguments first (packed when several) and donate the rest."""
        rest = [p for p in target.function.params if p not in plan.kept]
        worthless = _worthless(ctx, target, rest, where)
        if worthless:
            return self.finding(ctx, _anchor(target), worthless, _NONE, target=target.name)
        fix = weakest([f for _, f, _ in donated] + [target.fix])
        notes = [why for _, f, why in donated if why and f is _UNSAFE]
        kept = _listed(list(plan.kept))
        how = "passing them first in a tuple" if plan.pack else "passing it first"
        message = (
            f"{where}: keep {kept} from donation by {how} and donate the rest "
            '(`donate="all-except-first"`) so XLA reuses the buffers'
        )
        if fix is _UNSAFE and notes:
            message += f"; unsafe: {notes[0]}"
        if blocked:
            message += f"; not donated: {blocked[0]}"
        positional = keep_first.positional(target.function)
        edits: list[Edit] = [Replace(target.carrier, lambda n: keep_first_def(ctx, n, plan))]
        edits += [Replace(c, lambda n: keep_first_call(n, positional, plan)) for c in plan.calls]
        title = f"Pass {', '.join(plan.kept)} first and donate the rest"
        return self.finding(
            ctx, _anchor(target), message, fix, edits, target=target.name, title=title
        )


def _keep_first_plan(
    ctx: ModuleContext, target: DonationTarget, kept: list[str]
) -> KeepFirst | str:
    """The plan passing `kept` first (`plans/keep_first.py`), or why there is none."""
    if not target.is_decorated:
        return f"`{target.name}` is jitted by a call, not a decorator"
    return keep_first.keep_first(ctx, target.function, kept)


def _worthless(ctx: ModuleContext, target: DonationTarget, donated: list[str], where: str) -> str:
    """Why donating `donated` saves nothing, where every value a call passes them is
    proven tiny (`facts/tiny.py`); "" otherwise."""
    if not semantic(ctx).all_tiny(target.function, donated):
        return ""
    return (
        f"{where}, but donating {_listed(donated)} saves nothing: every array leaf is a 0-d "
        "array or a PRNG key"
    )


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _add_mode(ctx: ModuleContext, node: cst.CSTNode, mode: str) -> cst.CSTNode:
    """The decorated function or the wrapper call, its `eqx.filter_jit` given `mode`."""
    if type(node) is not cst.FunctionDef:
        return with_donate_mode(ctx, node, mode)  # type: ignore[arg-type]
    index = _jit_decorator(ctx, node, _FILTER_JIT)
    assert index is not None
    decorators = list(node.decorators)
    new = with_donate_mode(ctx, decorators[index].decorator, mode)
    decorators[index] = decorators[index].with_changes(decorator=new)
    return node.with_changes(decorators=decorators)


def _anchor(target: DonationTarget) -> cst.CSTNode:
    """The function's name where it is (or AO101 makes it) decorated, else the wrapper."""
    decorated = target.plan is not None or target.is_decorated
    return target.function.node.name if decorated else target.carrier


def _edits(ctx: ModuleContext, target: DonationTarget, names: list[str]) -> list[Edit]:
    """Add `names` to the jit's `donate_argnames`; a function AO101 jits gets AO101's
    decorator (and its imports) first, unless AO101's own fix already added it."""
    imports = ctx.ref("functools.partial")[1]
    if not target.is_decorated:
        return [Replace(target.carrier, lambda node: with_donation(ctx, node, names)[0])]
    ao101, more = (None, ()) if target.plan is None else _ao101(ctx, list(target.plan.static))

    def transform(node: cst.CSTNode) -> cst.CSTNode:
        assert type(node) is cst.FunctionDef
        if ao101 is not None and _jit_decorator(ctx, node, target.transform) is None:
            node = ao101(node)  # type: ignore[assignment]
        decorators = list(node.decorators)
        index = _jit_decorator(ctx, node, target.transform)
        assert index is not None
        new, _ = with_donation(ctx, decorators[index].decorator, names)
        decorators[index] = decorators[index].with_changes(decorator=new)
        return node.with_changes(decorators=decorators)

    return [Replace(target.carrier, transform), *imports, *more]


def _ao101(ctx: ModuleContext, static: list[str]) -> tuple[NodeTransform, tuple[Edit, ...]]:
    """AO101's decorator transform for a function with these static arguments, and the
    imports it needs."""
    text, imports = jit_decorator(ctx, list(static))
    return add_decorator(ctx, text), imports


def _jit_decorator(ctx: ModuleContext, node: cst.FunctionDef, jit: str) -> int | None:
    """The index of the decorator that jits `node` with `jit` (`jax.jit`, `nnx.jit`,
    `eqx.filter_jit`), as written or as AO101 writes it."""
    for i, decorator in enumerate(node.decorators):
        expr = decorator.decorator
        if is_spelling(ctx, expr, jit):
            return i
        if type(expr) is cst.Call:
            head = expr.args[0].value if expr.args else None
            called = is_spelling(ctx, expr.func, jit)
            partial = is_spelling(ctx, expr.func, "functools.partial")
            if called or (partial and head is not None and is_spelling(ctx, head, jit)):
                return i
    return None
