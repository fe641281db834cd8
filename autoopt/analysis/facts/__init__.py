"""The shared authorities rules ask: purity, function summaries, tracing facts,
argument kinds at call sites, aliases and donation, loop invariance and a loop's
variables, AO101's jit plan, and whether a module reaches jax or runs its tests in
several processes. Each module proves its facts; an unproven premise is the text of
the one that fails."""
