"""Byte sequences whose screens must match tmux's: the differential corpus.

Each case is (name, bytes, cols, rows); the name's prefix before "/" is its category.
Most screens are 20x6 so that a difference is easy to read. The bytes go to the
terminal exactly as written (tmux's pane tty is raw: \\n is a bare line feed).

Where tmux and xterm disagree, the case follows tmux (it is the reference) and says so.
Widths of wide and emoji characters are tmux 3.3's on glibc's tables. After a character
in the last column tmux reports the cursor one past it (x == cols) until the next
character wraps; the emulator must report the same.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CASES", "Case"]

ESC = b"\x1b"
CSI = b"\x1b["
OSC = b"\x1b]"
ST = b"\x1b\\"


class Case(NamedTuple):
    """One byte sequence and the size of the screen it is played on."""

    name: str
    data: bytes
    cols: int = 20
    rows: int = 6


def grid(cols: int = 20, rows: int = 6) -> bytes:
    """Fill every row, placed by CUP, with a letter per row and digits: A123456789012...

    Ends at home. Every cell is distinct enough to see what moved where.
    """
    out = b""
    for row in range(rows):
        text = chr(ord("A") + row) + "".join(str(i % 10) for i in range(1, cols))
        out += CSI + b"%d;1H" % (row + 1) + text.encode()
    return out + CSI + b"H"


def at(row: int, col: int) -> bytes:
    """CUP to a 1-based row and column."""
    return CSI + b"%d;%dH" % (row, col)


ALPHABET = b"abcdefghijklmnopqrst"  # exactly 20 columns

CASES: list[Case] = [
    # --- cursor motion: each motion is followed by an X that shows where it landed
    Case("motion/cuu", b"\n\n\nabc" + CSI + b"2AX"),
    Case("motion/cuu-past-top", b"ab\n" + CSI + b"10AX"),
    Case("motion/cuu-zero-means-one", b"\n\nab" + CSI + b"0AX"),
    Case("motion/cud-past-bottom", b"ab" + CSI + b"10BX"),
    Case("motion/cuf-past-right", CSI + b"30CX"),
    Case("motion/cuf-huge-param", b"ab" + CSI + b"99999CX"),
    Case("motion/cub-past-left", b"abc" + CSI + b"10DX"),
    Case("motion/cup", CSI + b"3;7HX"),
    Case("motion/cup-huge-params", CSI + b"99999;99999HX"),
    Case("motion/cup-zero-params-are-home", at(3, 5) + b"X" + CSI + b"0;0HY"),
    Case("motion/cup-no-params-is-home", at(3, 5) + b"X" + CSI + b"HY"),
    Case("motion/cup-row-only", at(2, 9) + CSI + b"4HX"),
    Case("motion/cup-column-only", CSI + b";5HX"),
    Case("motion/cup-extra-params-ignored", CSI + b"2;3;4HX"),
    Case("motion/hvp", CSI + b"3;7fX"),
    Case("motion/cha", b"abcdef" + CSI + b"3GX"),
    Case("motion/cha-past-right", b"\nab" + CSI + b"50GX"),
    Case("motion/hpa", b"abcdef" + CSI + b"5`X"),
    Case("motion/vpa-keeps-column", b"abc" + CSI + b"4dX"),
    Case("motion/vpa-past-bottom", b"abc" + CSI + b"99dX"),
    Case("motion/cnl", b"abc" + CSI + b"2EX"),
    Case("motion/cnl-past-bottom", b"abc" + CSI + b"9EX"),
    Case("motion/cpl", at(5, 8) + CSI + b"2FX"),
    Case("motion/cpl-past-top", at(2, 8) + CSI + b"9FX"),
    Case("motion/all-directions-40x10", at(5, 20) + b"O" + CSI + b"2A" + b"N" + CSI + b"4B" + b"S"
         + CSI + b"2A" + CSI + b"5C" + b"E" + CSI + b"12D" + b"W", 40, 10),
    # tmux keeps the cursor one past the last column after an exact-width line (x == cols)
    # and moves back from there: CUB 1 lands on the last column. xterm moves from the
    # last column (its pending-wrap flag aside) and lands one further left.
    Case("motion/cub-from-pending-wrap", ALPHABET + CSI + b"DX"),
    Case("motion/cuf-from-pending-wrap", ALPHABET + CSI + b"CX"),

    # --- editing: insert, delete and erase characters and lines
    Case("edit/ich", b"abcdefghij" + at(1, 3) + CSI + b"2@X"),
    Case("edit/ich-pushes-off-the-edge", grid() + at(2, 5) + CSI + b"3@"),
    # ICH of more than half the rest of the line is left out: tmux 3.3 moves the cells
    # but blanks only as many as it moved (ICH 9 at column 5 gives B123       124567890)
    # and, for the whole rest or more (CSI 99999 @), changes nothing; xterm blanks them.
    Case("edit/ich-half-the-rest", grid() + at(2, 5) + CSI + b"8@"),
    Case("edit/dch", b"abcdefghij" + at(1, 3) + CSI + b"3P"),
    Case("edit/dch-huge-param", grid() + at(3, 5) + CSI + b"99999P"),
    Case("edit/ech", b"abcdefghij" + at(1, 3) + CSI + b"4X"),
    Case("edit/ech-past-the-edge", grid() + at(4, 15) + CSI + b"99X"),
    # IL and DL leave the cursor's column alone in tmux; pyte moves it to column 0.
    Case("edit/il", grid() + at(3, 4) + CSI + b"2L"),
    Case("edit/il-huge-param", grid() + at(3, 4) + CSI + b"99999L"),
    Case("edit/dl", grid() + at(2, 4) + CSI + b"2M"),
    Case("edit/dl-huge-param", grid() + at(2, 4) + CSI + b"99999M"),
    Case("edit/insert-mode", b"abcdef\r" + CSI + b"4hXY" + CSI + b"4lZ"),
    Case("edit/insert-mode-pushes-off-the-edge", ALPHABET + b"\r" + CSI + b"4h12345"),

    # --- erase in display and in line
    Case("erase/ed0", grid() + at(3, 5) + CSI + b"J"),
    Case("erase/ed1", grid() + at(3, 5) + CSI + b"1J"),
    Case("erase/ed2-keeps-cursor", grid() + at(3, 5) + CSI + b"2JX"),
    # ED 3 clears the scrollback only: the screen stays as it is.
    Case("erase/ed3-keeps-screen", grid() + at(3, 5) + CSI + b"3JX"),
    Case("erase/el0", grid() + at(2, 8) + CSI + b"K"),
    Case("erase/el1", grid() + at(2, 8) + CSI + b"1K"),
    Case("erase/el2", grid() + at(2, 8) + CSI + b"2K"),
    # tmux's cursor is past the last column after an exact-width line, so EL 0 there
    # erases nothing; xterm erases the last column.
    Case("erase/el0-from-pending-wrap", ALPHABET + CSI + b"K"),

    # --- tabs: default stops every 8 columns
    Case("tab/ht-default-stops", b"a\tb\tc"),
    Case("tab/ht-past-last-stop", b"\t\t\t\tX"),
    Case("tab/ht-does-not-erase", b"abcdefghij\r\tX"),
    Case("tab/hts", at(1, 4) + ESC + b"H\r\tX\tY"),
    Case("tab/tbc0-clears-one", at(1, 9) + CSI + b"g\r\tX"),
    Case("tab/tbc3-clears-all", CSI + b"3g\r\tX"),
    Case("tab/cbt", at(1, 19) + CSI + b"ZX" + at(2, 19) + CSI + b"2ZY"),
    Case("tab/cbt-past-left", at(1, 4) + CSI + b"5ZX"),
    # tmux has no CHT (CSI I) and ignores it; xterm moves to the next tab stop.
    Case("tab/cht-ignored", b"ab" + CSI + b"2IX"),

    # --- SGR: capture-pane has no colours, but a misparsed SGR shows up as text
    Case("sgr/mix", CSI + b"1;4;31mbold" + CSI + b"0m plain " + CSI + b"7;5minv" + CSI + b"m."),
    Case("sgr/256-and-truecolour",
         CSI + b"38;5;196ma" + CSI + b"48;2;10;20;30mb" + CSI + b"38;2;1;2;3;48;5;7mc"
         + CSI + b"mdone"),
    Case("sgr/colon-subparams",
         CSI + b"4:3mu" + CSI + b"38:2::255:0:0mr" + CSI + b"58:5:3mc" + CSI + b"mok"),
    Case("sgr/empty-and-out-of-range", CSI + b";;ma" + CSI + b"99999mb" + CSI + b"38;5mc"),
    Case("sgr/more-params-than-tmux-keeps", CSI + b";".join([b"1"] * 40) + b"mtext after"),
    Case("sgr/private-markers", CSI + b">4;1ma" + CSI + b"?5mb" + CSI + b"=1mc"),

    # --- scroll regions (DECSTBM) and the margins
    Case("region/lf-at-bottom-margin", grid() + CSI + b"2;4r" + at(4, 3) + b"\nX"),
    Case("region/ind-at-bottom-margin", grid() + CSI + b"2;4r" + at(4, 3) + ESC + b"DX"),
    Case("region/nel-at-bottom-margin", grid() + CSI + b"2;4r" + at(4, 3) + ESC + b"EX"),
    Case("region/ri-at-top-margin", grid() + CSI + b"2;4r" + at(2, 3) + ESC + b"MX"),
    Case("region/il-inside", grid() + CSI + b"2;4r" + at(3, 1) + CSI + b"L"),
    Case("region/dl-inside", grid() + CSI + b"2;4r" + at(2, 1) + CSI + b"2M"),
    # IL and DL with the cursor outside the region: tmux acts on the lines from the cursor
    # to the bottom of the screen, as if there were no region; xterm does nothing.
    Case("region/il-below-region", grid() + CSI + b"2;4r" + at(5, 1) + CSI + b"L"),
    Case("region/dl-above-region", grid() + CSI + b"2;4r" + at(1, 1) + CSI + b"M"),
    Case("region/lf-below-region-at-screen-bottom",
         grid() + CSI + b"2;4r" + at(6, 3) + b"\nX\nY"),
    Case("region/lf-above-region", grid() + CSI + b"3;5r" + at(1, 3) + b"\nX\nY\nZ"),
    Case("region/cuu-stops-at-top-margin", grid() + CSI + b"2;4r" + at(3, 5) + CSI + b"9AX"),
    Case("region/cud-stops-at-bottom-margin", grid() + CSI + b"2;4r" + at(3, 5) + CSI + b"9BX"),
    Case("region/cuu-from-below-stops-at-top-margin", grid() + CSI + b"2;3r" + at(6, 5)
         + CSI + b"9AX"),
    Case("region/su", grid() + CSI + b"2;5r" + CSI + b"2S"),
    Case("region/sd", grid() + CSI + b"2;5r" + CSI + b"2T"),
    Case("region/su-huge-param", grid() + CSI + b"2;5r" + CSI + b"99999S"),
    Case("region/sd-huge-param", grid() + CSI + b"2;5r" + CSI + b"99999T"),
    Case("region/decstbm-homes-cursor", at(4, 4) + CSI + b"2;5rX"),
    # tmux homes the cursor for every region it sets, the whole screen's (CSI r) too, and
    # to the screen's top left even in origin mode (xterm: to the region's top).
    Case("region/reset-homes-cursor", at(4, 4) + CSI + b"rX"),
    Case("region/zero-top-is-the-first-row", at(4, 4) + CSI + b"0;3rX"),
    Case("region/empty-bottom-is-the-last-row", grid() + CSI + b"2;r" + at(6, 1) + b"\nX"),
    Case("region/decstbm-from-pending-wrap", ALPHABET + CSI + b"2;4rX"),
    Case("region/origin-mode-decstbm-homes-to-screen",
         CSI + b"?6h" + at(4, 4) + CSI + b"2;5rX"),
    # A region of one row (0;0 is 1;1) is ignored: the cursor stays.
    Case("region/one-row-is-ignored", at(4, 4) + CSI + b"3;3rX"),
    Case("region/zero-zero-is-ignored", at(4, 4) + CSI + b"0;0rX"),
    # Top not above bottom: ignored, so the whole screen still scrolls.
    Case("region/invalid-is-ignored", grid() + CSI + b"4;2r" + at(6, 1) + b"\nX"),
    Case("region/reset-with-no-params", grid() + CSI + b"2;3r" + CSI + b"r" + at(6, 1) + b"\nX"),
    Case("region/wrap-at-bottom-margin", CSI + b"2;3r" + at(3, 1) + ALPHABET + b"XYZ"),
    Case("region/origin-mode-cup",
         grid() + CSI + b"2;4r" + CSI + b"?6h" + CSI + b"1;1HX" + CSI + b"9;9HY"),
    Case("region/origin-mode-homes-to-region", CSI + b"3;5r" + CSI + b"?6hX"),
    Case("region/origin-mode-off-homes-to-screen",
         CSI + b"3;5r" + CSI + b"?6h" + CSI + b"?6lX"),

    # --- autowrap at the right margin
    Case("wrap/exact-width-then-text", ALPHABET + b"X"),
    Case("wrap/exact-width-then-crlf", ALPHABET + b"\r\nX"),
    Case("wrap/long-line", ALPHABET + ALPHABET + b"12345"),
    Case("wrap/at-bottom-scrolls", b"\n" * 5 + ALPHABET + ALPHABET[:5]),
    Case("wrap/pending-wrap-then-cr", ALPHABET + b"\rX"),
    # tmux: BS from past the last column lands on the last column; xterm lands one left.
    Case("wrap/pending-wrap-then-bs", ALPHABET + b"\bX"),
    Case("wrap/decawm-off-overwrites-last-column", CSI + b"?7l" + ALPHABET + b"XYZ"),
    Case("wrap/decawm-back-on", CSI + b"?7l" + ALPHABET + b"XY" + CSI + b"?7h" + b"Z12"),
    Case("wrap/40x10-paragraph",
         b"The quick brown fox jumps over the lazy dog and keeps running. " * 3, 40, 10),

    # --- wide characters (two columns each). Editing from the *right* half of one is left
    # out: tmux 3.3 then keeps the left half in its grid (ASCII over the right half, ECH,
    # ICH, DCH, EL 0 there), capture-pane shows rows wider than the pane (中b文 for b
    # written over 中's right half) and drops orphaned right halves, shifting the text
    # after them: no screen a terminal could show. Non-ASCII goes through tmux's careful
    # path, which clears the whole character.
    Case("wide/cjk", "中文字符 mixed".encode()),
    Case("wide/at-last-column-wraps", (ALPHABET[:19].decode() + "中x").encode()),
    Case("wide/exact-fit", ("中" * 10 + "x").encode()),
    Case("wide/overwrite-left-half", "中文".encode() + b"\ra"),
    Case("wide/overwrite-right-half-non-ascii", "中文".encode() + at(1, 2) + "é".encode()),
    Case("wide/ich-before", "中文".encode() + b"\r" + CSI + b"@"),
    Case("wide/ich-pushes-off-the-edge", "ab中cd".encode() + at(1, 2) + CSI + b"2@"),
    Case("wide/dch-whole", "中文x".encode() + b"\r" + CSI + b"2P"),
    Case("wide/ech-whole", "中文x".encode() + b"\r" + CSI + b"2X"),
    Case("wide/el1-from-right-half", "中文x".encode() + at(1, 2) + CSI + b"1K"),
    Case("wide/cursor-after", "ab中".encode()),
    # With autowrap off, tmux drops a wide character that does not fit in the last column.
    Case("wide/decawm-off-at-last-column", CSI + b"?7l" + (ALPHABET[:19].decode() + "中").encode()),

    # --- combining marks join the character before them
    Case("combining/e-acute", "e\u0301x cafe\u0301".encode()),
    Case("combining/two-marks", "a\u0301\u0302b".encode()),
    Case("combining/on-wide", "中\u0301x".encode()),
    Case("combining/at-line-start", "\u0301ab".encode()),
    Case("combining/after-pending-wrap", (ALPHABET.decode() + "\u0301X").encode()),

    # --- emoji: the text after them must survive
    Case("emoji/wide", "😀x 😀y".encode()),
    # tmux 3.3 keeps U+2764 one column wide with VS16; newer terminals widen it to two.
    Case("emoji/vs16-heart", "\u2764\ufe0fafter".encode()),
    # tmux 3.3 joins a ZWJ sequence into one two-column cell.
    Case("emoji/zwj-family", "\U0001f468\u200d\U0001f469\u200d\U0001f467after".encode()),
    Case("emoji/zwj-family-then-line", "\U0001f468\u200d\U0001f469\u200d\U0001f467 a\nb".encode()),
    # tmux 3.3 joins a pair of regional indicators into one two-column cell.
    Case("emoji/flag", "\U0001f1eb\U0001f1f7x".encode()),
    Case("emoji/skin-tone", "\U0001f44d\U0001f3fdok".encode()),

    # --- malformed and truncated escapes
    Case("malformed/esc-at-end", b"abc" + ESC),
    Case("malformed/csi-at-end", b"abc" + CSI + b"12"),
    Case("malformed/csi-garbage-intermediates", b"ab" + CSI + b"2 !\"CXY"),
    Case("malformed/csi-param-after-intermediate", b"ab" + CSI + b"1!2CX"),
    Case("malformed/csi-unknown-final", b"ab" + CSI + b"5yX"),
    Case("malformed/unterminated-osc-then-bel", b"a" + OSC + b"0;title then text\nmore\x07b"),
    Case("malformed/osc-st", b"a" + OSC + b"2;title" + ST + b"b"),
    Case("malformed/osc-8-hyperlink", OSC + b"8;;http://x/" + ST + b"link" + OSC + b"8;;" + ST
         + b"!"),
    # CAN and SUB abort a sequence; what follows is text. (A VT100 would show a
    # checkerboard for SUB; tmux and xterm show nothing.)
    Case("malformed/can-inside-csi", b"a" + CSI + b"3\x18Cb"),
    Case("malformed/sub-inside-csi", b"a" + CSI + b"3\x1aCb"),
    Case("malformed/lf-inside-csi", b"ab" + CSI + b"2\nAc"),
    Case("malformed/cr-inside-csi", b"abcd" + CSI + b"\r2Cx"),
    Case("malformed/bs-inside-csi", b"abcd" + CSI + b"2\bDx"),
    Case("malformed/esc-inside-csi-restarts", b"a" + CSI + b"2" + CSI + b"3Cb"),
    Case("malformed/dcs-is-swallowed", b"a" + ESC + b"Pq#0;2;0;0;0#0~~" + ST + b"b"),
    Case("malformed/apc-is-swallowed", b"a" + ESC + b"_hidden" + ST + b"b"),
    Case("malformed/pm-and-sos-are-swallowed",
         b"a" + ESC + b"^pm" + ST + ESC + b"Xsos" + ST + b"b"),
    # tmux takes ESC k ... ST as screen's window-name sequence and shows none of it;
    # xterm ignores ESC k and shows the name as text.
    Case("malformed/esc-k-title-is-swallowed", b"a" + ESC + b"kname" + ST + b"b"),
    Case("malformed/unknown-esc-final", b"a" + ESC + b"Qb" + ESC + b"%Gc"),
    Case("malformed/del-and-nul-ignored", b"a\x7fb\x00c"),
    # tmux reads 7-bit controls only: an 8-bit CSI (0x9b) is an invalid UTF-8 byte.
    Case("malformed/8-bit-csi-is-not-csi", b"\x9b2Cx"),

    # --- REP repeats the last printed character. tmux differs from xterm three ways:
    # it stops at the end of the line (xterm wraps), repeats only an ASCII character
    # (xterm any), and forgets the character at any control such as CR (xterm keeps it).
    Case("rep/basic", b"ab" + CSI + b"3b"),
    Case("rep/stops-at-end-of-line", b"a" + CSI + b"30b"),
    Case("rep/wide-is-not-repeated", "中".encode() + CSI + b"2bx"),
    Case("rep/nothing-printed-yet", CSI + b"3bx"),
    Case("rep/forgotten-after-control", b"a\r\n" + CSI + b"2bx"),

    # --- SU/SD without a region
    Case("scroll/su-full-screen", grid() + at(3, 3) + CSI + b"2SX"),
    Case("scroll/sd-full-screen", grid() + at(3, 3) + CSI + b"2TX"),
    Case("scroll/lf-at-bottom", grid() + at(6, 3) + b"\nX"),
    Case("scroll/ri-at-top", grid() + ESC + b"MX"),
    Case("scroll/ri-mid-screen", grid() + at(4, 3) + ESC + b"MX"),

    # --- save and restore the cursor
    Case("save/decsc-decrc", at(3, 5) + ESC + b"7" + CSI + b"Hx" + ESC + b"8y"),
    Case("save/scp-rcp", at(4, 2) + CSI + b"s" + CSI + b"Hx" + CSI + b"uy"),
    Case("save/decrc-without-decsc-goes-home", at(4, 6) + ESC + b"8X"),
    Case("save/decsc-saves-origin-mode",
         CSI + b"3;5r" + CSI + b"?6h" + ESC + b"7" + CSI + b"?6l" + CSI + b"r"
         + at(6, 1) + ESC + b"8X"),

    # --- alternate screens
    Case("alt/1049-round-trip",
         b"main text" + at(3, 4) + CSI + b"?1049h" + b"alt text\nmore" + CSI + b"?1049lX"),
    Case("alt/1049-enter-clears-alt",
         CSI + b"?1049hfirst" + CSI + b"?1049l" + CSI + b"?1049h" + at(2, 1) + b"second"),
    Case("alt/1049-active-at-end", b"main" + CSI + b"?1049h" + at(2, 3) + b"only alt"),
    Case("alt/1049-twice-then-leave",
         b"main" + CSI + b"?1049hA" + CSI + b"?1049hB" + CSI + b"?1049lX"),
    Case("alt/47-round-trip", b"main" + CSI + b"?47h" + at(3, 1) + b"alt" + CSI + b"?47lX"),
    Case("alt/1047-round-trip", b"main" + CSI + b"?1047h" + at(3, 1) + b"alt" + CSI + b"?1047lX"),
    Case("alt/1049-scroll-in-alt", b"main" + CSI + b"?1049h" + b"a\nb\nc\nd\ne\nf\ng\nh"
         + CSI + b"?1049lX"),

    # --- C0 controls and simple escapes
    Case("control/bs-at-column-0", b"\bX\b\bY"),
    Case("control/bs-mid-line", b"abcd\b\bX"),
    Case("control/cr", b"abcdef\rXY"),
    Case("control/lf-keeps-column", b"abc\nX"),
    Case("control/vt-and-ff-are-lf", b"ab\x0bc\x0cd"),
    Case("control/bel-ignored", b"a\x07b"),
    Case("control/nel", b"abc" + ESC + b"EX"),
    Case("control/ind", b"abc" + ESC + b"DX"),
    Case("control/ris", grid() + CSI + b"?7l" + CSI + b"2;3r" + ESC + b"cX" + ALPHABET + b"Y"),
    Case("control/decaln", ESC + b"#8" + at(3, 3) + b"X"),
    Case("control/decaln-resets-region",
         CSI + b"2;3r" + ESC + b"#8" + at(6, 1) + b"\nX"),

    # --- invalid UTF-8. xterm shows U+FFFD for each bad sequence; tmux drops them.
    Case("utf8/lone-continuation", b"a\x80b"),
    Case("utf8/truncated-then-ascii", b"a\xe4\xb8b"),
    Case("utf8/overlong", b"a\xc0\xafb"),
    Case("utf8/surrogate", b"a\xed\xa0\x80b"),
    Case("utf8/beyond-unicode", b"a\xf4\x90\x80\x80b"),
    Case("utf8/ff-fe", b"\xff\xfeab"),
    Case("utf8/truncated-at-end", b"ab\xe4\xb8"),
    Case("utf8/valid-after-invalid", b"a\xc3(" + "中b".encode()),
]
