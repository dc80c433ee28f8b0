"""Handwritten local search (hill climbing, min-conflicts)."""
