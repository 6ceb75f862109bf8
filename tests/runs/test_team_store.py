"""A team's store (issue 14): machines push to and pull from one PostgreSQL database, a worker writes to
it directly while a dashboard elsewhere watches, a read-only role and demo mode never write, a killed
writer leaves nothing half-written, and the password never shows."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, last_json, run_cli, run_row
from streamlit.testing.v1 import AppTest

from engine.runs import jobs
from engine.runs.store import Store, StoreError


def _machine(tmp_path, name: str, runs: range) -> dict[str, str]:
    """A 'machine': its own SQLite store holding finished runs with per-step series."""
    db = tmp_path / name / "accelbench.db"
    store = Store(db)
    for i in runs:
        row = run_row(i)
        store.insert_run(row)
        store.add_series(row["run_id"], "step", [{"step": s, "step_time_ms": 2.0 + s} for s in range(3)])
    return {"ACCELBENCH_DB": str(db)}


def test_two_machines_push_overlapping_runs_twice_and_each_run_is_stored_once(tmp_path, pg_server):
    team = pg_server.new_database()
    laptop = _machine(tmp_path, "laptop", range(0, 6))
    colab = _machine(tmp_path, "colab", range(4, 10))  # runs 4 and 5 are on both machines
    for env in (laptop, colab, laptop, colab):
        done = run_cli("results", "push", "--to", team, "--json", env=env)
        assert done.returncode == 0, done.stderr
    assert last_json(done.stdout) == {"added": 0, "present": 6, "still_active": []}
    store = Store(team)
    assert store.count_runs() == 10 and len(store.run_ids()) == 10
    for i in range(10):
        run_id = run_row(i)["run_id"]
        assert len(store.get_series(run_id, "step")) == 3, run_id
    assert "pw-" not in done.stdout + done.stderr
    pg_server.drop_databases()


def test_pull_copies_a_filtered_slice_and_push_labels_what_it_copies(tmp_path, pg_server):
    team = pg_server.new_database()
    laptop = _machine(tmp_path, "laptop", range(0, 3))
    done = run_cli("results", "push", "--to", team, "--label", "laptop", env=laptop)
    assert done.returncode == 0 and "3 run(s) copied" in done.stdout, done.stderr
    assert {r["label"] for r in Store(team).list_runs()} == {"laptop"}
    assert {r["label"] for r in Store(laptop["ACCELBENCH_DB"]).list_runs()} == {None}  # local rows unchanged
    fresh = {"ACCELBENCH_DB": str(tmp_path / "fresh.db")}
    done = run_cli("results", "pull", "--from", team, "--label", "laptop", "--json", env=fresh)
    assert last_json(done.stdout)["added"] == 3
    assert run_cli("results", "pull", "--from", team, "--label", "nobody", "--json", env=fresh).returncode == 0
    bad = run_cli("results", "push", "--to", team, "--label", "a\nb", env=laptop)
    assert bad.returncode == 2 and "--label must be printable" in bad.stderr
    pg_server.drop_databases()


def test_a_wrong_password_is_one_line_that_never_shows_the_password(pg_server, tmp_path):
    url = pg_server.url("postgres", password="not-the-password-123")
    done = run_cli("results", "list", env={"ACCELBENCH_DB": url})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "refused the login" in done.stderr and "PGPASSWORD" in done.stderr
    assert "not-the-password-123" not in done.stderr + done.stdout
    closed = run_cli("results", "list", env={"ACCELBENCH_DB": "postgresql://u@127.0.0.1:1/x"})
    assert closed.returncode == 2 and "cannot reach the team database" in closed.stderr


def test_a_read_only_role_and_demo_mode_never_write(pg_server, monkeypatch):
    url = pg_server.new_database()
    Store(url).insert_run(run_row(1))
    db = url.rsplit("/", 1)[1]
    pg_server.admin("CREATE ROLE reader LOGIN PASSWORD 'reader-pw'")
    try:
        pg_server.admin(f"GRANT CONNECT ON DATABASE {db} TO reader")
        with __import__("psycopg").connect(url, autocommit=True) as conn:
            conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
        reader = Store(pg_server.url(db, user="reader", password="reader-pw"))
        assert reader.read_only and [r["run_id"] for r in reader.list_runs()] == [run_row(1)["run_id"]]
        with pytest.raises(StoreError, match="read-only for this user"):
            reader.insert_run(run_row(2))
        monkeypatch.setenv("ACCELBENCH_DEMO", "1")
        demo = Store(url)  # the admin's URL, but a public demo: still read-only
        assert demo.read_only and jobs.refresh(demo) == []
        with pytest.raises(StoreError, match="read-only"):
            demo.insert_run(run_row(3))
        assert Store(url).count_runs() == 1
    finally:
        pg_server.drop_databases()
        pg_server.admin("DROP ROLE IF EXISTS reader")


_HALF_WRITE = """
import sys, time
sys.path.insert(0, {root!r})
from sqlalchemy import insert
from engine.runs.store import Store
from engine.runs.tables import runs, series
store = Store({url!r})
with store._write() as conn:
    conn.execute(insert(runs).values(run_id="half", status="ok", kind="train"))
    conn.execute(insert(series), [dict(run_id="half", kind="step", idx=i, payload="{{}}") for i in range(50)])
    print("inside", flush=True)
    time.sleep(60)
