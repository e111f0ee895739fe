"""How common each byte is in TensorRT logs: which byte of a literal to key a search on.

Shared by the matcher's literal index, the prefilter literal choice (`regexes.tolerant_literal`) and
the reading layer's finders. Only ever changes how fast a line is found, never whether it is.
"""

from __future__ import annotations

# Rough byte frequencies (per 10,000) in TensorRT logs (verbose trtexec and the sample logs); bytes not
# listed are rare. Only used to choose which byte of a literal the pure finder keys on: never affects
# which lines are found.
_FREQ = {
    " ": 735, "0": 660, "2": 521, "1": 436, "e": 422, "/": 387, "t": 327, "i": 318, "c": 317, ":": 296,
    "n": 281, "o": 279, "a": 271, "[": 251, "]": 251, "T": 248, "_": 237, "m": 203, "-": 199, "3": 188,
    "4": 177, "r": 170, "s": 167, "l": 160, "d": 147, "5": 130, "8": 124, "x": 124, "6": 124, "v": 118,
    "f": 115, ".": 110, "p": 102, "u": 102, "R": 97, "g": 95, "\n": 86, "9": 81, "V": 66, "7": 62,
    "N": 52, "b": 50, "C": 49, ",": 42, "h": 41, "(": 41, ")": 41, "*": 39, "P": 39, "S": 38, "w": 36,
    "k": 31, "W": 31, "z": 31, ">": 22, "y": 22, "M": 20, "I": 20, "=": 19, "A": 14, "q": 14, "F": 14,
    "O": 12, "L": 11, "D": 11, "+": 11, "U": 9, "E": 9, "j": 5, "G": 4, "X": 4, "B": 4, "H": 3, "Q": 2,
}
BYTE_FREQ = [1] * 256
for _ch, _f in _FREQ.items():
    BYTE_FREQ[ord(_ch)] = _f + 1
del _ch, _f
