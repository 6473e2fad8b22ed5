"""The teacher's pages under ``/teacher``: contests (``contests``), submissions and rejudging
(``submissions``, ``rejudging``), accounts (``users``), problems and package uploads (``problems``),
workers and the queue (``workers``). Only
teachers and admins get in (``access``); each page applies the API's rules through the API's own
functions."""

from __future__ import annotations

from fastapi import APIRouter

from judge.web.teacher import contests, problems, rejudging, submissions, users, workers

router = APIRouter()
for module in (contests, submissions, rejudging, users, problems, workers):
    router.include_router(module.router)
