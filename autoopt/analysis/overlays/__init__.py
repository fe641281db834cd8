"""Library knowledge as data: one module per library, the facts the analysis needs
about its API (what a call returns, whether it is pure, which transforms it is).
Anything a table does not list is unknown. The analysis never imports these libraries."""
