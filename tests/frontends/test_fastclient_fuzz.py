"""The native client's reply parser under a hostile daemon socket: fastclient.c built with AddressSanitizer and
UndefinedBehaviorSanitizer, fed the daemon's replies from a fake daemon written here, whole, mutated and random.

The oracle is the Python client's own decoder (:func:`client.decode_reply`): for every reply the native client must
print what the Python client would print and exit with its code, hand a daemon refusal to the Python client (the
fallback) and report an unusable reply as lost -- never crash, leak, read out of bounds or hang.  The binary is built
with a fallback and a "Python" that are tiny scripts saying which path was taken, so a case costs one exec."""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from phonewire.frontends.cli import fastclient
from phonewire.frontends.cli.client import decode_reply, decode_request, encode_request

LOST, FALLBACK = 94, 95  # the exit codes of the stand-in scripts
SANITIZER_EXIT = 77
CANONICAL = re.compile(rb"-?[0-9]{1,9}")

SEEDS = (
    b"pw2\x000\x00\x005\x00hello",
    b"pw2\x003\x00\x000\x00only stderr",
    b"pw2\x000\x00\x0011\x00with\x00nul\x00s\x00and\x00err\x00",
    "pw2\x000\x00\x007\x00h\u00e9llo\n\u2603".encode(),
    b"pw2\x000\x00\x004\x00\xf0\x9f\x98\xff\xc0\xaf\xed\xa0\x80",
    b"pw2\x004\x00DAEMON_AUTH\x0011\x00not yours",
    b"pw2\x00-1\x00\x000\x00",
    b"pw2\x00255\x00\x000\x00",
    b"1\x002\x00ab",  # an older daemon's reply
    b"pw2\x000\x00\x00",
    b"pw2",
    b"",
)


@dataclass
class Native:
    exe: Path
    directory: Path
    replies: list[bytes]
    requests: list[bytes]


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Native]:
    cc = fastclient.compiler()
    if cc is None:
        pytest.skip("no C compiler: the native client cannot be built here")
    root = tmp_path_factory.mktemp("fuzz")
    python = root / "python"
    python.write_text(f'#!/bin/sh\nprintf "LOST[%s]" "$6" >&2\nexit {LOST}\n')  # argv: -P -m MODULE lost DIR TEXT
    fallback = root / "fallback"
    fallback.write_text(f"#!/bin/sh\nprintf FALLBACK >&2\nexit {FALLBACK}\n")
    for script in (python, fallback):
        script.chmod(0o700)
    exe = root / "phonewire"
    flags = ["-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
    cmd = [cc, *fastclient.CFLAGS, *flags, *fastclient.defines(str(fallback), python=str(python))]
    proc = subprocess.run([*cmd, "-o", str(exe), str(fastclient.SOURCE)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"{Path(cc).name} cannot build with sanitizers here: {proc.stderr.strip()[:300]}")
    directory = root / "daemon"
    directory.mkdir(mode=0o700)
    (directory / "token").write_text("fuzz-token\n")
    (directory / "token").chmod(0o600)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(directory / "daemon.sock"))
    listener.listen(4)
    replies: list[bytes] = []
    requests: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                request = b""
                while chunk := conn.recv(65536):  # the whole request, up to the client's shutdown
                    request += chunk
                requests.append(request)
                with contextlib.suppress(OSError):
                    conn.sendall(replies.pop(0))

    thread = threading.Thread(target=serve, name="fake-daemon", daemon=True)
    thread.start()
    try:
        yield Native(exe, directory, replies, requests)
    finally:
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        thread.join(5)


def _env(native: Native) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "PHONEWIRE_DAEMON_DIR": str(native.directory),
        "ASAN_OPTIONS": f"exitcode={SANITIZER_EXIT}:detect_leaks=1",
        "UBSAN_OPTIONS": f"exitcode={SANITIZER_EXIT}:print_stacktrace=1",
    }


