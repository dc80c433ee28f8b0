"""Handwritten evolutionary search (genetic algorithms)."""
