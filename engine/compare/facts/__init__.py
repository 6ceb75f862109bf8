"""The facts every stage of an answer reads, never recomputes: a row as a rate of work (likeforlike), the one
same-workload rule, precision classes, model kinds and device units (workload), a row as one device (single),
a device's silicon, peaks and bandwidth (silicon), the plateau rule of a pipeline-bound source (plateau), a
model's FLOPs and per-op costs (model_flops, model_costs), the like-for-like grade (grade) and the shapes rows
travel in (compared, which_rows)."""
