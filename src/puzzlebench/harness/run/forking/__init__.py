"""The fork server: one lean process per batch of runs that forks each run's process."""
