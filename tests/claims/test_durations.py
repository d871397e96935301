"""A time written in two units ('8 h 53 min', '3m 04s', '1 小时 33 分钟') is one figure."""
from claims.api import extract


def _times(text):
    return [(c.surface, c.value, c.unit) for c in extract(text, "t.md") if c.unit in ("hour", "minute", "second", "meter")]


def test_hours_and_minutes_are_one_time_in_minutes():
    assert _times("Gaudi1 took 8 h 53 min; Gaudi2 took 1 h 33 min.") == \
        [("8 h 53 min", 533.0, "minute"), ("1 h 33 min", 93.0, "minute")]


def test_chinese_hours_and_minutes():
    assert _times("总训练时长从 8 小时 53 分钟减少到 1 小时 33 分钟。") == \
        [("8 小时 53 分钟", 533.0, "minute"), ("1 小时 33 分钟", 93.0, "minute")]


def test_minutes_before_seconds_are_not_metres():
    assert _times("A clean build is down to 50s from 3m 04s!") == \
        [("50s", 50.0, "second"), ("3m 04s", 184.0, "second")]


def test_minutes_and_seconds_with_and():
    assert _times("The sort completed in 30 minutes and 14 seconds.") == \
        [("30 minutes and 14 seconds", 1814.0, "second")]


def test_near_miss_two_times_of_one_unit_or_a_part_larger_than_the_unit():
    assert [s for s, _, _ in _times("Runs took 50 min 30 min and 2 h 90 min.")] == \
        ["50 min", "30 min", "2 h", "90 min"]


def test_near_miss_metres_are_metres_without_seconds_after_them():
    assert _times("The rack is 3m wide.") == [("3m", 3.0, "meter")]


def test_a_range_never_starts_inside_a_compound_time():
    # 'from 3m 4s to 50s' is 3m 4s, then 50s -- not the range '4s to 50s'
    assert _times("The build went from 3m 4s to 50s.") == \
        [("3m 4s", 184.0, "second"), ("50s", 50.0, "second")]
    assert _times("The build went from 3m 04s to 50s.") == \
        [("3m 04s", 184.0, "second"), ("50s", 50.0, "second")]
    assert _times("构建时间从 1 小时 20 分钟到 30 分钟。") == \
        [("1 小时 20 分钟", 80.0, "minute"), ("30 分钟", 30.0, "minute")]


def test_near_miss_a_plain_time_range_stays_a_range():
    assert [(c.surface, c.low, c.high) for c in extract("Each step takes 4s to 50s.", "t.md")] == \
        [("4s to 50s", 4.0, 50.0)]
