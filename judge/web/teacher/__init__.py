"""The teacher's pages under ``/teacher``: contests (``contests``), submissions and rejudging
(``submissions``, ``rejudging``), classes (``classes``), accounts (``users``), problems and package
uploads (``problems``), workers and the queue
(``workers``), similar sources, the sources zip and the printouts (``similarity``). Only
teachers and admins get in (``access``); each page applies the API's rules through the API's own
functions."""

from __future__ import annotations

from fastapi import APIRouter

from judge.web.teacher import classes, contests, problems, rejudging, similarity, submissions, users, workers

router = APIRouter()
for module in (contests, submissions, rejudging, classes, users, problems, workers, similarity):
    router.include_router(module.router)
