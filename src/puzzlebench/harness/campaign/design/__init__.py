"""Study files and their grids: schema, values, claims (and their revisions), tuning."""
