"""Load a problem package into a running judge and submit every file of its ``submissions/<verdict>/``
folders over the HTTP API, then compare each verdict with its folder's.

Usage (from the repository)::

    .venv/bin/python tools/api_verdicts.py PACKAGE [--slot 61] [--timeout 600]

A judge of its own is started for the run: a fresh SQLite database, ``judge serve --workers 0`` on a
free port and one ``judge worker`` in sandbox slot ``--slot`` (plus ``JUDGE_TEST_SLOT_OFFSET``), all
in a temporary folder. The package is zipped and sent as a teacher's upload (``POST
/api/v1/problems``); a package without a time limit gets it derived from its accepted submissions
there, in slot ``--slot`` + 1 (``JUDGE_TIME_LIMIT_SLOT``). Each submission file is then posted to
``/api/v1/submissions`` and its verdict read back. A folder's verdict is matched as ``judge problem
verify`` matches it (``judge.verify.submissions``): ``accepted`` wants AC with the full score,
``partially_accepted`` AC with less, ``run_time_error`` RTE (or MLE). A submission in a language
the judge does not have, or of several files (the API takes one), is counted as not submitted.
Exit code 0 when every submitted file matched.
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

ADMIN_PASSWORD = "api-verdicts-admin"  # a throw-away judge's only account, gone with its folder
POLL_S = 0.5


@dataclass
class ApiOutcome:
    """One package through the API: ``matched`` of ``submitted`` files got their folder's verdict;
    ``skipped`` files were not submitted (no language of this judge); ``mismatches`` says which
    did not match and what they got; ``error`` is set when the package could not be loaded."""

    matched: int = 0
    submitted: int = 0
    skipped: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    error: str = ""

    def summary(self) -> str:
        """One line: ``12/12 match``, with the files not submitted, or the load error."""
        if self.error:
            return f"not loaded: {self.error}"
        text = f"{self.matched}/{self.submitted} match"
        return text + (f", {len(self.skipped)} not submitted" if self.skipped else "")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def package_zip(package: Path) -> bytes:
    """The package folder as a zip with one top folder named like the package (its problem id)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(package.rglob("*")):
            if path.is_file():
                archive.write(path, f"{package.name}/{path.relative_to(package).as_posix()}")
    return buffer.getvalue()


class Judge:
    """A throw-away judge (API and one worker) in folder ``home``, its worker in sandbox ``slot``."""

    def __init__(self, home: Path, slot: int) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        (home / "problems").mkdir(parents=True, exist_ok=True)
        self.env = os.environ | {
            "JUDGE_DATABASE_URL": f"sqlite:///{home / 'judge.db'}",
            "JUDGE_PROBLEMS_DIR": str(home / "problems"),
            "JUDGE_WORK_DIR": str(home / "work"),
            "JUDGE_SUBMIT_INTERVAL_S": "0",
            "JUDGE_TIME_LIMIT_SLOT": str(slot + 1),
        }
        self.slot = slot
        self.log = (home / "judge.log").open("w")
        self.processes: list[subprocess.Popen] = []

    def _cli(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "judge", *args], env=self.env, check=True, stdout=self.log, stderr=self.log
        )

    def __enter__(self) -> Judge:
        self._cli("db", "upgrade")
        self._cli("user", "add", "admin", "--role", "admin", "--password", ADMIN_PASSWORD)
        for args in (
            ["serve", "--port", str(self.port), "--workers", "0", "--no-load"],
            ["worker", "--slot", str(self.slot)],
        ):
            self.processes.append(
                subprocess.Popen([sys.executable, "-m", "judge", *args], env=self.env, stdout=self.log, stderr=self.log)
            )
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.log.close()


def _reachable(folder: Path) -> Path:
    """``folder``, made searchable by the sandbox's unprivileged uid (its work folders are inside)."""
    folder.chmod(0o711)
    return folder


def _expected(folder: str) -> str | None:
    from judge.verify.layout import VERDICT_FOLDERS

    return VERDICT_FOLDERS.get(folder)


