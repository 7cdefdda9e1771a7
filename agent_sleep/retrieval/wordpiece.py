"""The word pieces of a query for all-MiniLM-L6-v2 (BERT uncased), in pure Python.

A cold ``agent-sleep search`` spent ~63 ms in ``tokenizers.Tokenizer.from_file`` (43 ms even
building a WordPiece from vocab.txt) to cut one short query into word pieces. Importing this
module and ``WordPiece.from_vocab`` take about a quarter of the time that importing tokenizers
and ``from_file`` take (a throwaway timing is in this module's first commit), and ``encode``
gives the ids, pieces and word spans that ``tokenizers`` gives with the model's tokenizer.json,
by the same steps as its Rust code:

* the special tokens ([PAD], [UNK], [CLS], [SEP], [MASK]) are found in the raw text first;
* BertNormalizer: NUL, U+FFFD and control chars dropped, whitespace made ' ', a space either
  side of each CJK ideograph, NFD, non-spacing marks dropped, then each char lowercased on its
  own (a final sigma stays σ); every char of the result is aligned with a char of the text as
  tokenizers aligns it (by position where NFD reorders marks);
* BertPreTokenizer: split on whitespace, each punctuation char a word of its own;
* WordPiece: the longest match first, ``##`` before a continuation, one [UNK] for a word of
  more than 100 chars or with a part nothing matches; then [CLS] … [SEP], truncated.

tokenizers' char classes come from Rust crates of an older Unicode than Python's
``unicodedata`` and differ from it at some 500 code points (marks and punctuation added since,
U+1734 still a non-spacing mark, 2B820-2B91F not CJK), so they are copied below as ranges
measured from tokenizers. NFD, combining classes and lowercase are Python's (Unicode 14.0 on
Python 3.11), corrected where tokenizers' differ. tests/test_wordpiece.py holds all of it
equal to tokenizers on the model's vocabulary: every code point, hand-picked hard cases and a
seeded fuzz. On a Python of another Unicode version (3.10, 3.12 and later) the module is not
used (``usable``) and its tests are skipped.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# the Unicode of Python's unicodedata the corrections below were measured against (3.11's);
# on another, ``usable()`` is False and every text goes through tokenizers
UNICODE_VERSION = "14.0.0"
PREFIX = "##"  # before a word piece that continues a word
MAX_WORD_CHARS = 100  # WordPiece's max_input_chars_per_word: a longer word is one [UNK]
# BERT's added tokens in tokenizer.json: matched in the raw text, before normalization
SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
REQUIRED = ("[CLS]", "[SEP]", "[UNK]")

# Rust's char::is_whitespace: what clean_text makes ' ' (the control chars among them are
# dropped first), what the pre-tokenizer splits on and what a vocab line loses at its end
_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_LINE_END_SPACES = tuple(_WHITESPACE.replace("\n", ""))
_SPACED_LINE_END = re.compile(f"\n(?<=[{''.join(_LINE_END_SPACES)}]\n)")


# tokenizers' char classes, as ranges of code points in hex. What clean_text drops: NUL,
# U+FFFD and tokenizers' control chars (Cc but \t \n \r, Cf, Co)
_CONTROL = (
    "0-8 b-c e-1f 7f-9f ad 600-605 61c 6dd 70f 180e 200b-200f 202a-202e 2060-2064 2066-206f "
    "e000-f8ff feff fff9-fffb fffd 110bd 1bca0-1bca3 1d173-1d17a e0001 e0020-e007f "
    "f0000-ffffd 100000-10fffd"
)
# What handle_chinese_chars puts a space either side of (BERT's ranges but 2B820-2B91F)
_CJK = "3400-4dbf 4e00-9fff f900-faff 20000-2a6df 2a700-2b81f 2b920-2ceaf 2f800-2fa1f"
# What strip_accents drops after NFD: tokenizers' non-spacing marks (those NFD decomposes
# left out, as it never hands them on)
_MARKS = (
    "300-33f 342 345-36f 483-487 591-5bd 5bf 5c1-5c2 5c4-5c5 5c7 610-61a 64b-65f 670 "
    "6d6-6dc 6df-6e4 6e7-6e8 6ea-6ed 711 730-74a 7a6-7b0 7eb-7f3 816-819 81b-823 825-827 "
    "829-82d 859-85b 8e3-902 93a 93c 941-948 94d 951-957 962-963 981 9bc 9c1-9c4 9cd "
    "9e2-9e3 a01-a02 a3c a41-a42 a47-a48 a4b-a4d a51 a70-a71 a75 a81-a82 abc ac1-ac5 "
    "ac7-ac8 acd ae2-ae3 b01 b3c b3f b41-b44 b4d b56 b62-b63 b82 bc0 bcd c00 c3e-c40 "
    "c46-c47 c4a-c4d c55-c56 c62-c63 c81 cbc cbf cc6 ccc-ccd ce2-ce3 d01 d41-d44 d4d "
    "d62-d63 dca dd2-dd4 dd6 e31 e34-e3a e47-e4e eb1 eb4-eb9 ebb-ebc ec8-ecd f18-f19 f35 "
    "f37 f39 f71-f72 f74 f77 f79-f7e f80 f82-f84 f86-f87 f8d-f92 f94-f97 f99-f9c f9e-fa1 "
    "fa3-fa6 fa8-fab fad-fb8 fba-fbc fc6 102d-1030 1032-1037 1039-103a 103d-103e 1058-1059 "
    "105e-1060 1071-1074 1082 1085-1086 108d 109d 135d-135f 1712-1714 1732-1734 1752-1753 "
    "1772-1773 17b4-17b5 17b7-17bd 17c6 17c9-17d3 17dd 180b-180d 18a9 1920-1922 1927-1928 "
    "1932 1939-193b 1a17-1a18 1a1b 1a56 1a58-1a5e 1a60 1a62 1a65-1a6c 1a73-1a7c 1a7f "
    "1ab0-1abd 1b00-1b03 1b34 1b36-1b3a 1b3c 1b42 1b6b-1b73 1b80-1b81 1ba2-1ba5 1ba8-1ba9 "
    "1bab-1bad 1be6 1be8-1be9 1bed 1bef-1bf1 1c2c-1c33 1c36-1c37 1cd0-1cd2 1cd4-1ce0 "
    "1ce2-1ce8 1ced 1cf4 1cf8-1cf9 1dc0-1df5 1dfc-1dff 20d0-20dc 20e1 20e5-20f0 2cef-2cf1 "
    "2d7f 2de0-2dff 302a-302d 3099-309a a66f a674-a67d a69e-a69f a6f0-a6f1 a802 a806 a80b "
    "a825-a826 a8c4 a8e0-a8f1 a926-a92d a947-a951 a980-a982 a9b3 a9b6-a9b9 a9bc a9e5 "
    "aa29-aa2e aa31-aa32 aa35-aa36 aa43 aa4c aa7c aab0 aab2-aab4 aab7-aab8 aabe-aabf aac1 "
    "aaec-aaed aaf6 abe5 abe8 abed fb1e fe00-fe0f fe20-fe2f 101fd 102e0 10376-1037a "
    "10a01-10a03 10a05-10a06 10a0c-10a0f 10a38-10a3a 10a3f 10ae5-10ae6 11001 11038-11046 "
    "1107f-11081 110b3-110b6 110b9-110ba 11100-11102 11127-1112b 1112d 11130-11134 11173 "
    "11180-11181 111b6-111be 111ca-111cc 1122f-11231 11234 11236-11237 112df 112e3-112ea "
    "11300-11301 1133c 11340 11366-1136c 11370-11374 114b3-114b8 114ba 114bf-114c0 "
    "114c2-114c3 115b2-115b5 115bc-115bd 115bf-115c0 115dc-115dd 11633-1163a 1163d "
    "1163f-11640 116ab 116ad 116b0-116b5 116b7 1171d-1171f 11722-11725 11727-1172b "
    "16af0-16af4 16b30-16b36 16f8f-16f92 1bc9d-1bc9e 1d167-1d169 1d17b-1d182 1d185-1d18b "
    "1d1aa-1d1ad 1d242-1d244 1da00-1da36 1da3b-1da6c 1da75 1da84 1da9b-1da9f 1daa1-1daaf "
    "1e8d0-1e8d6 e0100-e01ef"
)
# What BertPreTokenizer makes a word of its own: ASCII punctuation and tokenizers' P*
_PUNCTUATION = (
    "21-2f 3a-40 5b-60 7b-7e a1 a7 ab b6-b7 bb bf 37e 387 55a-55f 589-58a 5be 5c0 5c3 5c6 "
    "5f3-5f4 609-60a 60c-60d 61b 61e-61f 66a-66d 6d4 700-70d 7f7-7f9 830-83e 85e 964-965 "
    "970 af0 df4 e4f e5a-e5b f04-f12 f14 f3a-f3d f85 fd0-fd4 fd9-fda 104a-104f 10fb "
    "1360-1368 1400 166d-166e 169b-169c 16eb-16ed 1735-1736 17d4-17d6 17d8-17da 1800-180a "
    "1944-1945 1a1e-1a1f 1aa0-1aa6 1aa8-1aad 1b5a-1b60 1bfc-1bff 1c3b-1c3f 1c7e-1c7f "
    "1cc0-1cc7 1cd3 2010-2027 2030-2043 2045-2051 2053-205e 207d-207e 208d-208e 2308-230b "
    "2329-232a 2768-2775 27c5-27c6 27e6-27ef 2983-2998 29d8-29db 29fc-29fd 2cf9-2cfc "
    "2cfe-2cff 2d70 2e00-2e2e 2e30-2e42 3001-3003 3008-3011 3014-301f 3030 303d 30a0 30fb "
    "a4fe-a4ff a60d-a60f a673 a67e a6f2-a6f7 a874-a877 a8ce-a8cf a8f8-a8fa a8fc a92e-a92f "
    "a95f a9c1-a9cd a9de-a9df aa5c-aa5f aade-aadf aaf0-aaf1 abeb fd3e-fd3f fe10-fe19 "
    "fe30-fe52 fe54-fe61 fe63 fe68 fe6a-fe6b ff01-ff03 ff05-ff0a ff0c-ff0f ff1a-ff1b "
    "ff1f-ff20 ff3b-ff3d ff3f ff5b ff5d ff5f-ff65 10100-10102 1039f 103d0 1056f 10857 1091f "
    "1093f 10a50-10a58 10a7f 10af0-10af6 10b39-10b3f 10b99-10b9c 11047-1104d 110bb-110bc "
    "110be-110c1 11140-11143 11174-11175 111c5-111c9 111cd 111db 111dd-111df 11238-1123d "
    "112a9 114c6 115c1-115d7 11641-11643 1173c-1173e 12470-12474 16a6e-16a6f 16af5 "
    "16b37-16b3b 16b44 1bc9f 1da87-1da8b"
)
# Combining marks newer than tokenizers' NFD, which gives them class 0 and so never moves them
_NEW_MARKS = (
    "7fd 898-89f 8ca-8d3 9fe c3c d3b-d3c eba 1715 1abf-1ace 1df6-1dfa a82c 10d24-10d27 "
    "10eab-10eac 10f46-10f50 10f82-10f85 11070 1133b 1145e 11839-1183a 1193d-1193e 11943 "
    "119e0 11a34 11a47 11a99 11d42 11d44-11d45 11d97 16ff0-16ff1 1e130-1e136 1e2ae "
    "1e2ec-1e2ef"
)
_OTHER, _DROPPED, _IDEOGRAPH, _MARK, _PUNCTUATION_CHAR, _NEW_MARK = range(6)


def _class_table() -> tuple[list[int], list[int], list[int]]:
    """The ranges of the classes above, merged (no two share a code point) and sorted: their
    first and last code points and their classes."""
    ranges = []
    for cls, spec in (
        (_DROPPED, _CONTROL),
        (_IDEOGRAPH, _CJK),
        (_MARK, _MARKS),
        (_PUNCTUATION_CHAR, _PUNCTUATION),
        (_NEW_MARK, _NEW_MARKS),
    ):
        for item in spec.split():
            first, _, last = item.partition("-")
            ranges.append((int(first, 16), int(last or first, 16), cls))
    ranges.sort()
    return [r[0] for r in ranges], [r[1] for r in ranges], [r[2] for r in ranges]


_FIRSTS, _LASTS, _CLASSES = _class_table()


def _class(code: int) -> int:
    i = bisect_right(_FIRSTS, code) - 1
    return _CLASSES[i] if i >= 0 and code <= _LASTS[i] else _OTHER


_UNDECOMPOSED = frozenset({0x11938})  # Python's NFD decomposes it (Unicode 13), tokenizers' not
# lowercase mappings of Rust's Unicode 16 that Python 3.11's str.lower lacks: (first, last, +)
_LOWER = {
    chr(code): chr(code + shift)
    for first, last, shift in (
        (0x1C89, 0x1C89, 1),
        (0xA7CB, 0xA7CB, 0x0264 - 0xA7CB),
        (0xA7CC, 0xA7CC, 1),
        (0xA7CE, 0xA7CE, 1),
        (0xA7D2, 0xA7D2, 1),
        (0xA7D4, 0xA7D4, 1),
        (0xA7DA, 0xA7DA, 1),
        (0xA7DC, 0xA7DC, 0x019B - 0xA7DC),
        (0x10D50, 0x10D65, 0x20),
        (0x16EA0, 0x16EB8, 0x1B),
    )
    for code in range(first, last + 1)
}

_LETTER, _SPACE, _PUNCT = range(3)  # what the pre-tokenizer makes of a char
# an NFD item: (combining class, first of a char's decomposition, what strip_accents and
# lowercase leave of it, each char with its kind); NFD aligns the first items in turn with the
# chars it was given
_Item = tuple[int, bool, tuple[tuple[str, int], ...]]
_SPACE_ITEM: tuple[_Item, ...] = ((0, True, ((" ", _SPACE),)),)


@functools.lru_cache(maxsize=4096)
def _char(c: str) -> tuple[_Item, ...]:
    """What BertNormalizer makes of the char ``c`` of a text, short of NFD's reordering of
    marks, which looks across chars."""
    code = ord(c)
    cls = _class(code)
    if cls == _DROPPED:
        return ()
    if c in _WHITESPACE:
        return _SPACE_ITEM
    nfd = c if code in _UNDECOMPOSED else unicodedata.normalize("NFD", c)
    items = tuple(_item(x, k == 0, cls if x == c else _class(ord(x))) for k, x in enumerate(nfd))
    return _SPACE_ITEM + items + _SPACE_ITEM if cls == _IDEOGRAPH else items


def _item(x: str, first: bool, cls: int) -> _Item:
    """The NFD item of ``x``, of class ``cls``: Rust lowercases char by char."""
    ccc = 0 if cls == _NEW_MARK else unicodedata.combining(x)
    if cls == _MARK:
        return ccc, first, ()
    return ccc, first, tuple([(y, _kind(y)) for y in _LOWER.get(x) or x.lower()])


def _kind(x: str) -> int:
    """What the pre-tokenizer makes of the normalized char ``x``."""
    if x in _WHITESPACE:
        return _SPACE
    return _PUNCT if _class(ord(x)) == _PUNCTUATION_CHAR else _LETTER


def _normalized(text: str) -> list[tuple[str, int, int]]:
    """``text`` through BertNormalizer: each char of the result with its kind and the index of
    the char of ``text`` that tokenizers aligns it with."""
    out = []
    last = 0  # the class of the item before: a lower one after it is a mark NFD moves
    for i, c in enumerate(text):
        for ccc, _, kept in _char(c):
            if 0 < ccc < last:
                return _reordered(text)
            last = ccc
            out += [(x, kind, i) for x, kind in kept]
    return out


def _reordered(text: str) -> list[tuple[str, int, int]]:
    """``_normalized`` where NFD's canonical ordering moves marks, as tokenizers does it: each
    run of marks sorted by class (stably), then, whatever moved, the first item of each
    decomposition aligned in turn with the chars NFD was given and every other item with the
    one before it."""
    items = [(*item, i) for i, c in enumerate(text) for item in _char(c)]
    ordered: list[tuple[int, bool, tuple[tuple[str, int], ...], int]] = []
    run: list[tuple[int, bool, tuple[tuple[str, int], ...], int]] = []
    for item in items:
        if item[0]:
            run.append(item)
            continue
        ordered += sorted(run, key=lambda it: it[0])
        ordered.append(item)
        run = []
    ordered += sorted(run, key=lambda it: it[0])
    given = iter([i for _, first, _, i in items if first])
    out = []
    at = 0
    for _, first, kept, _ in ordered:
        if first:
            at = next(given)
        out += [(x, kind, at) for x, kind in kept]
    return out


def _pre_tokenized(normalized: list[tuple[str, int, int]]) -> Iterator[tuple[str, list[int]]]:
    """BertPreTokenizer's words of a normalized text, each with the alignment of its chars."""
    chars: list[str] = []
    where: list[int] = []
    for x, kind, i in normalized:
        if kind == _LETTER:
            chars.append(x)
            where.append(i)
            continue
        if chars:
            yield "".join(chars), where
            chars, where = [], []
        if kind == _PUNCT:
            yield x, [i]
    if chars:
        yield "".join(chars), where


