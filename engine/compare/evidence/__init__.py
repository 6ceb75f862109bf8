"""Stage 1 of an answer, the evidence: your store's runs (store_rows), published and pack rows flagged where a
source is pipeline-bound (saturation), and the published multi-device scaling rows (scaling_refs)."""
