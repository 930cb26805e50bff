"""``cmd``: a bot in any language, run as a program that speaks JSON lines (protocol 1).

The host starts the command (through ``/bin/sh -c``, in its own process group), says hello,
and then, for each decision, writes the seat's observation as one JSON line on the bot's
stdin and reads one JSON line, the action, from its stdout. docs/bot-protocol.md is the
contract; in short::

    host: {"type": "hello", "protocol": 1, "seat": 0, "seed": 7, "rules": {...}}
    bot:  {"type": "hello", "protocol": 1, "name": "my-bot"}
    host: {"type": "act", "decision": 1, "observation": {...}}
    bot:  {"type": "action", "action": "truco"}
    ...
    host: {"type": "bye"}                   (then closes the bot's stdin)

A bot that crashes, does not answer within its ``timeout`` (seconds per decision; the
handshake gets ``startup``), answers something that is not JSON, not an action, not legal, or
speaks another protocol version raises :class:`BotFailure`, a :class:`TrucoError` that names
what went wrong; its process is then killed. The process is always ended: by :meth:`close`,
after a failure, or when the bot object is collected or the interpreter exits.

Options (``make_bot("cmd", command=..., timeout=..., startup=...)``, or the bot spec
``cmd[timeout=2,startup=10]:node bot.js``); the defaults come from the environment variables
``TRUCO_BOT_TIMEOUT`` (5 s) and ``TRUCO_BOT_STARTUP`` (10 s).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import tempfile
import time
import weakref
from typing import IO, Any, Final

from truco.actions import parse_token, token
from truco.bots.base import Bot, register
from truco.bots.observation_json import observation_to_json, rules_to_json
from truco.errors import InvalidActionError, TrucoError
from truco.observation import Observation
from truco.variants import Rules

#: The version of the line protocol; a bot must answer the hello with the same number.
PROTOCOL: Final = 1
#: Longest line read from a bot, in bytes.
MAX_LINE: Final = 1 << 20
DEFAULT_TIMEOUT: Final = 5.0
DEFAULT_STARTUP: Final = 10.0


class BotFailure(TrucoError):
    """An external bot broke the protocol; ``kind`` says how (for records and reports)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _seconds(value: float | str | None, variable: str, default: float) -> float:
    if value is None:
        value = os.environ.get(variable, default)
    try:
        seconds = float(value)
    except ValueError:
        raise TrucoError(f"cmd: {variable} must be a number of seconds, not {value!r}") from None
    if not seconds > 0:
        raise TrucoError(f"cmd: a timeout must be more than 0 seconds, not {seconds}")
    return seconds


