"""How "N× faster" is decided: every row as a rate of work (likeforlike), the one same-workload rule and
the like-for-like grade (grade), the answer sentence per single device (answer), your store's runs first
(evidence.rates), a measured anchor × one source's ratio (scaled), estimates where nothing was measured (estimate),
every device for one run (which), prices and cost (cost, prices), efficiency (efficiency) and the Compare page's
tables (tables). Published data and its loading stay in engine.reference."""
