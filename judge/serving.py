"""How the API is served: uvicorn with its HTTP/1.1 protocol (h11) guarded by a read timeout.

uvicorn times out a connection only while it is idle between two requests (``timeout_keep_alive``);
a client that opens a connection and sends nothing, or trickles its headers or body a byte at a
time, holds its socket and its buffers for ever. ``GuardedH11Protocol`` gives every request
``read_timeout_s`` seconds, counted from its first byte (or from the connection's opening), to
arrive whole, headers and body; then it answers 408 and closes. A response being sent (an event
stream) is never cut: the clock stops once the request is in.
"""

from __future__ import annotations

import asyncio

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from judge.config import Settings

KEEP_ALIVE_S = 5  # uvicorn's default: an idle connection between two requests
REQUEST_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 36\r\nconnection: close\r\n\r\nthe request did not arrive in time.\n"
)
_REQUEST_IN = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)  # the client's side of h11 once it is in


class ServerConfig(uvicorn.Config):
    """uvicorn's configuration plus ``read_timeout_s``, the time a request has to arrive whole (s)."""

    def __init__(self, app, *, read_timeout_s: float, **kwargs):
        super().__init__(app, http=GuardedH11Protocol, timeout_keep_alive=KEEP_ALIVE_S, **kwargs)
        self.read_timeout_s = read_timeout_s


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on reading each request (``ServerConfig.read_timeout_s``)."""

    def __init__(self, config: ServerConfig, *args, **kwargs):
        super().__init__(config, *args, **kwargs)
        self.read_timeout_s = config.read_timeout_s
        self.read_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.read_deadline is None and self.conn.their_state is h11.IDLE:  # a new request begins
            self._arm()
        super().data_received(data)
        if self.conn.their_state in _REQUEST_IN:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self.read_deadline = self.loop.call_later(self.read_timeout_s, self._read_timed_out)

    def _disarm(self) -> None:
        if self.read_deadline is not None:
            self.read_deadline.cancel()
            self.read_deadline = None

    def _read_timed_out(self) -> None:
        self.read_deadline = None
        if self.transport.is_closing():
            return
        awaiting_headers = self.conn.their_state is h11.IDLE
        if awaiting_headers or (self.cycle is not None and not self.cycle.response_started):  # nothing answered yet
            self.transport.write(REQUEST_TIMEOUT_ANSWER)
        self.logger.info("%s: request not received within %s s; closed", self.client, self.read_timeout_s)
        self.transport.close()


def server_config(app, settings: Settings, host: str, port: int, log_level: str = "info") -> ServerConfig:
    """The uvicorn configuration ``judge serve`` (and the tests' real servers) run ``app`` with."""
    return ServerConfig(app, read_timeout_s=settings.request_read_timeout_s, host=host, port=port, log_level=log_level)
