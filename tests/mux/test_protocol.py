"""The client-server wire format: frames survive any cut, garbage is refused cleanly."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.protocol import (
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    Frame,
    FrameDecoder,
    FrameType,
    ProtocolError,
    decode_argv,
    decode_exit,
    decode_hello,
    decode_size,
    encode_argv,
    encode_exit,
    encode_frame,
    encode_hello,
    encode_size,
    version_mismatch,
)

frames = st.lists(
    st.tuples(st.sampled_from(list(FrameType)), st.binary(max_size=300)), max_size=20
)


@settings(max_examples=200)
@given(sent=frames, cuts=st.lists(st.integers(0, 10_000), max_size=10))
def test_frames_arrive_whole_however_the_stream_is_cut(
    sent: list[tuple[FrameType, bytes]], cuts: list[int]
) -> None:
    stream = b"".join(encode_frame(kind, payload) for kind, payload in sent)
    decoder = FrameDecoder()
    received: list[Frame] = []
    points = sorted({0, len(stream), *(c for c in cuts if c < len(stream))})
    for start, end in itertools.pairwise(points):
        received += decoder.feed(stream[start:end])
    assert received == [Frame(kind, payload) for kind, payload in sent]
    assert decoder.pending == 0


@settings(max_examples=300)
@given(garbage=st.binary(max_size=200))
def test_garbage_is_a_protocol_error_or_an_incomplete_frame_never_a_crash(garbage: bytes) -> None:
    decoder = FrameDecoder(max_payload=1000)
    try:
        decoder.feed(garbage)
    except ProtocolError:
        return
    assert decoder.pending < 5 + 1000  # held back, at most one frame's worth


def test_an_oversized_frame_is_refused_from_its_header() -> None:
    header = bytes([FrameType.INPUT]) + (MAX_PAYLOAD + 1).to_bytes(4, "big")
    with pytest.raises(ProtocolError, match="over the limit"):
        FrameDecoder().feed(header)  # refused before any of the payload arrives
    with pytest.raises(ProtocolError, match="over the limit"):
        encode_frame(FrameType.OUTPUT, b"x" * (MAX_PAYLOAD + 1))


def test_an_unknown_frame_type_is_refused() -> None:
    with pytest.raises(ProtocolError, match="unknown frame type 200"):
        FrameDecoder().feed(bytes([200, 0, 0, 0, 0]))


def test_hello_carries_the_version_and_rejects_strangers() -> None:
    (frame,) = FrameDecoder().feed(encode_hello())
    assert decode_hello(frame) == PROTOCOL_VERSION
    (future,) = FrameDecoder().feed(encode_hello(PROTOCOL_VERSION + 1))
    assert decode_hello(future) == PROTOCOL_VERSION + 1
    with pytest.raises(ProtocolError, match="not a termhost"):
        decode_hello(Frame(FrameType.HELLO, b"GET / HTTP"))
    with pytest.raises(ProtocolError, match="not a termhost"):
        decode_hello(Frame(FrameType.COMMAND, b""))
    message = version_mismatch(1, 2)
    assert "version mismatch" in message and "kill-server" in message


def test_command_lines_keep_every_byte() -> None:
    argv = ["new-session", "-d", "-s", "", "printf 'a\tb\n'", "naïve", "\udcff"]
    assert decode_argv(encode_argv(argv)) == argv
    assert decode_argv(encode_argv([])) == []
    with pytest.raises(ValueError, match="NUL"):
        encode_argv(["a\0b"])


def test_sizes_and_exit_statuses_round_trip_and_are_checked() -> None:
    assert decode_size(encode_size(120, 40)) == (120, 40)
    assert decode_exit(encode_exit(-15)) == -15
    with pytest.raises(ValueError):
        encode_size(0, 40)
    with pytest.raises(ProtocolError):
        decode_size(b"\x00\x00\x00\x05")
    with pytest.raises(ProtocolError):
        decode_size(b"\x00")
    with pytest.raises(ProtocolError):
        decode_exit(b"")
