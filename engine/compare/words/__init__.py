"""Stage 5, the words: the answer's sentence (sentence), each device against its host's input pipeline
(input_cap), "Which device?" as text and JSON (which_text), the scaling notes (scaling_text), the Compare page's
tables (tables) and the TPU efficiency claim checked (tpu_claim)."""
