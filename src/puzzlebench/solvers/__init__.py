"""The solver vocabulary: the contract, the iterative loop, specs, the registry and
its index, loading plugins and external programs, solver references, and the compiled helpers
solvers share (the queens line keys, the compiled clock)."""