@dataclass(frozen=True)
class Encoded:
    """A text's word pieces: their ids, the pieces ([CLS] first, [SEP] last) and for each the
    (start, end) in the text of the word it belongs to, None for [CLS] and [SEP] (what
    ``Encoding.word_to_chars`` gives: a word cut by truncation ends at its last piece kept)."""

    ids: list[int]
    tokens: list[str]
    words: list[tuple[int, int] | None]


def usable() -> bool:
    """Whether this Python's Unicode tables are those the module's corrections fit."""
    return unicodedata.unidata_version == UNICODE_VERSION


class WordPiece:
    """BERT uncased's tokenizer for a vocabulary holding [CLS], [SEP] and [UNK]."""

    def __init__(self, vocab: dict[str, int]) -> None:
        self.vocab = vocab
        # none of them begins another, so the leftmost match is the longest one
        self._special = re.compile("|".join(re.escape(t) for t in SPECIAL if t in vocab))

    @classmethod
    def from_vocab(cls, path: Path) -> WordPiece:
        """The tokenizer of a vocab.txt: one token a line, its id the line's number, read as
        tokenizers reads it (the end of a line stripped of whitespace)."""
        text = Path(path).read_text(encoding="utf-8")
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()  # the file's last newline ends a line, it does not begin one
        if _SPACED_LINE_END.search(text) or text.endswith(_LINE_END_SPACES):
            lines = [line.rstrip(_WHITESPACE) for line in lines]
        vocab = {token: i for i, token in enumerate(lines)}  # a token twice: its last line
        missing = [t for t in REQUIRED if t not in vocab]
        if missing:
            raise ValueError(
                f"{path} has no {', '.join(missing)} line: not a BERT WordPiece vocabulary"
            )
        return cls(vocab)

    def encode(self, text: str, max_tokens: int = 256) -> Encoded:
        """``text``'s word pieces as tokenizers encodes it with truncation to ``max_tokens``:
        [CLS], the first ``max_tokens - 2`` pieces, [SEP]."""
        if max_tokens < 2:
            raise ValueError(f"max_tokens must leave room for [CLS] and [SEP], not {max_tokens}")
        # lone surrogates (undecodable bytes of hand-edited files) as they are fed to tokenizers
        text = text.encode("utf-8", "replace").decode("utf-8")
        tokens = ["[CLS]"]
        words: list[tuple[int, int] | None] = [None]
        for start, pieces in self._words(text):
            kept = pieces[: max_tokens - 1 - len(tokens)]
            if not kept:
                break
            span = (start, kept[-1][1])
            for piece, _ in kept:
                tokens.append(piece)
                words.append(span)
            if len(kept) < len(pieces):
                break
        tokens.append("[SEP]")
        words.append(None)
        return Encoded([self.vocab[t] for t in tokens], tokens, words)

    def _words(self, text: str) -> Iterator[tuple[int, list[tuple[str, int]]]]:
        """Each word of ``text``, special tokens apart: where it starts in ``text`` and its
        pieces, each with where it ends."""
        done = 0
        for match in self._special.finditer(text):
            yield from self._plain_words(text, done, match.start())
            yield match.start(), [(match.group(), match.end())]
            done = match.end()
        yield from self._plain_words(text, done, len(text))

    def _plain_words(
        self, text: str, start: int, end: int
    ) -> Iterator[tuple[int, list[tuple[str, int]]]]:
        for word, where in _pre_tokenized(_normalized(text[start:end])):
            yield start + where[0], [(p, start + where[e - 1] + 1) for p, e in self._pieces(word)]

    def _pieces(self, word: str) -> list[tuple[str, int]]:
        """WordPiece: at each point the longest piece in the vocabulary, with each piece's end
        in ``word``; one [UNK] for the whole word when it is too long or a part matches
        nothing."""
        if len(word) > MAX_WORD_CHARS:
            return [("[UNK]", len(word))]
        pieces = []
        start = 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else PREFIX + word[start:end]
                if piece in self.vocab:
                    pieces.append((piece, end))
                    start = end
                    break
            else:
                return [("[UNK]", len(word))]
        return pieces
