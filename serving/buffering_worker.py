"""gunicorn's threaded worker that gives a thread only to a request it has whole (issue 48).

gunicorn's ``gthread`` worker hands every accepted connection to a thread, which then reads the request as it
arrives: a client that sends its headers a byte a second holds that thread, and twenty such clients held the 16
threads of ``make serve`` (the header deadline of ``HeaderDeadlineWorker`` ended each after 10 s, and they came
back). Here the worker's main loop, which already waits on every idle kept-alive connection, reads each new
request itself, without blocking, into a buffer: its head up to ``MAX_HEAD_BYTES``, and its body up to
``BODY_BUFFER_BYTES`` (the site's forms are a few KB). Only a complete request goes to the thread pool, with its
bytes put back in front of gunicorn's own parser, which reads and checks it as before. A slow client costs a
socket and a buffer, and no thread:

- the request must be whole within ``GUNICORN_HEADER_TIMEOUT`` (10 s) of its first byte being awaited, or the
  connection is closed (408);
- each worker buffers at most ``MAX_BUFFERING_PER_CLIENT`` connections of one client (an IPv6 client by its /64)
  and ``max_buffering`` in all, and ``MAX_BUFFERED_BYTES`` of data: past a bound the oldest such connection is
  closed, so a flood of slow connections cannot fill the worker's ``worker_connections`` and keep new visitors
  out (clients behind ``FORWARDED_ALLOW_IPS``, a proxy, share no per-client bound);
- a body larger than ``BODY_BUFFER_BYTES`` goes to a thread once that much of it is buffered (on the admin's
  paths, the staff's price import, once the head is whole): Django refuses what it refuses as before (a file from
  a visitor, a form over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, with its localized 400 page), and outside the admin the
  thread must have the request whole within another ``GUNICORN_HEADER_TIMEOUT``, or its connection is shut down;
- TLS: the handshake is done in the main loop too (non-blocking), then the request is read the same way.

The header deadline of ``HeaderDeadlineWorker`` stays, for what a thread may still wait on: bytes pipelined
behind a request, and the admin's large bodies."""
import contextlib
import errno
import ipaddress
import os
import selectors
import socket
import ssl
import threading
import time
from collections import OrderedDict
from functools import partial

from gunicorn import http
from gunicorn import sock as gunicorn_sock
from gunicorn.workers.gthread import ThreadWorker

MAX_HEAD_BYTES = int(os.environ.get("GUNICORN_MAX_HEAD_BYTES", str(64 * 1024)))
BODY_BUFFER_BYTES = int(os.environ.get("GUNICORN_BODY_BUFFER_BYTES", str(1024 * 1024)))
MAX_BUFFERING_PER_CLIENT = int(os.environ.get("GUNICORN_MAX_BUFFERING_PER_CLIENT", str(64)))
MAX_BUFFERED_BYTES = int(os.environ.get("GUNICORN_MAX_BUFFERED_BYTES", str(64 * 1024 * 1024)))
READ_BYTES = 64 * 1024


class HeaderDeadlineWorker(ThreadWorker):
    """gunicorn's threaded worker, with a deadline for a request's headers.

    A thread reads a request's headers as they arrive; a client that sends them slowly (on purpose or
    not) holds that thread, and gunicorn has no limit on how long. Here the worker's main loop, which
    wakes at least once a second, shuts down the connection of any request whose headers are not complete
    ``header_timeout`` seconds after a thread took it up: the thread is free again and other visitors are
    served meanwhile by the other threads. Idle kept-alive connections wait in the main loop, not in a
    thread, and are closed after ``keepalive`` seconds."""

    header_timeout = int(os.environ.get("GUNICORN_HEADER_TIMEOUT", "10"))

    def init_process(self):
        self.header_deadlines = {}
        self.header_deadlines_lock = threading.Lock()
        super().init_process()

    def handle(self, conn):
        with self.header_deadlines_lock:
            self.header_deadlines[conn] = time.monotonic() + self.header_timeout
        try:
            return super().handle(conn)
        finally:
            with self.header_deadlines_lock:
                self.header_deadlines.pop(conn, None)

    def handle_request(self, req, conn):
        with self.header_deadlines_lock:
            self.header_deadlines.pop(conn, None)
        return super().handle_request(req, conn)

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        # Under the lock: a request whose headers were complete meanwhile has left the table already.
        with self.header_deadlines_lock:
            for conn, deadline in list(self.header_deadlines.items()):
                if deadline < now:
                    del self.header_deadlines[conn]
                    with contextlib.suppress(OSError):
                        conn.sock.shutdown(socket.SHUT_RDWR)  # the thread's read returns: no more data


