"""Numbers as written: Arabic (full-width digits, thousands separators), Chinese
numerals (三, 十二, 一百二十点五, 两万, 壹仟), and English number words
(twenty-two, one hundred and five).

parse_arabic / parse_chinese / parse_english return (value, decimals) where
`decimals` is the count of digits written after the decimal point (rules bound
rounding with it).  parse_chinese handles the common forms itself and falls back
to cn2an (imported lazily: it costs ~75 ms) for anything it cannot read.
"""
from __future__ import annotations

# Full-width digits and punctuation -> ASCII, for parsing only (offsets are never
# computed on translated text, so surfaces stay exactly as written).
FULLWIDTH = str.maketrans("０１２３４５６７８９．，－＋％～", "0123456789.,-+%~")

CN_DIGITS = {
    "零": 0, "〇": 0, "○": 0, "一": 1, "壹": 1, "幺": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6,
    "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
}
CN_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
CN_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
CN_POINT = "点點"
CN_CHARS = "".join(CN_DIGITS) + "".join(CN_UNITS) + "".join(CN_BIG) + CN_POINT


def parse_arabic(s: str) -> tuple:
    """'16,200' -> (16200.0, 0); '２．５' -> (2.5, 1)."""
    t = s.translate(FULLWIDTH).replace(",", "").replace(" ", "")
    if len(t) > 40:
        raise ValueError("number too long")    # a digit string, not a quantity
    dec = len(t.split(".", 1)[1]) if "." in t else 0
    return float(t), dec


class ApproximateNumeral(ValueError):
    """A Chinese numeral naming two neighbouring values ('二三十'): not one figure."""


def _cn_integer(s: str) -> int:
    if not s:
        return 0
    # Digit strings without unit characters: '九九' -> 99, '三八' -> 38.
    if all(c in CN_DIGITS for c in s):
        if len(s) == 1:
            return CN_DIGITS[s]
        return int("".join(str(CN_DIGITS[c]) for c in s))
    for a, b in zip(s, s[1:]):
        if a in CN_DIGITS and b in CN_DIGITS and a not in "零〇":
            # '二三十', '三四百': "two or three tens", an estimate, not one number
            raise ApproximateNumeral(s)
    total, section, digit = 0, 0, None
    last_unit = 10
    for c in s:
        if c in CN_DIGITS:
            digit = CN_DIGITS[c]
        elif c in CN_UNITS:
            u = CN_UNITS[c]
            section += (1 if digit is None else digit) * u
            digit, last_unit = None, u
        elif c in CN_BIG:
            u = CN_BIG[c]
            section += digit or 0
            if u == 10**8:
                total = (total + section) * u
            else:
                total += (section or (0 if total else 1)) * u
            section, digit, last_unit = 0, None, u
        else:
            raise ValueError(c)
    if digit is not None:
        # '两万五' means 25,000: a trailing digit counts one order below the last unit.
        if last_unit >= 100 and s[-2] not in "零〇":
            section += digit * (last_unit // 10)
        else:
            section += digit
    return total + section


def parse_chinese(s: str) -> tuple:
    """'一百二十点五' -> (120.5, 1); '百' -> (100, 0); '两万' -> (20000, 0)."""
    t = "".join(s.split())
    if len(t) > 40:
        raise ValueError("numeral too long")   # no figure is written with 40 numeral characters
    if not t or t[0] in CN_POINT or t[-1] in CN_POINT or not any(c in CN_DIGITS or c in CN_UNITS for c in t):
        raise ValueError(s)   # '点', '一点': a word, not a number
    try:
        for p in CN_POINT:
            if p in t:
                ip, fp = t.split(p, 1)
                if not fp or not all(c in CN_DIGITS for c in fp):
                    raise ValueError(fp)
                frac = "".join(str(CN_DIGITS[c]) for c in fp)
                return float(_cn_integer(ip)) + float("0." + frac), len(frac)
        return float(_cn_integer(t)), 0
    except ApproximateNumeral:
        raise
    except (ValueError, IndexError, KeyError):
        import cn2an  # lazily: only odd forms get here
        v = cn2an.cn2an(t, "smart")
        txt = str(v)
        return float(v), (len(txt.split(".", 1)[1]) if "." in txt and not txt.endswith(".0") else 0)


EN_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
           "seventy": 70, "eighty": 80, "ninety": 90}
EN_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9,
             "trillion": 10**12}
EN_WORDS = list(EN_ONES) + list(EN_TENS) + list(EN_SCALES) + ["a", "half", "quarter", "dozen"]


def parse_english(s: str) -> tuple:
    """'twenty-two' -> (22, 0); 'one hundred and five' -> (105, 0); 'a half' -> (0.5, 1)."""
    toks = [w for w in s.lower().replace("-", " ").split() if w not in ("and",)]
    if toks in (["half"], ["a", "half"], ["one", "half"]):
        return 0.5, 1
    if toks in (["a", "quarter"], ["one", "quarter"], ["quarter"]):
        return 0.25, 2
    frac = {"half": 2, "halves": 2, "quarter": 4, "quarters": 4}
    if len(toks) >= 2 and toks[-1] in frac:
        num, _ = parse_english(" ".join(toks[:-1]))
        return num / frac[toks[-1]], 2
    total, cur, seen = 0, 0, False
    for w in toks:
        if w == "a":
            cur = cur or 1
            continue
        if w in EN_ONES:
            cur += EN_ONES[w]
        elif w in EN_TENS:
            cur += EN_TENS[w]
        elif w == "hundred":
            cur = (cur or 1) * 100
        elif w in EN_SCALES:
            total += (cur or 1) * EN_SCALES[w]
            cur = 0
        elif w == "dozen":
            cur = (cur or 1) * 12
        else:
            raise ValueError(w)
        seen = True
    if not seen:
        raise ValueError(s)
    return float(total + cur), 0
