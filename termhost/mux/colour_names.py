"""tmux's colour names (`red`, `colour208`, `#ff8700`, X11's `DarkSeaGreen`) as RGB.

The `c:` format modifier prints a colour as its six-digit RGB value, and tmux gets there
through its colour_fromstring and colour_force_rgb: the 16 ANSI names and digits, the 256
palette as `colourN`/`colorN`, `#rrggbb`, `grey0`-`grey100` computed, and the X11 colour
names. Those names are written out below (X11's rgb.txt without the computed greys, as tmux
3.3a accepts them: case ignored, and a `_` where the spaced form, `alice blue`, is also
taken); tests/mux/test_formats.py holds each answer equal to tmux's.
"""

from __future__ import annotations

import math
from functools import lru_cache

from termhost.mux.libc import strtonum

__all__ = ["colour_rgb"]

_ANSI = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
_CUBE = (0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF)
_PALETTE_16 = (
    0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xC0C0C0,
    0x808080, 0xFF0000, 0x00FF00, 0xFFFF00, 0x0000FF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
)
"""The RGB tmux gives colours 0-15 (not xterm's: tmux uses the VGA-like values)."""

_X11 = """
    alice_blue=f0f8ff antique_white=faebd7 antiquewhite1=ffefdb antiquewhite2=eedfcc
    antiquewhite3=cdc0b0 antiquewhite4=8b8378 aquamarine=7fffd4 aquamarine1=7fffd4
    aquamarine2=76eec6 aquamarine3=66cdaa aquamarine4=458b74 azure=f0ffff azure1=f0ffff
    azure2=e0eeee azure3=c1cdcd azure4=838b8b beige=f5f5dc bisque=ffe4c4 bisque1=ffe4c4
    bisque2=eed5b7 bisque3=cdb79e bisque4=8b7d6b black=000000 blanched_almond=ffebcd
    blue=0000ff blue1=0000ff blue2=0000ee blue3=0000cd blue4=00008b blue_violet=8a2be2
    brown=a52a2a brown1=ff4040 brown2=ee3b3b brown3=cd3333 brown4=8b2323 burlywood=deb887
    burlywood1=ffd39b burlywood2=eec591 burlywood3=cdaa7d burlywood4=8b7355
    cadet_blue=5f9ea0 cadetblue1=98f5ff cadetblue2=8ee5ee cadetblue3=7ac5cd
    cadetblue4=53868b chartreuse=7fff00 chartreuse1=7fff00 chartreuse2=76ee00
    chartreuse3=66cd00 chartreuse4=458b00 chocolate=d2691e chocolate1=ff7f24
    chocolate2=ee7621 chocolate3=cd661d chocolate4=8b4513 coral=ff7f50 coral1=ff7256
    coral2=ee6a50 coral3=cd5b45 coral4=8b3e2f cornflower_blue=6495ed cornsilk=fff8dc
    cornsilk1=fff8dc cornsilk2=eee8cd cornsilk3=cdc8b1 cornsilk4=8b8878 cyan=00ffff
    cyan1=00ffff cyan2=00eeee cyan3=00cdcd cyan4=008b8b dark_blue=00008b dark_cyan=008b8b
    dark_goldenrod=b8860b darkgoldenrod1=ffb90f darkgoldenrod2=eead0e darkgoldenrod3=cd950c
    darkgoldenrod4=8b6508 dark_gray=a9a9a9 dark_green=006400 dark_grey=a9a9a9
    dark_khaki=bdb76b dark_magenta=8b008b dark_olive_green=556b2f darkolivegreen1=caff70
    darkolivegreen2=bcee68 darkolivegreen3=a2cd5a darkolivegreen4=6e8b3d dark_orange=ff8c00
    darkorange1=ff7f00 darkorange2=ee7600 darkorange3=cd6600 darkorange4=8b4500
    dark_orchid=9932cc darkorchid1=bf3eff darkorchid2=b23aee darkorchid3=9a32cd
    darkorchid4=68228b dark_red=8b0000 dark_salmon=e9967a dark_sea_green=8fbc8f
    darkseagreen1=c1ffc1 darkseagreen2=b4eeb4 darkseagreen3=9bcd9b darkseagreen4=698b69
    dark_slate_blue=483d8b dark_slate_gray=2f4f4f darkslategray1=97ffff
    darkslategray2=8deeee darkslategray3=79cdcd darkslategray4=528b8b dark_slate_grey=2f4f4f
    dark_turquoise=00ced1 dark_violet=9400d3 deep_pink=ff1493 deeppink1=ff1493
    deeppink2=ee1289 deeppink3=cd1076 deeppink4=8b0a50 deep_sky_blue=00bfff
    deepskyblue1=00bfff deepskyblue2=00b2ee deepskyblue3=009acd deepskyblue4=00688b
    dim_gray=696969 dim_grey=696969 dodger_blue=1e90ff dodgerblue1=1e90ff dodgerblue2=1c86ee
    dodgerblue3=1874cd dodgerblue4=104e8b firebrick=b22222 firebrick1=ff3030
    firebrick2=ee2c2c firebrick3=cd2626 firebrick4=8b1a1a floral_white=fffaf0
    forest_green=228b22 gainsboro=dcdcdc ghost_white=f8f8ff gold=ffd700 gold1=ffd700
    gold2=eec900 gold3=cdad00 gold4=8b7500 goldenrod=daa520 goldenrod1=ffc125
    goldenrod2=eeb422 goldenrod3=cd9b1d goldenrod4=8b6914 gray=bebebe green=00ff00
    green1=00ff00 green2=00ee00 green3=00cd00 green4=008b00 green_yellow=adff2f grey=bebebe
    honeydew=f0fff0 honeydew1=f0fff0 honeydew2=e0eee0 honeydew3=c1cdc1 honeydew4=838b83
    hot_pink=ff69b4 hotpink1=ff6eb4 hotpink2=ee6aa7 hotpink3=cd6090 hotpink4=8b3a62
    indian_red=cd5c5c indianred1=ff6a6a indianred2=ee6363 indianred3=cd5555
    indianred4=8b3a3a ivory=fffff0 ivory1=fffff0 ivory2=eeeee0 ivory3=cdcdc1 ivory4=8b8b83
    khaki=f0e68c khaki1=fff68f khaki2=eee685 khaki3=cdc673 khaki4=8b864e lavender=e6e6fa
    lavender_blush=fff0f5 lavenderblush1=fff0f5 lavenderblush2=eee0e5 lavenderblush3=cdc1c5
    lavenderblush4=8b8386 lawn_green=7cfc00 lemon_chiffon=fffacd lemonchiffon1=fffacd
    lemonchiffon2=eee9bf lemonchiffon3=cdc9a5 lemonchiffon4=8b8970 light_blue=add8e6
    lightblue1=bfefff lightblue2=b2dfee lightblue3=9ac0cd lightblue4=68838b
    light_coral=f08080 light_cyan=e0ffff lightcyan1=e0ffff lightcyan2=d1eeee
    lightcyan3=b4cdcd lightcyan4=7a8b8b light_goldenrod=eedd82 lightgoldenrod1=ffec8b
    lightgoldenrod2=eedc82 lightgoldenrod3=cdbe70 lightgoldenrod4=8b814c
    light_goldenrod_yellow=fafad2 light_gray=d3d3d3 light_green=90ee90 light_grey=d3d3d3
    light_pink=ffb6c1 lightpink1=ffaeb9 lightpink2=eea2ad lightpink3=cd8c95
    lightpink4=8b5f65 light_salmon=ffa07a lightsalmon1=ffa07a lightsalmon2=ee9572
    lightsalmon3=cd8162 lightsalmon4=8b5742 light_sea_green=20b2aa light_sky_blue=87cefa
    lightskyblue1=b0e2ff lightskyblue2=a4d3ee lightskyblue3=8db6cd lightskyblue4=607b8b
    light_slate_blue=8470ff light_slate_gray=778899 light_slate_grey=778899
    light_steel_blue=b0c4de lightsteelblue1=cae1ff lightsteelblue2=bcd2ee
    lightsteelblue3=a2b5cd lightsteelblue4=6e7b8b light_yellow=ffffe0 lightyellow1=ffffe0
    lightyellow2=eeeed1 lightyellow3=cdcdb4 lightyellow4=8b8b7a lime_green=32cd32
    linen=faf0e6 magenta=ff00ff magenta1=ff00ff magenta2=ee00ee magenta3=cd00cd
    magenta4=8b008b maroon=b03060 maroon1=ff34b3 maroon2=ee30a7 maroon3=cd2990
    maroon4=8b1c62 medium_aquamarine=66cdaa medium_blue=0000cd medium_orchid=ba55d3
    mediumorchid1=e066ff mediumorchid2=d15fee mediumorchid3=b452cd mediumorchid4=7a378b
    medium_purple=9370db mediumpurple1=ab82ff mediumpurple2=9f79ee mediumpurple3=8968cd
    mediumpurple4=5d478b medium_sea_green=3cb371 medium_slate_blue=7b68ee
    medium_spring_green=00fa9a medium_turquoise=48d1cc medium_violet_red=c71585
    midnight_blue=191970 mint_cream=f5fffa misty_rose=ffe4e1 mistyrose1=ffe4e1
    mistyrose2=eed5d2 mistyrose3=cdb7b5 mistyrose4=8b7d7b moccasin=ffe4b5
    navajo_white=ffdead navajowhite1=ffdead navajowhite2=eecfa1 navajowhite3=cdb38b
    navajowhite4=8b795e navy=000080 navy_blue=000080 old_lace=fdf5e6 olive_drab=6b8e23
    olivedrab1=c0ff3e olivedrab2=b3ee3a olivedrab3=9acd32 olivedrab4=698b22 orange=ffa500
    orange1=ffa500 orange2=ee9a00 orange3=cd8500 orange4=8b5a00 orange_red=ff4500
    orangered1=ff4500 orangered2=ee4000 orangered3=cd3700 orangered4=8b2500 orchid=da70d6
    orchid1=ff83fa orchid2=ee7ae9 orchid3=cd69c9 orchid4=8b4789 pale_goldenrod=eee8aa
    pale_green=98fb98 palegreen1=9aff9a palegreen2=90ee90 palegreen3=7ccd7c
    palegreen4=548b54 pale_turquoise=afeeee paleturquoise1=bbffff paleturquoise2=aeeeee
    paleturquoise3=96cdcd paleturquoise4=668b8b pale_violet_red=db7093 palevioletred1=ff82ab
    palevioletred2=ee799f palevioletred3=cd6889 palevioletred4=8b475d papaya_whip=ffefd5
    peach_puff=ffdab9 peachpuff1=ffdab9 peachpuff2=eecbad peachpuff3=cdaf95
    peachpuff4=8b7765 peru=cd853f pink=ffc0cb pink1=ffb5c5 pink2=eea9b8 pink3=cd919e
    pink4=8b636c plum=dda0dd plum1=ffbbff plum2=eeaeee plum3=cd96cd plum4=8b668b
    powder_blue=b0e0e6 purple=a020f0 purple1=9b30ff purple2=912cee purple3=7d26cd
    purple4=551a8b red=ff0000 red1=ff0000 red2=ee0000 red3=cd0000 red4=8b0000
    rosy_brown=bc8f8f rosybrown1=ffc1c1 rosybrown2=eeb4b4 rosybrown3=cd9b9b
    rosybrown4=8b6969 royal_blue=4169e1 royalblue1=4876ff royalblue2=436eee
    royalblue3=3a5fcd royalblue4=27408b saddle_brown=8b4513 salmon=fa8072 salmon1=ff8c69
    salmon2=ee8262 salmon3=cd7054 salmon4=8b4c39 sandy_brown=f4a460 sea_green=2e8b57
    seagreen1=54ff9f seagreen2=4eee94 seagreen3=43cd80 seagreen4=2e8b57 seashell=fff5ee
    seashell1=fff5ee seashell2=eee5de seashell3=cdc5bf seashell4=8b8682 sienna=a0522d
    sienna1=ff8247 sienna2=ee7942 sienna3=cd6839 sienna4=8b4726 sky_blue=87ceeb
    skyblue1=87ceff skyblue2=7ec0ee skyblue3=6ca6cd skyblue4=4a708b slate_blue=6a5acd
    slateblue1=836fff slateblue2=7a67ee slateblue3=6959cd slateblue4=473c8b
    slate_gray=708090 slategray1=c6e2ff slategray2=b9d3ee slategray3=9fb6cd
    slategray4=6c7b8b slate_grey=708090 snow=fffafa snow1=fffafa snow2=eee9e9 snow3=cdc9c9
    snow4=8b8989 spring_green=00ff7f springgreen1=00ff7f springgreen2=00ee76
    springgreen3=00cd66 springgreen4=008b45 steel_blue=4682b4 steelblue1=63b8ff
    steelblue2=5cacee steelblue3=4f94cd steelblue4=36648b tan=d2b48c tan1=ffa54f tan2=ee9a49
    tan3=cd853f tan4=8b5a2b thistle=d8bfd8 thistle1=ffe1ff thistle2=eed2ee thistle3=cdb5cd
    thistle4=8b7b8b tomato=ff6347 tomato1=ff6347 tomato2=ee5c42 tomato3=cd4f39
    tomato4=8b3626 turquoise=40e0d0 turquoise1=00f5ff turquoise2=00e5ee turquoise3=00c5cd
    turquoise4=00868b violet=ee82ee violet_red=d02090 violetred1=ff3e96 violetred2=ee3a8c
    violetred3=cd3278 violetred4=8b2252 wheat=f5deb3 wheat1=ffe7ba wheat2=eed8ae
    wheat3=cdba96 wheat4=8b7e66 white=ffffff white_smoke=f5f5f5 yellow=ffff00 yellow1=ffff00
    yellow2=eeee00 yellow3=cdcd00 yellow4=8b8b00 yellow_green=9acd32
"""


