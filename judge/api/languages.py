"""``/api/v1/languages``: the judge's languages and whether a live worker can judge each."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel
from sqlalchemy.orm import Session

from judge.accept import live_languages
from judge.auth import current_user, db_session
from judge.languages import LANGUAGES

router = APIRouter(prefix="/api/v1", tags=["languages"])


class LanguageOut(BaseModel):
    """A judge language; ``available`` is False when no worker's self-test passed for it
    (None while no worker is alive: none has reported yet, or all are down)."""

    id: str
    name: str
    available: bool | None


@router.get("/languages", response_model=list[LanguageOut], dependencies=[Depends(current_user)])
def languages(session: Session = Depends(db_session)):
    """Every judge language and whether a live worker can judge it."""
    live = live_languages(session)
    return [
        LanguageOut(id=l.id, name=l.name, available=None if live is None else l.id in live) for l in LANGUAGES.values()
    ]
