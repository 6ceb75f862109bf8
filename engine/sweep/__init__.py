"""Sweeps (issue 21): a matrix of ordinary runs — models × datasets × batch sizes × precisions × backends
× devices (× processes, `--processes 1,2,4`: issue 30) — validated cell by cell before anything starts, then
run one cell at a time on this machine (`local`) or as Ray tasks on a cluster (`ray_dispatch`), every cell a
stored run tagged with the sweep id; and the largest batch that fits (`maxbatch`). Ray is imported only by
`ray_dispatch` and `ray_task`.

  matrix.py        the axes, read from flags or a TOML/YAML file, expanded into cells
  validate.py      every cell checked before anything starts (errors, or skipped with reasons)
  plan.py          a sweep id and one `queued` row per cell in the store
  dispatch.py      what a dispatcher does (check a cell, run planned cells, cancel), and a planned cell
  sweep_run.py     a sweep from cells to stored runs: check all, plan all, dispatch
  runner.py        one stored cell run to its end on the machine that runs it (worker subprocess)
  local.py         cells one after another on this machine
  ray_dispatch.py  cells as Ray tasks asking for the device they need; cancel; lost nodes
  ray_task.py      what a Ray task runs on its node
  maxbatch.py      doubling then bisecting the batch size, each attempt a fresh worker
  status.py        a sweep's rows, cancelling a sweep
  summary.py       the grid, heatmap, best cell per machine and batch curve (pure, for the Sweep page)
  background.py    a max-batch search started from the Run page, as its own process
"""
