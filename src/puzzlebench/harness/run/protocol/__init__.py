"""What crosses the pipes between the harness and a run: messages, their fields, a proposal."""