def colour_rgb(name: str) -> int | None:
    """The RGB value of a tmux colour name, or None for one without (`default`,
    `terminal`, `none`) or that tmux does not know."""
    if name.startswith("#"):
        digits = name[1:]
        if len(digits) == 6 and all(c in "0123456789abcdefABCDEF" for c in digits):
            return int(digits, 16)
        return None
    lowered = name.lower()
    for prefix in ("colour", "color"):
        if lowered.startswith(prefix):
            index, error = strtonum(name[len(prefix):], 0, 255)
            return None if error is not None else _palette(index)
    if lowered in _ANSI:
        return _palette(_ANSI.index(lowered))
    if len(name) == 1 and name in "01234567":
        return _palette(int(name))
    if lowered.startswith("bright") and lowered[6:] in _ANSI:
        return _palette(8 + _ANSI.index(lowered[6:]))
    if len(name) == 2 and name[0] == "9" and name[1] in "01234567":
        return _palette(8 + int(name[1]))
    return _by_name(name)


def _palette(index: int) -> int:
    """colour_256toRGB: 0-15 as tmux's table, then xterm's 6x6x6 cube and 24 greys."""
    if index < 16:
        return _PALETTE_16[index]
    if index < 232:
        red, green, blue = (index - 16) // 36, (index - 16) // 6 % 6, (index - 16) % 6
        return _CUBE[red] << 16 | _CUBE[green] << 8 | _CUBE[blue]
    grey = 8 + (index - 232) * 10
    return grey << 16 | grey << 8 | grey


def _by_name(name: str) -> int | None:
    """colour_byname: `grey`/`gray` and a number are computed (the prefix is matched with
    case, the number read as atoi reads it), the rest looked up ignoring case."""
    number = name[4:]
    if name[:4] in ("grey", "gray"):
        if number[:1] not in tuple("0123456789"):
            return 0xBEBEBE  # X11's plain grey, whatever follows
        digits = len(number) - len(number.lstrip("0123456789"))
        level = _round(2.55 * int(number[:digits]))
        return level << 16 | level << 8 | level if level <= 255 else None
    return _names().get(name.lower())


def _round(value: float) -> int:
    """C's round() for a positive value: halves away from zero (Python's round() goes
    to even)."""
    whole = math.floor(value)
    return whole + 1 if value - whole >= 0.5 else whole


@lru_cache(maxsize=1)
def _names() -> dict[str, int]:
    names = {}
    for entry in _X11.split():
        key, _, rgb = entry.partition("=")
        names[key.replace("_", "")] = names[key.replace("_", " ")] = int(rgb, 16)
    return names

