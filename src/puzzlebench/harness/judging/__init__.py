"""The judge: the one pipeline from a run's report to its verdict (``pipeline``), its rules on one
proposal (``rules``), proofs of infeasibility (``proofs``, ``proof_runs``), the checks across
runs (``cross_run``) and the record it makes (``run_record``)."""
