"""Facts about scikit-learn that the value model relies on: what its data splits give.

Qualified names as `ImportMap.qualify` spells them. A name missing here is unknown.
"""

from __future__ import annotations

#: Functions that, given JAX arrays by position (and options by keyword), return a list
#: of two arrays for each (its train and test rows, in that order), each a new JAX array
#: that rows taken from the input fill (`X[indices]`): none shares the input's buffer.
ARRAY_SPLITS = frozenset({"sklearn.model_selection.train_test_split"})
