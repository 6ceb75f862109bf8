"""The result schema's single definitions: the typed row matches the column list, the status enum is
the text stored and written, and every status has its words on the pages."""

from __future__ import annotations

import types
import typing

from engine.results.schema import COLUMN_NAMES, COLUMN_TYPES, ResultRow
from engine.results.status import ACTIVE_STATUSES, FINAL_STATUSES, STATUSES, RunStatus
from ui import status as status_words


def test_result_row_has_exactly_the_schema_columns_in_order():
    assert tuple(ResultRow.__annotations__) == COLUMN_NAMES


def test_result_row_value_types_match_the_schema_types():
    hints = typing.get_type_hints(ResultRow)
    for name, typ in COLUMN_TYPES.items():
        hint = hints[name]
        allowed = set(typing.get_args(hint)) if isinstance(hint, types.UnionType) else {hint}
        assert allowed - {type(None)} == {typ}, (name, hint)


def test_statuses_are_their_stored_text_and_split_into_active_and_final():
    assert [str(s) for s in STATUSES] == ["queued", "running", "ok", "failed", "cancelled", "timeout", "interrupted"]
    assert RunStatus.OK == "ok" and "running" in ACTIVE_STATUSES
    assert set(ACTIVE_STATUSES) | set(FINAL_STATUSES) == set(RunStatus)
    assert not set(ACTIVE_STATUSES) & set(FINAL_STATUSES)


def test_every_status_has_words_on_the_home_page_and_every_ended_one_on_the_result_card():
    assert set(status_words.LIST_TEXT) == set(RunStatus)
    assert set(status_words.RESULT_TEXT) == set(FINAL_STATUSES)
    assert set(status_words.WHY) == set(FINAL_STATUSES) - {RunStatus.OK}
    assert status_words.list_text("running") == "running…" and status_words.list_text("odd") == "odd"
