"""The record vocabulary: outcomes and the run record, the anytime trace (its sink, its
compiled points, its check) and a study's pre-registered claims."""
