"""The foundation every analysis stands on: walking LibCST trees, the names a module
imports, expressions and statement blocks, the dataflow graph, the module context that
caches analyses per module, positions of nodes, suppression comments, lookups of other
files of the same project, and how code runs: which callables are jitted (`jitted`) and
which scopes run traced or eagerly (`execution`)."""
