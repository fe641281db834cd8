"""The value model: the lattice of abstract values (`lattice`), the abstract
interpretation that computes them (`model`), what library calls give on the lattice
(`library`), and the facts about values it rests on: the module's pytree classes
(`fields`), containers changed in place (`mutable`), shapes and dtypes (`shapes`),
Python integers (`ints`), single arrays (`arrays`) and where a value lives
(`placement`)."""
