"""Moved to engine.imports.imported_rates (issue 22 item 7). This alias remains only for ui/compare_imported.py,
which another engineer owns; once it imports engine.imports.imported_rates, delete this file and its entry in
tests/test_architecture.py (ALIASES)."""

from engine.imports.imported_rates import Band, rates_of_rows, within_noise

__all__ = ["Band", "rates_of_rows", "within_noise"]