class Buffering:
    """A connection whose request the main loop is reading."""

    __slots__ = ("client", "data", "deadline", "handshaken")

    def __init__(self, client, data, deadline, handshaken):
        self.client, self.data, self.deadline, self.handshaken = client, bytearray(data), deadline, handshaken


INCOMPLETE, COMPLETE, PARTIAL, HEAD_TOO_LARGE = "incomplete", "complete", "partial", "head too large"


def request_state(data, admin_prefix):
    """Whether ``data`` holds a whole request (head, and body as far as it is buffered)."""
    start = 0
    while data.startswith(b"\r\n", start):  # empty lines before a request line are allowed (RFC 9112 2.2)
        start += 2
    end = data.find(b"\r\n\r\n", start)
    if end < 0:
        return HEAD_TOO_LARGE if len(data) > MAX_HEAD_BYTES else INCOMPLETE
    if end - start > MAX_HEAD_BYTES:
        return HEAD_TOO_LARGE
    lines = bytes(data[start:end]).decode("latin-1").split("\r\n")
    target = lines[0].split(" ")[1] if lines[0].count(" ") >= 2 else ""
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = len(data) - end - 4
    admin = target.startswith(admin_prefix)
    if "transfer-encoding" in headers:
        if data.endswith((b"\r\n0\r\n\r\n", b"\r\n\r\n0\r\n\r\n")):
            return COMPLETE
        return PARTIAL if admin or body >= BODY_BUFFER_BYTES else INCOMPLETE
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        return COMPLETE  # gunicorn's parser answers it (400)
    if body >= length:
        return COMPLETE
    if length > BODY_BUFFER_BYTES and (admin or body >= BODY_BUFFER_BYTES):
        return PARTIAL
    return INCOMPLETE


def is_admin(data, admin_prefix):
    request_line = bytes(data[:data.find(b"\r\n", 2)]).decode("latin-1").lstrip("\r\n")
    return request_line.count(" ") >= 2 and request_line.split(" ")[1].startswith(admin_prefix)


def client_group(client):
    """An IPv6 client by its /64 (as the site's limits count it), any other by its address."""
    host = client[0] if isinstance(client, tuple) and client else str(client)
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(host)
        if address.version == 4:
            return host
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return host


