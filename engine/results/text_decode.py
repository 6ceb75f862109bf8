"""Text of a results file in any common encoding — AccelBench's own exports are told apart from other
tools' files (engine.results.history_files) and those files are read (engine.imports) with the same
rule. Pure Python.
"""

from __future__ import annotations


def decode_any(data: bytes | str) -> tuple[str, str]:
    """(text, encoding name): UTF-8 with or without BOM, UTF-16 (BOM or NUL pattern), else Latin-1/cp1252.
    Line ends become \\n (CRLF and bare CR too)."""
    if isinstance(data, str):
        text, name = data.removeprefix("\ufeff"), "text"
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text, name = data.decode("utf-16"), "UTF-16"
    elif len(data) > 3 and data[1:8:2].count(0) >= 3 and data[0] != 0:
        text, name = data.decode("utf-16-le", errors="replace"), "UTF-16 LE"
    elif len(data) > 3 and data[0:8:2].count(0) >= 3:
        text, name = data.decode("utf-16-be", errors="replace"), "UTF-16 BE"
    else:
        try:
            text, name = data.decode("utf-8-sig"), "UTF-8 (BOM)" if data.startswith(b"\xef\xbb\xbf") else "UTF-8"
        except UnicodeDecodeError:
            try:
                text, name = data.decode("cp1252"), "Windows-1252"
            except UnicodeDecodeError:
                text, name = data.decode("latin-1"), "Latin-1"
    return text.replace("\r\n", "\n").replace("\r", "\n"), name
