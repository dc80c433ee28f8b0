"""Reference solvers: thin adapters over libraries and textbook algorithms.

A plugin package like any user's: its solvers reach the registry only through the
``puzzlebench.solvers`` entry points of the project's ``pyproject.toml``, and its MiniZinc
model resolver through the ``puzzlebench.references`` entry points; the core never imports it.
"""
