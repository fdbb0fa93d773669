"""Fixes of docs/realapps-findings-3.md, round 3b (NiceGUI: Vue + Quasar), on the real web phone and a page of our
own (tests/e2e/hostile/findings3_nicegui.html): E16 an input whose ``list`` names no datalist is a text field; E17
`select` on a read-only input drawn as a drop-down says to tap it, then the option; E18 a
tapped button whose content span got listeners from the press is still one button; E19 the view after a tap waits
for the server's answer over a WebSocket."""

from __future__ import annotations

import base64
import hashlib
import socketserver
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from web_runner import HostileSite, node

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    """The module's phone on the session's runner (conftest.py): each test opens the page it starts from."""
    return module_phone


def test_e16_an_input_whose_list_names_no_datalist_is_a_text_field_and_fill_finds_it(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_nicegui.html"))
    assert node(phone, "name")["type"] == "TextField"
    assert node(phone, "fruit")["type"] == "ComboBox"  # a list naming a real datalist still is one
    phone.fill("role=TextField label=Name", "Grace Hopper")
    assert node(phone, "name")["value"] == "Grace Hopper"


def test_e18_a_tapped_button_is_one_button_not_a_button_inside_a_button(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_nicegui.html"))
    phone.tap('role=Button label="Add contact"')
    nodes = phone.snapshot().nodes
    assert [n.get("identifier") for n in nodes if n.get("label") == "Add contact"] == ["add"]
    assert node(phone, "added")["label"] == "1"
    phone.tap('role=Button label="Add contact"')  # one match: no ambiguity between the button and its content
    assert node(phone, "added")["label"] == "2"


class _SlowEcho(socketserver.StreamRequestHandler):
    """A WebSocket server in a few lines (RFC 6455: the handshake, one masked text frame in, one text frame out):
    answers each message 200 ms later with ``Saved <message>``."""

    def handle(self) -> None:
        key = ""
        while (line := self.rfile.readline().decode("latin-1").strip()) != "":
            name, _, value = line.partition(":")
            if name.strip().lower() == "sec-websocket-key":
                key = value.strip()
        accept = base64.b64encode(hashlib.sha1((key + _WS_GUID).encode()).digest()).decode()
        self.wfile.write(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode()
        )
        while head := self.rfile.read(2):
            opcode, length = head[0] & 0x0F, head[1] & 0x7F
            if length == 126:
                length = struct.unpack("!H", self.rfile.read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self.rfile.read(8))[0]
            mask = self.rfile.read(4)
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(self.rfile.read(length)))
            if opcode == 8:  # close
                return
            time.sleep(0.2)
            answer = b"Saved " + data
            self.wfile.write(bytes([0x81, len(answer)]) + answer)


_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@pytest.fixture
def slow_socket() -> Iterator[int]:
    server = _Server(("127.0.0.1", 0), _SlowEcho)
    thread = threading.Thread(target=server.serve_forever, name="slow-socket", daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_e19_the_view_after_a_tap_waits_for_the_servers_answer_over_a_websocket(
    phone: phonewire.Phone, hostile_site: HostileSite, slow_socket: int
) -> None:
    phone.open(hostile_site.url(f"socket_dialog.html?ws={slow_socket}"))
    phone.wait('"open"')  # the socket is connected
    phone.tap("id=save")
    view = phone.snapshot()  # the first look after the tap: the server answers 200 ms after the message
    assert not [n for n in view.nodes if n.get("identifier") in ("dialog", "save")]
    assert node(phone, "status")["label"] == "Saved save"


def test_e17_select_on_a_read_only_drawn_drop_down_says_tap_it_then_the_option(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_nicegui.html"))
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.select("id=team", ["Engineering"])
    assert info.value.code == e.INVALID_REQUEST
    assert info.value.hint == "Tap it, then tap the option in the list it opens (`snapshot` shows the options)."
    assert node(phone, "team")["value"] == "Sales"  # nothing was set
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.select("id=code", ["C-43"])
    assert (info.value.code, info.value.hint) == (e.INVALID_REQUEST, "It cannot be set.")  # a plain read-only field
