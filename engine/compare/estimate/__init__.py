"""Stage 3, estimates where nothing was measured: the step model of FLOPs and bytes moved (step_model, fitted in
step_fit, capped by step_floor), the estimate from an anchor (estimate, its evidence as points), TPU chips from
TPU figures (tpu_chain, tpu_family), its checks (estimate_check, silicon_check) and each row's error case."""
