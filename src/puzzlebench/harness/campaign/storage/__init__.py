"""The store: one SQLite file of sealed rows, its modes, its DataFrame and its exports."""
