"""How the API is served: uvicorn with its HTTP/1.1 protocol (h11) guarded by a read timeout.

uvicorn times out a connection only while it is idle between two requests (``timeout_keep_alive``);
a client that opens a connection and sends nothing, or trickles its headers or body a byte at a
time, holds its socket and its buffers for ever. ``GuardedH11Protocol`` gives every request
``read_timeout_s`` seconds, counted from its first byte (or from the connection's opening), to
arrive whole, headers and body; then it answers 408 and closes. A response being sent (an event
stream) is never cut: the clock stops once the request is in.

``listening_socket`` binds the API's address first of all, so that ``judge serve`` on a port in use
stops with one clear message before it migrates, creates the admin or starts a worker. ``serve_api``
runs one API process, or several (uvicorn's ``Multiprocess`` supervisor: the parent holds that
socket, each child process builds its own app with ``judge.api.create_app`` and
accepts on the shared socket; a child that dies is started again). Nothing the API keeps in memory
is needed for correctness: the queue, the event streams, the rate limit and the throttles all live
in the database, so any process may answer any request.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import socket

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.supervisors import Multiprocess

from judge.config import Settings

LISTEN_BACKLOG = 2048  # uvicorn's default backlog
KEEP_ALIVE_S = 5  # uvicorn's default: an idle connection between two requests
# How long (s) the supervisor of several API processes waits for one to answer its health ping before
# killing it (uvicorn's default is 5 s). At the end of a class contest the two cores are shared by
# the API processes and the workers' compiles, and a child answering late is busy, not hung: killing
# it drops every connection it holds, and the submissions in them.
HEALTHCHECK_S = 60
REQUEST_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 36\r\nconnection: close\r\n\r\nthe request did not arrive in time.\n"
)
_REQUEST_IN = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)  # the client's side of h11 once it is in


class ServerConfig(uvicorn.Config):
    """uvicorn's configuration plus ``read_timeout_s``, the time a request has to arrive whole (s);
    its event loop is a ``TakeTurnsEventLoop``."""

    def __init__(self, app, *, read_timeout_s: float, **kwargs):
        super().__init__(
            app,
            http=GuardedH11Protocol,
            timeout_keep_alive=KEEP_ALIVE_S,
            timeout_worker_healthcheck=HEALTHCHECK_S,
            loop=LOOP,
            **kwargs,
        )
        self.read_timeout_s = read_timeout_s


class TakeTurnsEventLoop(asyncio.SelectorEventLoop):
    """asyncio's selector event loop, except that it accepts one new connection each time a
    listening socket is ready instead of up to the socket's backlog (2048 under uvicorn).

    Several API processes accept on one shared socket: when a class opens its connections at once,
    the process that wakes first would take nearly all of them in one go, and keep them (keep-alive)
    with their requests, while the other idles. One at a time, the processes woken by the same
    readiness take turns, and a busy process, whose loop comes round later, takes fewer."""

    def _accept_connection(self, protocol_factory, sock, sslcontext=None, server=None, backlog=100, *args, **kwargs):
        super()._accept_connection(protocol_factory, sock, sslcontext, server, 1, *args, **kwargs)


LOOP = f"{__name__}:TakeTurnsEventLoop"  # uvicorn's ``loop``: a custom loop factory, by import string


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on reading each request (``ServerConfig.read_timeout_s``)."""

    def __init__(self, config: ServerConfig, *args, **kwargs):
        super().__init__(config, *args, **kwargs)
        self.read_timeout_s = config.read_timeout_s
        self.read_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        no_delay(transport)
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


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off (TCP_NODELAY) on ``transport``'s TCP socket, so that an answer
    written in two parts (head, then body) leaves at once instead of waiting for the client's
    delayed ACK (up to 40 ms on Linux). asyncio does this itself only for a connection whose
    listening socket names IPPROTO_TCP as its protocol, which the socket ``listening_socket`` binds
    (protocol 0, as uvicorn's ``Config.bind_socket``) does not."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def server_config(app, settings: Settings, host: str, port: int, log_level: str = "info") -> ServerConfig:
    """The uvicorn configuration ``judge serve`` (and the tests' real servers) run ``app`` with."""
    return ServerConfig(app, read_timeout_s=settings.request_read_timeout_s, host=host, port=port, log_level=log_level)


APP_FACTORY = "judge.serving:api_process_app"  # what each of several API processes imports and calls


def die_with_parent() -> None:
    """Ask Linux to send this process SIGTERM when its parent exits, however it exits
    (PR_SET_PDEATHSIG, prctl(2)): a supervisor killed by SIGKILL leaves no child behind."""
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def api_process_app():
    """The app of one of several API processes: settings from the environment, as ``judge serve``
    read them; the process ends with its supervisor (``die_with_parent``)."""
    from judge.api import create_app

    die_with_parent()
    app = create_app()
    freeze_heap()
    return app


# The collector's thresholds in an API process: gc.set_threshold's (young, middle, old). A collection
# of the middle or old generation walks every object alive in it, which in a serving process is
# mostly the requests in flight, whatever the threshold; the requests make little cyclic garbage
# (some 50 objects a middle collection finds). Python's (700, 10, 10) runs a middle collection every
# 7,000 net allocations and a full one every ten of those (2 and 0.25 a second at 300 submissions a
# second, each a pause of every request of its process); 5× and 10× fewer cost the same per pause.
GC_THRESHOLDS = (700, 50, 100)


def freeze_heap() -> None:
    """Collect the garbage of start-up, then leave every object alive now (modules, the app, its
    routes and models) out of all later garbage collections (``gc.freeze``): a full collection then
    walks only the objects made since, instead of pausing every request for the whole heap. From
    then on the older generations are collected less often (``GC_THRESHOLDS``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class CannotListen(Exception):
    """The API's address cannot be bound; the message says why in a person's words."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (IPv6 when ``host`` holds a ``:``), bound
    as uvicorn binds (``SO_REUSEADDR``) and inheritable, so that several API processes accept on it.
    Listening at once holds the port: a second ``judge serve`` fails here, before it does anything.

    Raises CannotListen: the port is in use, the address is not this machine's, or the port is a
    privileged one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except OSError as exc:
        sock.close()
        raise CannotListen(_listen_failure(host, port, exc)) from exc
    sock.set_inheritable(True)
    return sock


def _listen_failure(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} is in use on {host} (another judge serve, or another program): "
            "stop it, or start another with `.venv/bin/judge serve --port N`"
        )
    if exc.errno == errno.EACCES and port < 1024:
        return f"port {port} is a privileged port (below 1024): pass --port 1024 or above"
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


def serve_api(settings: Settings, sock: socket.socket, processes: int = 1, log_level: str = "info") -> None:
    """Serve the API on ``sock`` (``listening_socket``) until SIGINT or SIGTERM, in ``processes``
    processes (≥ 1).

    One process serves the app built here; several are children of this one, each building its own
    app from the environment (``APP_FACTORY``), all accepting connections on ``sock``.
    The database must be migrated and the packages loaded first: the children do neither.
    """
    host, port = sock.getsockname()[:2]
    if processes <= 1:
        from judge.api import create_app

        app = create_app(settings)
        freeze_heap()
        uvicorn.Server(server_config(app, settings, host, port, log_level)).run(sockets=[sock])
        return
    config = server_config(APP_FACTORY, settings, host, port, log_level)
    config.factory, config.workers = True, processes
    Multiprocess(config, sockets=[sock]).run()
