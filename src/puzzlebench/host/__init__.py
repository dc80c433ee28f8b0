"""What the machine gives a process: where rebuildable files go and how wide the terminal is."""
