"""Rule kinds: the closed set of Python logics a rule pack file can select with `extends:`."""
