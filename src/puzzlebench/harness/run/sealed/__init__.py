"""A sealed run's walls: Linux namespaces, the file system it sees, its PID namespace and
cgroup, and the system calls behind them."""
