"""Rewrite plans: for each rewrite form (`lax.fori_loop`, `lax.scan`, a step function,
the whole loop, a deferred join, a preallocation, a splice, a vmapped body, a replayed
print), a function from the code to a plan, or to the premise that failed, as text.
`rewrite/<form>.py` builds the code of each plan; `carry` and `carry_types` prove that a
loop carry keeps its shape and dtype."""
