"""Renderers: findings to text, JSON, SARIF, GitHub annotations."""
