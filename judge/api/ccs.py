"""``/api/ccs``: the ICPC Contest API, version 2023-06 (read only), for contest tools: resolvers,
scoreboard clients, shadowing CCSs, archivers. The objects come from ``judge.ccs.objects``; the
event feed, submission files and problem packages are ``judge.api.ccs_feed``.

Auth: HTTP Basic with a judge account's name and password (what contest tools send; the password
is checked with the same Argon2 code as ``POST /api/v1/auth/token``, once per request), or a bearer
token of ours, or nothing: a contest then exists only if its scoreboard is public. The jury of a
contest sees everything; anyone else the public view (``judge.contests.scoreboard_access``).

Errors are ``{"code": <status>, "message": <text>}`` as the specification asks; unknown ids 404.
Collections can be filtered on their ``*_id`` properties (``?team_id=7``; empty matches null).
"""

from __future__ import annotations

import base64
import binascii

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.api.errors import SpecErrorOut, answers, refusal
from judge.api.lookups import board_view
from judge.auth import check_login, db_session, user_for_token
from judge.ccs import API_INFORMATION
from judge.ccs.objects import ContestView
from judge.models import Contest, User
from judge.schemas import whole_number
from judge.throttle import client_address

BASIC_CHALLENGE = {"WWW-Authenticate": 'Basic realm="classjudge", charset="UTF-8"'}


class CcsRoute(APIRoute):
    """A route whose refusals read ``{"code", "message"}`` (``Contest_API.md``, "Success, Failure,
    and HTTP Responses"): its ``HTTPException`` here, the app's other refusals (422, 503) in
    ``judge.api.errors``, which reads ``error_form``."""

    error_form = SpecErrorOut

    def get_route_handler(self):
        """The usual handler, with its ``HTTPException`` answered in the specification's form."""
        handler = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except HTTPException as exc:
                return refusal(request, exc.status_code, str(exc.detail), exc.headers)

        return answer


def spec_answers(shape: str, what: str, *statuses: int) -> dict[int | str, dict]:
    """OpenAPI answers of a Contest API route: 200 with a JSON ``shape`` (``"object"``, or
    ``"array"`` of objects) holding ``what``, whose properties ``Contest_API.md`` defines (not
    repeated here), and ``statuses`` in the specification's error form; 401 where it reads
    credentials (``ccs_user``). Statuses every route may give are added by
    ``judge.api.errors.document_statuses``."""
    schema: dict = {"type": "object", "description": what}
    if shape == "array":
        schema = {"type": "array", "items": {"type": "object"}, "description": what}
    ok = {"description": what, "content": {"application/json": {"schema": schema}}}
    return {200: ok, **answers(*statuses, form=SpecErrorOut)}


router = APIRouter(prefix="/api/ccs", tags=["contest api"], route_class=CcsRoute)


def ccs_user(request: Request, session: Session = Depends(db_session)) -> User | None:
    """The caller: from ``Authorization: Basic`` (name and password) or ``Bearer`` (our token), None
    without the header; 401 for credentials that do not match."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if not scheme:
        return None
    if scheme.lower() == "bearer":
        user = user_for_token(session, value.strip())
        if user is None:
            raise HTTPException(401, "token unknown or expired", headers={"WWW-Authenticate": "Bearer"})
        return user
    if scheme.lower() != "basic":
        raise HTTPException(401, f"unknown authorization scheme {scheme[:20]!r}: use Basic or Bearer", BASIC_CHALLENGE)
    try:
        name, colon, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        name, colon, password = "", "", ""
    user = check_login(session, request.app.state.logins, name, password, client_address(request)) if colon else None
    if user is None:
        raise HTTPException(401, "wrong user name or password", headers=BASIC_CHALLENGE)
    session.commit()  # a rehashed password (``authenticate``)
    return user


def contest_view(
    request: Request, contest_id: str, user: User | None = Depends(ccs_user), session: Session = Depends(db_session)
) -> ContestView:
    """The contest's objects as the caller may see them; 404 for an unknown contest or one the
    caller may not see (401 for a guest when it is not public)."""
    number = whole_number(contest_id)
    if not number:
        raise HTTPException(404, f"no contest {contest_id!r}")
    contest, view = board_view(session, user, number)
    cache_dir = request.app.state.settings.work_dir / "packages"
    return ContestView(session, contest, view, user, cache_dir)


@router.get("/", responses=spec_answers("object", "the API information object"))
def api_information():
    """The API information object: specification version and provider (``/api/ccs`` redirects here)."""
    return API_INFORMATION


@router.get("/contests", responses=spec_answers("array", "contest objects", 401))
def contests(request: Request, user: User | None = Depends(ccs_user), session: Session = Depends(db_session)):
    """The contests the caller may see."""
    rows = session.scalars(select(Contest).order_by(Contest.id)).all()
    cache_dir = request.app.state.settings.work_dir / "packages"
    shown = []
    for contest in rows:
        view = rules.scoreboard_access(session, user, contest)
        if view is not None:
            shown.append(ContestView(session, contest, view, user, cache_dir).contest_object())
    return shown


@router.get("/contests/{contest_id}", responses=spec_answers("object", "a contest object", 401))
def contest(view: ContestView = Depends(contest_view)):
    """One contest."""
    return view.contest_object()


@router.get("/contests/{contest_id}/access", responses=spec_answers("object", "the access object", 401))
def access(view: ContestView = Depends(contest_view)):
    """What the caller may read here: no capabilities, the endpoints and their properties."""
    return view.access()


@router.get("/contests/{contest_id}/state", responses=spec_answers("object", "the state object", 401))
def state(view: ContestView = Depends(contest_view)):
    """The contest state: started, frozen, ended, thawed, finalized, end of updates."""
    return view.state()


@router.get("/contests/{contest_id}/scoreboard", responses=spec_answers("object", "the scoreboard object", 401))
def scoreboard(view: ContestView = Depends(contest_view)):
    """The scoreboard of the caller's view (frozen for the public)."""
    return view.scoreboard()


@router.get("/contests/{contest_id}/account", responses=spec_answers("object", "the caller's account object", 401))
def account(view: ContestView = Depends(contest_view)):
    """The caller's own account; 404 without one."""
    if view.viewer is None:
        raise HTTPException(404, "not logged in: no account")
    return view.account(view.viewer)


@router.get("/contests/{contest_id}/{endpoint}", responses=spec_answers("array", "the objects of the endpoint", 401))
def collection(request: Request, endpoint: str, view: ContestView = Depends(contest_view)):
    """A collection (``teams``, ``submissions``, …), filtered by its ``*_id`` query parameters."""
    objects = view.collection(endpoint)
    if objects is None:
        raise HTTPException(404, f"no endpoint {endpoint!r}")
    filters = {k: v for k, v in request.query_params.items() if k.endswith("_id")}
    return [o for o in objects if all(str(o.get(k) or "") == v for k, v in filters.items())]


@router.get(
    "/contests/{contest_id}/{endpoint}/{object_id}", responses=spec_answers("object", "one object of the endpoint", 401)
)
def single(endpoint: str, object_id: str, view: ContestView = Depends(contest_view)):
    """One object of a collection."""
    objects = view.collection(endpoint)
    if objects is None:
        raise HTTPException(404, f"no endpoint {endpoint!r}")
    found = next((o for o in objects if o["id"] == object_id), None)
    if found is None:
        raise HTTPException(404, f"no {endpoint} {object_id!r}")
    return found
