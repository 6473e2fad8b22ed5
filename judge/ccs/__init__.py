"""The ICPC Contest API (CCS specifications, version ``2023-06``: icpc/ccs-specs ``Contest_API.md``,
``Contest_Package.md``) over the judge's own rows.

- ``judge.ccs.format``: the specification's value types (TIME, RELTIME, ids), its judgement types
  and our verdicts' mapping onto them, deterministic zip archives.
- ``judge.ccs.objects``: one contest's objects (contest, state, problems, teams, accounts,
  submissions, judgements, runs, awards, scoreboard) as one viewer may see them, built on the
  contest rules of ``judge.contests`` and the boards of ``judge.scoreboard``.
- ``judge.ccs.feed``: the NDJSON event feed (notifications of changed objects).
- ``judge.ccs.package``: contest packages: export and import.

The HTTP routes are ``judge.api.ccs`` and ``judge.api.ccs_feed``; docs/contest-api.md describes the
mapping for users.
"""

VERSION = "2023-06"
VERSION_URL = "https://ccs-specs.icpc.io/2023-06/contest_api"
API_INFORMATION = {
    "version": VERSION,
    "version_url": VERSION_URL,
    "provider": {"name": "classjudge", "version": "0.1.0"},
}
