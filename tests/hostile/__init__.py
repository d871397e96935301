"""Hostile inputs and rule-pack safety (issue 6): every bad input is one clean line, exit 2."""