class BufferingWorker(HeaderDeadlineWorker):
    """See the module's docstring."""

    def init_process(self):
        self.buffering = OrderedDict()  # connection → Buffering, oldest first
        self.buffered_bytes = 0
        self.admin_prefix = "/" + os.environ.get("ADMIN_URL", "admin/").strip("/") + "/"
        # Half the worker's connections: the other half stays for requests in threads and kept-alive connections,
        # so that accepting (which gunicorn stops at ``worker_connections``) never stops for slow clients.
        self.max_buffering = max(1, self.cfg.worker_connections // 2)
        trusted = self.cfg.forwarded_allow_ips or []
        self.trusted_clients = {str(address) for address in trusted}
        self.ssl_context = gunicorn_sock.ssl_context(self.cfg) if self.cfg.is_ssl else None
        self.body_deadlines = {}  # connection → when a thread must have read the rest of a large body
        super().init_process()

    def handle(self, conn):
        try:
            return super().handle(conn)
        finally:
            with self.header_deadlines_lock:
                self.body_deadlines.pop(conn, None)

    # gunicorn calls this for a new connection, a kept-alive one that became readable and one with bytes left over
    # from its last request: the main loop reads the request first.
    def enqueue_req(self, conn):
        data = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        self.start_buffering(conn, data)

    def on_client_socket_readable(self, conn, client):
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self.start_buffering(conn, b"")

    def dispatch(self, conn, data):
        """The whole request to a thread: gunicorn's parser reads ``data`` first, then the socket."""
        if conn.parser is None:
            conn.initialized = True
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(data))
        conn.data_ready = True
        super().enqueue_req(conn)

    def start_buffering(self, conn, data):
        handshaken = True
        if self.ssl_context is not None and not isinstance(conn.sock, ssl.SSLSocket):
            conn.sock.setblocking(False)
            try:
                conn.sock = self.ssl_context.wrap_socket(
                    conn.sock, server_side=True, do_handshake_on_connect=False,
                    suppress_ragged_eofs=self.cfg.suppress_ragged_eofs)
            except (OSError, ValueError):
                self.drop(conn)
                return
            handshaken = False
        if handshaken and data and request_state(data, self.admin_prefix) == COMPLETE:
            self.dispatch(conn, data)
            return
        conn.sock.setblocking(False)
        state = Buffering(conn.client, data, time.monotonic() + self.header_timeout, handshaken)
        self.buffering[conn] = state
        self.buffered_bytes += len(state.data)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_buffering_readable, conn))
        self.enforce_bounds(conn)
        if conn in self.buffering:
            self.on_buffering_readable(conn, conn.sock)  # bytes may be waiting already (a kept-alive connection)

    def enforce_bounds(self, conn):
        group = client_group(conn.client)
        if "*" not in self.trusted_clients and group not in self.trusted_clients:
            same = [other for other, state in self.buffering.items() if client_group(state.client) == group]
            for other in same[:max(0, len(same) - MAX_BUFFERING_PER_CLIENT)]:
                self.stop_buffering(other, b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 10\r\n")
        while len(self.buffering) > self.max_buffering or (
                self.buffered_bytes > MAX_BUFFERED_BYTES and len(self.buffering) > 1):
            self.stop_buffering(next(iter(self.buffering)), b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\n")

    def on_buffering_readable(self, conn, _fileobj):
        state = self.buffering.get(conn)
        if state is None:
            return
        received = 0
        try:
            if not state.handshaken:
                conn.sock.do_handshake()
                state.handshaken = True
            while received <= MAX_HEAD_BYTES + BODY_BUFFER_BYTES:
                chunk = conn.sock.recv(READ_BYTES)
                if not chunk:  # the client is gone
                    self.stop_buffering(conn)
                    return
                state.data += chunk
                received += len(chunk)
        except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError, InterruptedError):
            pass
        except (OSError, ssl.SSLError):
            self.stop_buffering(conn)
            return
        self.buffered_bytes += received
        if not received:
            return
        verdict = request_state(state.data, self.admin_prefix)
        if verdict in (COMPLETE, PARTIAL):
            self.leave_buffering(conn, state)
            if verdict == PARTIAL and not is_admin(state.data, self.admin_prefix):
                with self.header_deadlines_lock:
                    self.body_deadlines[conn] = time.monotonic() + self.header_timeout
            self.dispatch(conn, state.data)
        elif verdict == HEAD_TOO_LARGE:
            self.stop_buffering(conn, b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
        else:
            self.enforce_bounds(conn)

    def leave_buffering(self, conn, state):
        del self.buffering[conn]
        self.buffered_bytes -= len(state.data)
        with contextlib.suppress(OSError, KeyError, ValueError):
            self.poller.unregister(conn.sock)

    def stop_buffering(self, conn, status_line=None):
        """Closes a connection whose request never became whole, telling the client why when it can."""
        state = self.buffering.get(conn)
        if state is None:
            return
        self.leave_buffering(conn, state)
        if status_line and state.handshaken:
            with contextlib.suppress(OSError, ssl.SSLError, ValueError):
                conn.sock.send(status_line + b"Connection: close\r\nContent-Length: 0\r\n\r\n")
        self.drop(conn)

    def drop(self, conn):
        self.nr_conns -= 1
        with contextlib.suppress(OSError, ssl.SSLError, ValueError):
            conn.close()

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        with self.header_deadlines_lock:
            for conn, deadline in list(self.body_deadlines.items()):
                if deadline < now:
                    del self.body_deadlines[conn]
                    with contextlib.suppress(OSError):
                        conn.sock.shutdown(socket.SHUT_RDWR)
        for conn, state in list(self.buffering.items()):
            if state.deadline < now or not self.alive:
                self.stop_buffering(conn, b"HTTP/1.1 408 Request Timeout\r\n" if self.alive else None)

    def wait_for_and_dispatch_events(self, timeout):
        try:
            super().wait_for_and_dispatch_events(timeout)
        except OSError as error:  # a socket closed between select and its callback
            if error.errno not in (errno.EBADF, errno.ENOTCONN):
                raise