def _as_expected(folder: str, verdict: str, score: float | None, max_score: float | None) -> bool:
    from judge.verify.submissions import verdict_matches

    expected = _expected(folder)
    if expected is None or not verdict_matches(expected, verdict):
        return False
    full = max_score is None or (score is not None and score >= max_score - 1e-9)
    if folder == "partially_accepted":
        return max_score is not None and not full
    return folder != "accepted" or full


def api_verdicts(package: Path, slot: int, timeout_s: float = 600) -> ApiOutcome:
    """Run ``package`` (a folder) through a throw-away judge's API, as the module docstring says."""
    import httpx

    from judge.languages import NoLanguage
    from judge.packages import PackageError, load_package
    from judge.verify.layout import VERDICT_FOLDERS, submission_files
    from judge.verify.submissions import submission_program

    outcome = ApiOutcome()
    try:
        loaded = load_package(package, require_tests=False)
    except PackageError as error:
        outcome.error = str(error)
        return outcome
    with tempfile.TemporaryDirectory(prefix="api-verdicts-") as tmp, Judge(_reachable(Path(tmp)), slot) as judge:
        with httpx.Client(base_url=judge.url, timeout=60) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    client.get("/api/v1/problems")
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        outcome.error = "the judge's API did not start"
                        return outcome
                    time.sleep(POLL_S)
            token = client.post("/api/v1/auth/token", data={"username": "admin", "password": ADMIN_PASSWORD})
            client.headers["Authorization"] = f"Bearer {token.json()['access_token']}"
            files = {"file": (f"{package.name}.zip", package_zip(package), "application/zip")}
            uploaded = client.post("/api/v1/problems", files=files, timeout=timeout_s)
            if uploaded.status_code != 201:
                outcome.error = f"HTTP {uploaded.status_code}: {uploaded.text[:300]}"
                return outcome
            problem = uploaded.json()["id"]
            queued: list[tuple[str, str, int]] = []
            for folder in VERDICT_FOLDERS:
                for path in submission_files(package / "submissions" / folder):
                    name = f"{folder}/{path.name}"
                    try:
                        program = submission_program(loaded, path)
                    except (NoLanguage, UnicodeDecodeError):
                        program = None
                    if program is None or program.others:  # the API takes one file
                        outcome.skipped.append(name)
                        continue
                    body = {"problem": problem, "language": program.language.id, "source": program.source}
                    reply = client.post("/api/v1/submissions", json=body)
                    if reply.status_code != 202:
                        outcome.submitted += 1
                        outcome.mismatches.append(f"{name}: HTTP {reply.status_code} {reply.text[:200]}")
                        continue
                    queued.append((name, folder, reply.json()["id"]))
            deadline = time.monotonic() + timeout_s
            for name, folder, sid in queued:
                outcome.submitted += 1
                while True:
                    state = client.get(f"/api/v1/submissions/{sid}").json()
                    if state["status"] == "done" or time.monotonic() > deadline:
                        break
                    time.sleep(POLL_S)
                if state["status"] != "done":
                    outcome.mismatches.append(f"{name}: still {state['status']} after {timeout_s:.0f} s")
                elif _as_expected(folder, state["verdict"], state.get("score"), state.get("max_score")):
                    outcome.matched += 1
                else:
                    score = f" score {state.get('score')} of {state.get('max_score')}" if state.get("max_score") else ""
                    failed = next((r for r in state.get("results", []) if r.get("verdict") != "AC"), None)
                    where = f" on {failed['test']}: {(failed.get('message') or '')[:200]}" if failed else ""
                    outcome.mismatches.append(f"{name}: got {state['verdict']}{score}{where}")
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", type=Path, help="a package folder (its name is the problem id)")
    parser.add_argument("--slot", type=int, default=61, help="sandbox slot of the judge's worker")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for the verdicts")
    args = parser.parse_args()
    slot = args.slot + int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0"))
    outcome = api_verdicts(args.package.resolve(), slot, args.timeout)
    print(outcome.summary())
    for line in outcome.mismatches + [f"{name}: not submitted" for name in outcome.skipped]:
        print(f"  {line}")
    return 0 if not outcome.error and outcome.matched == outcome.submitted else 1


if __name__ == "__main__":
    sys.exit(main())
