"""The pipes between the harness and a run's process, as messages.

A run writes *its* messages (``send``: an 8-byte length and JSON, then optionally a raw body)
on its result pipe; the harness reads them and checks every field (``message_fields``). The
harness writes pickled messages (``write_message``: the task and the run's set-up, then the
instance with ``go``) on the control pipe, which the run only reads (``read_message``): a
solver never gets to send the harness a pickle.
"""

from __future__ import annotations

import json
import os
import pickle
import struct
from collections.abc import Iterator
from typing import Any

from puzzlebench.harness.run.protocol.message_fields import message_problem
from puzzlebench.harness.run.protocol.payload import MAX_MESSAGE_BYTES


def send(fd: int, message: dict[str, Any], raw: bytes | None = None) -> None:
    """One framed message (8-byte length + JSON), optionally followed by a raw frame."""
    body = json.dumps(message, allow_nan=False, separators=(",", ":")).encode()
    _write_all(fd, struct.pack("<Q", len(body)) + body)
    if raw is not None:
        _write_all(fd, struct.pack("<Q", len(raw)))
        _write_all(fd, raw)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]



def write_message(fd: int, obj: Any) -> None:
    """One pickled message on a control pipe (harness → run only: the run never writes one)."""
    body = pickle.dumps(obj)
    _write_all(fd, struct.pack("<Q", len(body)) + body)


def read_message(fd: int) -> Any:
    """The next pickled message from the harness on a control pipe (blocking)."""
    (size,) = struct.unpack("<Q", _read_exactly(fd, 8))
    return pickle.loads(_read_exactly(fd, size))


def _read_exactly(fd: int, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = os.read(fd, size - len(chunks))
        if not chunk:
            raise EOFError("the harness closed the control pipe")
        chunks += chunk
    return bytes(chunks)


class ProtocolError(ValueError):
    """A run's message broke the protocol: the run is a crash, and nothing after it is read."""


class MessageReader:
    """The harness's side of a result pipe: bytes in, checked messages out — each a JSON
    message and, for an answer sent as raw int64 bytes, the raw body that follows it."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.pending_raw: dict[str, Any] | None = None

    def feed(self, data: bytes) -> None:
        """Bytes read from the pipe."""
        self.buffer += data

    def clear(self) -> None:
        """Forget what is held (after a broken message, nothing more is read)."""
        self.buffer.clear()
        self.pending_raw = None

    def messages(self) -> Iterator[tuple[dict[str, Any], bytes | None]]:
        """The complete messages held, in order; :class:`ProtocolError` on the first that
        breaks the protocol (too long, not JSON, or a field the run got wrong)."""
        while len(self.buffer) >= 8:
            (size,) = struct.unpack_from("<Q", self.buffer)
            if size > MAX_MESSAGE_BYTES:  # a run cannot make the judge hold what it likes
                raise ProtocolError(
                    f"the run sent a {size:,}-byte frame (at most {MAX_MESSAGE_BYTES:,})")
            if len(self.buffer) < 8 + size:
                return
            body = bytes(self.buffer[8:8 + size])
            del self.buffer[:8 + size]
            if self.pending_raw is not None:
                message, self.pending_raw = self.pending_raw, None
                yield message, body
                continue
            try:
                message = json.loads(body)
            except (ValueError, RecursionError):  # not JSON, or nested past any real proposal
                raise ProtocolError("the run wrote garbage on the harness's channel") from None
            problem = message_problem(message)
            if problem:  # every field checked before any is read: the run's crash, no traceback
                raise ProtocolError(f"the run sent a {problem}")
            payload = message.get("payload")
            if message.get("event") == "done" and isinstance(payload, dict) and isinstance(
                    payload.get("answer"), dict) and "int64_bytes" in payload["answer"]:
                self.pending_raw = message  # its raw frame follows
                continue
            yield message, None
