"""Handwritten informed search (greedy, A*, IDA*)."""
