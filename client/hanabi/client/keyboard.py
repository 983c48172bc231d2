"""What the person at the table types, read by a helper thread: lines from standard input,
or single keys (no Enter, no echo) while watching on a terminal."""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

from .inbox import Inbox, Message, MessageKind


class Keyboard:
    """Reads ``fd`` into ``inbox`` until the input closes or ``stop`` is set."""

    def __init__(self, fd: int, inbox: Inbox, stop: threading.Event) -> None:
        self.fd = fd
        self.inbox = inbox
        self.stop = stop
        self.keys = False  # single keys, not lines, are read (watching on a terminal)
        self.saved_tty: Any = None

    def run(self) -> None:
        buffer = b""
        while not self.stop.is_set():
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                if buffer:
                    self.inbox.put(Message(MessageKind.LINE, buffer.decode("utf-8", "replace")))
                self.inbox.put(Message(MessageKind.EOF))
                return
            buffer += chunk
            if self.keys:  # watching on a terminal: every key counts at once
                self.inbox.put(Message(MessageKind.KEY, buffer.decode("utf-8", "replace")))
                buffer = b""
                continue
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                text = line.decode("utf-8", "replace").rstrip("\r")
                self.inbox.put(Message(MessageKind.LINE, text))

    def keys_on(self) -> None:
        """Single keys (no Enter, no echo), when the input is a terminal."""
        if not os.isatty(self.fd):
            return
        try:
            import termios
            import tty

            self.saved_tty = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        except (ImportError, OSError):  # no termios (Windows): words and Enter then
            return
        self.keys = True

    def keys_off(self) -> None:
        """The terminal as it was."""
        if self.saved_tty is None:
            return
        import termios

        with contextlib.suppress(OSError):
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved_tty)
        self.saved_tty = None
