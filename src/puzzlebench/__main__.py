"""``python -m puzzlebench`` runs the command line (as the ``puzzlebench`` script does)."""

from puzzlebench.console import main

main()