def _end(process: subprocess.Popen[bytes], files: tuple[IO[bytes], ...]) -> None:
    """Kill the bot's whole process group and reap it (no zombie, no orphan)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    for f in files:
        with contextlib.suppress(OSError):
            f.close()


@register("cmd")
class ExternalBot(Bot):
    """A bot run as an external program (see the module docstring)."""

    name = "cmd"

    def __init__(
        self,
        seed: int | None = None,
        command: str = "",
        timeout: float | str | None = None,
        startup: float | str | None = None,
    ) -> None:
        super().__init__(seed)
        if not isinstance(command, str) or not command.strip():
            raise TrucoError("cmd: needs a command, e.g. 'cmd:node examples/bots/smart-bot.js'")
        self.command = command
        self.seed = seed
        self.timeout = _seconds(timeout, "TRUCO_BOT_TIMEOUT", DEFAULT_TIMEOUT)
        self.startup = _seconds(startup, "TRUCO_BOT_STARTUP", DEFAULT_STARTUP)
        #: The name the bot gave in its hello.
        self.bot_name: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._table: tuple[Rules, int] | None = None
        self._decisions = 0
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # ------------------------------------------------------------------ life cycle

    def start(self, rules: Rules, seat: int) -> None:
        """Start the program and shake hands for ``seat``; raises :class:`BotFailure`."""
        self.close()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by _end)
        try:
            process = subprocess.Popen(
                ["/bin/sh", "-c", self.command],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                start_new_session=True,
            )
        except OSError as e:
            self._stderr.close()
            raise BotFailure("crash", f"{self._who(seat)}: cannot start: {e}") from None
        self._process = process
        assert process.stdin is not None and process.stdout is not None
        os.set_blocking(process.stdin.fileno(), False)  # a bot that does not read cannot block us
        files = (process.stdin, process.stdout, self._stderr)
        self._finalizer = weakref.finalize(self, _end, process, files)
        self._buffer = b""
        self._table = (rules, seat)
        self._decisions = 0
        hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "seat": seat,
            "seed": self.seed,
            "rules": rules_to_json(rules),
        }
        answer = self._exchange(hello, self.startup, "the hello")
        if answer.get("type") != "hello":
            self._fail("protocol", f"answered the hello with {_short(answer)}, not a hello")
        if answer.get("protocol") != PROTOCOL:
            self._fail(
                "protocol",
                f"speaks protocol {answer.get('protocol')!r}; this host speaks {PROTOCOL}",
            )
        name = answer.get("name")
        if not isinstance(name, str) or not name:
            self._fail("protocol", "its hello has no name (a non-empty string)")
        self.bot_name = name

    def close(self) -> None:
        """Say bye, give the bot a moment to exit, then end its process group."""
        process, finalizer = self._process, self._finalizer
        self._process = self._finalizer = None
        self._table = None
        if process is None or finalizer is None:
            return
        if process.poll() is None:
            try:
                assert process.stdin is not None
                os.write(process.stdin.fileno(), b'{"type": "bye"}\n')
                process.stdin.close()
                process.wait(timeout=0.2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        finalizer()

    # ------------------------------------------------------------------ play

    def choose(self, obs: Observation) -> int:
        if self._process is None or self._table != (obs.rules, obs.seat):
            self.start(obs.rules, obs.seat)
        self._decisions += 1
        message = {
            "type": "act",
            "decision": self._decisions,
            "observation": observation_to_json(obs),
        }
        answer = self._exchange(message, self.timeout, f"decision {self._decisions}")
        if answer.get("type") != "action" or not isinstance(answer.get("action"), str):
            self._fail("malformed", f"answered {_short(answer)}, not an action")
        text: str = answer["action"]
        try:
            action = obs.legal_actions[[token(a) for a in obs.legal_actions].index(text)]
        except ValueError:
            try:
                action = parse_token(text)
            except InvalidActionError:
                self._fail("illegal", f"answered {text[:40]!r}, which is not an action")
            if action not in obs.legal_actions:
                legal = " ".join(token(a) for a in obs.legal_actions)
                self._fail("illegal", f"answered {text!r}, which is not legal here ({legal})")
        return action

    # ------------------------------------------------------------------ the wire

    def _who(self, seat: int | None = None) -> str:
        if seat is None and self._table is not None:
            seat = self._table[1]
        at = f" at p{seat}" if seat is not None else ""
        return f"bot cmd:{self.command}{at}"

    def _fail(self, kind: str, why: str) -> Any:
        message = f"{self._who()}: {why}"
        tail = self._stderr_tail()
        self.close()
        if tail:
            message += f" (its stderr ends: {tail})"
        raise BotFailure(kind, message)

    def _stderr_tail(self) -> str:
        f = self._stderr
        if f is None or f.closed:
            return ""
        try:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 300))
            return " ".join(f.read().decode("utf-8", "replace").split())
        except OSError:
            return ""

    def _exchange(self, message: dict[str, Any], timeout: float, what: str) -> dict[str, Any]:
        process = self._process
        assert process is not None and process.stdin is not None
        self._unasked(what)
        deadline = time.monotonic() + timeout
        self._write(json.dumps(message, separators=(",", ":")).encode() + b"\n", deadline, what)
        line = self._read_line(deadline, timeout, what)
        try:
            answer = json.loads(line)
        except (UnicodeDecodeError, ValueError):
            self._fail("malformed", f"answered {what} with {_short(line)}, which is not JSON")
        if not isinstance(answer, dict):
            self._fail("malformed", f"answered {what} with {_short(answer)}, not a JSON object")
        checked: dict[str, Any] = answer
        return checked

    def _unasked(self, what: str) -> None:
        """Fail if the bot sent something nobody asked for (it would answer the next decision)."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            if selector.select(0):
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._crashed(what)
                self._buffer += chunk
        if self._buffer.strip():
            line = self._buffer.split(b"\n")[0]
            self._fail("malformed", f"sent {_short(line)} before {what}, unasked")

    def _crashed(self, what: str) -> Any:
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        status = "closed its output" if code is None else f"exited with status {code}"
        return self._fail("crash", f"{status} before answering {what}")

    def _write(self, data: bytes, deadline: float, what: str) -> None:
        """Write all of ``data`` to the bot's stdin before ``deadline``."""
        process = self._process
        assert process is not None and process.stdin is not None
        fd = process.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while view:
                try:
                    view = view[os.write(fd, view) :]
                    continue
                except BlockingIOError:
                    pass
                except OSError:  # BrokenPipeError: it is gone
                    self._crashed(what)
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._fail("timeout", f"did not read {what} (its input is full)")

    def _read_line(self, deadline: float, timeout: float, what: str) -> bytes:
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    self._fail("malformed", f"sent a line longer than {MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._fail("timeout", f"did not answer {what} within {timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._crashed(what)
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.strip()


def _short(value: object) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else json.dumps(value)
    return repr(text if len(text) <= 60 else text[:60] + "...")
