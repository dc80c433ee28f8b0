"""``python -m puzzlebench`` runs the command line."""

from puzzlebench.cli import main

main()
