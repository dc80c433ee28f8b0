"""Reference solvers: thin adapters over libraries and textbook algorithms."""
