"""The run's own side, inside its process: load the solver, warm it, call it, report."""
