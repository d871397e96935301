"""Names of hardware never swallow a figure: a bare card number followed by a percent sign is
the percent ('gap 5090%'), while '4090' alone names the RTX 4090."""
from claims.entities import find_entities


def test_a_percent_is_no_bare_gpu_number():
    found = [m.value for m in find_entities("gap 5090%, 4090 % more, on a 4090.", kinds=("hardware",))]
    assert found == ["RTX 4090"]
