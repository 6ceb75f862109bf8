"""A throwaway PostgreSQL server for the tests: `initdb` + `pg_ctl` in a temporary folder, on a free
local port, password-checked over TCP (so the login-failure and read-only-role paths are real).

scripts/test.sh installs Debian's `postgresql` and sets ACCELBENCH_REQUIRE_POSTGRES=1, so on CI a
missing server fails the run instead of skipping the PostgreSQL half of the store tests.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "accelbench_admin"
PASSWORD = "pw-" + secrets.token_hex(6)  # a test-only secret the tests check never appears in output


def find_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(str(p) for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One cluster for the whole test session; `new_database()` gives each test its own database."""

    def __init__(self) -> None:
        # its own folder right under /tmp: pytest's temporary folders are private to root, and the
        # server (run as `postgres` when the tests run as root) must reach its data and socket
        self.base = Path(tempfile.mkdtemp(prefix="accelbench-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        # initdb refuses to run as root: run the server as Debian's `postgres` user then
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.made: list[str] = []

    def _run(self, *cmd: str) -> None:
        done = subprocess.run([*self.as_user, *cmd], capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{cmd[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> PgServer:
        pwfile = self.base / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.as_user:
            shutil.chown(self.base, "postgres")
            shutil.chown(pwfile, "postgres")
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        assert initdb and pg_ctl
        self._run(initdb, "-D", str(self.data), "-U", SUPERUSER, f"--pwfile={pwfile}", "-E", "UTF8",
                  "--auth-host=scram-sha-256", "--auth-local=trust", "--no-sync")
        opts = (f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(pg_ctl, "-D", str(self.data), "-o", opts, "-l", str(self.base / "log"), "-w", "start")
        return self

    def stop(self) -> None:
        pg_ctl = find_bin("pg_ctl")
        if pg_ctl:
            subprocess.run([*self.as_user, pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"],
                           capture_output=True, timeout=60)
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = SUPERUSER, password: str | None = PASSWORD) -> str:
        auth = f"{user}:{password}" if password else user
        return f"postgresql://{auth}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        """Run one statement as the superuser, outside a transaction (CREATE/DROP DATABASE need that)."""
        import psycopg

        with psycopg.connect(self.url().replace("postgresql://", "postgresql://", 1), autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def new_database(self) -> str:
        name = "t_" + secrets.token_hex(6)
        self.admin(f"CREATE DATABASE {name}")
        self.made.append(name)
        return self.url(name)

    def drop_databases(self) -> None:
        from engine.runs.sql_engine import dispose_engines

        dispose_engines()
        for name in self.made:
            self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.made.clear()
