"""Stage 2, one scale: the measured anchors on one stack at the run's precision class (one_scale) and each device
one source measured beside an anchor as anchor × that source's ratio (scaled)."""