def run(
    native: Native,
    reply: bytes,
    *,
    stdout: int | None = subprocess.PIPE,
    argv: tuple[bytes, ...] = (b"--device", b"double", b"snapshot"),
    env: dict[bytes, bytes] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    native.replies[:] = [reply]
    environ = {k.encode(): v.encode() for k, v in _env(native).items()} | (env or {})
    return subprocess.run([os.fsencode(native.exe), *argv], env=environ, stdout=stdout, stderr=subprocess.PIPE,
                          timeout=60, check=False)  # fmt: skip


def _written(text: str) -> bytes:
    """main.py's _write, as bytes."""
    return b"" if not text else (text if text.endswith("\n") else text + "\n").encode("utf-8", "surrogateescape")


def expected(reply: bytes) -> set[tuple[int, bytes, bytes]]:
    """What the Python client makes of ``reply``: its exit code, stdout and stderr (LOST / FALLBACK for the paths
    it takes over).  A number the real daemon never writes (``+7``, `` 7``, ``1_0``, 20 digits) may also be lost."""
    lost = (LOST, b"", b"LOST[]")
    try:
        code, daemon_code, out, err = decode_reply(reply)
    except ValueError:
        return {lost}
    if daemon_code:
        return {(FALLBACK, b"", b"FALLBACK")}
    answer = (code & 0xFF, _written(out), _written(err))
    fields = reply.split(b"\0")
    return {answer} if all(CANONICAL.fullmatch(f) for f in (fields[1], fields[3])) else {answer, lost}


def mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        if op == 0 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif op == 1:
            out.insert(rng.randint(0, len(out)), rng.choice(b"\0 -+0123456789_\x80\xff\xed\n\t\x0b"))
        elif op == 2 and out:
            del out[rng.randrange(len(out))]
        elif op == 3:
            del out[rng.randint(0, len(out)) :]
        elif op == 4:
            out += bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
        else:
            fields = bytes(out).split(b"\0")
            if len(fields) > 3:  # a size field that lies: bigger, negative, huge
                fields[3] = rng.choice([b"99999999999999999999", b"-1", b"9223372036854775807", b"18446744073709551616",
                                        str(len(out) + rng.randint(-3, 3)).encode()])  # fmt: skip
                out = bytearray(b"\0".join(fields))
    return bytes(out)


def check(native: Native, reply: bytes) -> None:
    proc = run(native, reply)
    assert proc.returncode != SANITIZER_EXIT, proc.stderr.decode(errors="replace")[-3000:]
    assert (proc.returncode, proc.stdout, proc.stderr) in expected(reply), reply


@pytest.mark.parametrize("reply", SEEDS)
def test_each_seed_reply_is_printed_handed_over_or_lost_like_the_python_client(native: Native, reply: bytes) -> None:
    check(native, reply)


def test_400_mutated_and_random_replies_never_crash_and_match_the_python_client(native: Native) -> None:
    rng = random.Random(19)
    for i in range(400):
        if i % 10 == 9:
            reply = bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
        else:
            reply = mutate(rng, rng.choice(SEEDS))
        check(native, reply)


def test_a_20_mb_answer_full_of_nuls_and_bad_utf8_is_written_whole(native: Native) -> None:
    out = (b"line\x00\xff\xed\xa0\x80 \xe2\x98\x83\n" * 1_300_000)[:20_000_000]
    check(native, b"pw2\x000\x00\x00%d\x00%s%s" % (len(out), out, b"tail\xc0"))


def test_a_reply_that_claims_more_than_it_carries_is_lost_not_read_past_its_end(native: Native) -> None:
    proc = run(native, b"pw2\x000\x00\x001000000\x00short")
    assert (proc.returncode, proc.stdout, proc.stderr) == (LOST, b"", b"LOST[]")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_answer_that_cannot_be_written_exits_120_and_says_why(native: Native) -> None:
    with Path("/dev/full").open("wb") as full:
        proc = run(native, b"pw2\x000\x00\x005\x00hello", stdout=full.fileno())
    assert proc.returncode == 120
    assert proc.stderr.startswith(b"error OUTPUT_FAILED: cannot write the answer to stdout: No space left on device\n")
    assert b"\nhint: " in proc.stderr


def test_the_fake_daemon_stands_in_for_a_private_directory(native: Native) -> None:
    """The cases above took the native path, not a fallback for a directory the client refused."""
    assert (native.directory.stat().st_mode & 0o777) == 0o700
    assert run(native, SEEDS[0]).stdout == b"hello\n"
    assert shutil.which(str(native.exe))


def test_the_request_carries_the_client_deadline_as_the_python_client_sends_it(native: Native) -> None:
    native.requests.clear()
    before = time.time()
    proc = run(native, SEEDS[0], env={b"PHONEWIRE_TIMEOUT": b"5"})
    after = time.time()
    assert proc.returncode == 0, proc.stderr
    [request] = native.requests
    env = decode_request(request).env
    assert before + 5 - 0.001 <= float(env["PHONEWIRE_CLIENT_DEADLINE"]) <= after + 5 + 0.001


def test_argv_and_environment_of_any_bytes_travel_exactly_as_the_python_client_sends_them(
    native: Native, tmp_path: Path
) -> None:
    """The request side: random words (any byte but NUL, invalid UTF-8 included) and forwarded variables; the bytes
    on the wire are :func:`client.encode_request`'s for the same invocation (argv decoded as Python decodes it)."""
    rng = random.Random(7)
    for _ in range(60):
        words = [bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 40))).lstrip(b"-") or b"x" for _ in range(3)]
        argv = (b"--device", b"double", b"fill", *words)
        env = {b"PHONEWIRE_SESSION": bytes(rng.randrange(1, 256) for _ in range(rng.randint(0, 20))).replace(b"=", b"")}
        native.requests.clear()
        proc = run(native, SEEDS[0], argv=argv, env={**env, b"PHONEWIRE_TIMEOUT": b"0"})  # no deadline entry
        assert (proc.returncode, proc.stdout) == (0, b"hello\n"), proc.stderr
        decode = os.fsdecode
        expected = encode_request("fuzz-token", [decode(a) for a in argv], str(Path.cwd()),
                                  {"PHONEWIRE_SESSION": decode(env[b"PHONEWIRE_SESSION"])}, None)  # fmt: skip
        assert native.requests == [expected], argv