"""


def test_a_writer_killed_mid_transaction_leaves_no_partial_row(new_db):
    url = new_db()
    Store(url).insert_run(run_row(1))
    proc = subprocess.Popen(
        [sys.executable, "-c", _HALF_WRITE.format(root=str(ROOT), url=url)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "inside"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        proc.kill()
    store = Store(url)
    assert store.get_run("half") is None and store.get_series("half", "step") == []
    store.insert_run(run_row(2))  # the lock died with the writer: the store takes writes again
    assert store.count_runs() == 2


def test_a_job_of_another_machine_is_not_judged_by_a_local_pid(new_db):
    store = Store(new_db())
    store.insert_run(run_row(1, status="running"))
    run_id = run_row(1)["run_id"]
    store.set_job(run_id, 999_999, 1.0, time.time() + 600, "/elsewhere", {"timeout_s": 600}, machine="other-host")
    assert jobs.refresh(store) == [] and store.get_run(run_id)["status"] == "running"
    store.set_job(run_id, 999_999, 1.0, time.time() - 3600, "/elsewhere", {"timeout_s": 600}, machine="other-host")
    assert jobs.refresh(store) == [run_id]
    assert "stopped reporting" in store.get_run(run_id)["error"]


@pytest.mark.timeout(300)
def test_a_worker_writes_to_the_team_store_and_a_dashboard_elsewhere_shows_it(pg_server, tmp_path, monkeypatch):
    team = pg_server.new_database()
    worker_env = {"ACCELBENCH_DB": team, "ACCELBENCH_RUNS_DIR": str(tmp_path / "vm-runs")}
    done = run_cli(
        "run",
        "--bench",
        "matmul",
        "--m",
        "64",
        "--n",
        "64",
        "--k",
        "64",
        "--repeats",
        "3",
        "--warmup",
        "1",
        "--label",
        "cloud-vm",
        "--json",
        env=worker_env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    row = last_json(done.stdout)
    assert "pw-" not in done.stdout + done.stderr
    assert not any("pw-" in p.read_text(errors="ignore") for p in (tmp_path / "vm-runs").rglob("*") if p.is_file())
    store = Store(team)
    stored = store.get_run(row["run_id"])
    assert stored["status"] == "ok" and stored["label"] == "cloud-vm" and stored["gflops"] > 0
    assert store.get_series(row["run_id"], "repeat"), "the timing series travelled with the run"
    events = store.get_progress(row["run_id"])
    assert {e["event"] for e in events} >= {"phase"} and events[-1]["name"] == "done"
    # a dashboard on another machine: same team URL, no run folder of that run here
    monkeypatch.setenv("ACCELBENCH_DB", team)
    monkeypatch.setenv("ACCELBENCH_RUNS_DIR", str(tmp_path / "laptop-runs"))
    assert jobs.progress_of(row["run_id"], store) == events
    at = AppTest.from_file(str(ROOT / "pages" / "home.py"), default_timeout=60).run()
    assert not at.exception, at.exception
    shown = json.dumps([str(getattr(e, "value", "")) for e in at.markdown] + [str(df.value) for df in at.dataframe])
    assert row["run_id"] in shown or row["run_id"][:15] in shown
    os.environ.pop("ACCELBENCH_RUNS_DIR", None)
    pg_server.drop_databases()


@pytest.mark.parametrize("page", ["home", "run", "compare", "history", "references", "devices"])
def test_every_page_works_on_a_team_store(pg_server, monkeypatch, page):
    url = pg_server.new_database()
    store = Store(url)
    for i in range(3):
        store.insert_run(run_row(i, label="team"))
    monkeypatch.setenv("ACCELBENCH_DB", url)
    monkeypatch.delenv("ACCELBENCH_DEMO", raising=False)
    at = AppTest.from_file(str(ROOT / "pages" / f"{page}.py"), default_timeout=60).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    pg_server.drop_databases()


def test_a_public_demo_of_a_team_store_turns_runs_off(pg_server, monkeypatch):
    url = pg_server.new_database()
    Store(url).insert_run(run_row(1))
    monkeypatch.setenv("ACCELBENCH_DB", url)
    monkeypatch.setenv("ACCELBENCH_DEMO", "1")
    at = AppTest.from_file(str(ROOT / "pages" / "run.py"), default_timeout=60).run()
    assert not at.exception, at.exception
    assert any("never writes to it" in i.value for i in at.info), [i.value for i in at.info]
    assert at.button(key="run_launch").disabled
    pg_server.drop_databases()


def test_home_of_a_public_demo_of_a_team_store_offers_no_run_buttons(pg_server, monkeypatch):
    url = pg_server.new_database()
    Store(url).insert_run(run_row(1))
    monkeypatch.setenv("ACCELBENCH_DB", url)
    monkeypatch.setenv("ACCELBENCH_DEMO", "1")
    at = AppTest.from_file(str(ROOT / "pages" / "home.py"), default_timeout=60).run()
    assert not at.exception, at.exception
    assert at.button(key="home_run_quick_matmul").disabled
    assert any("never writes to it" in i.value for i in at.info)
    pg_server.drop_databases()
