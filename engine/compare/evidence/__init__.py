"""Stage 1 of an answer, the evidence: the run, your store's runs and the reference rows as rates, made once and
split by the one same-workload rule (rates); published and pack rows flagged where a source is pipeline-bound
(saturation); the published multi-device scaling rows (scaling_refs)."""
