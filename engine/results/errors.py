"""The one error every results reader raises: a refused file, naming its first bad row and column."""

from __future__ import annotations


class CsvError(ValueError):
    """A refused CSV. `row` is the 1-based line (header = 1), `column` the column name (or "")."""

    def __init__(self, message: str, row: int = 0, column: str = ""):
        self.row, self.column, self.reason = row, column, message
        where = (
            f"row {row}" + (f", column {column!r}" if column else "")
            if row
            else (f"column {column!r}" if column else "")
        )
        super().__init__(f"{where}: {message}" if where else message)
