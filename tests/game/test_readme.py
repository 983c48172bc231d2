"""The README's engine example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_engine_example_runs():
    text = README.read_text()
    section = text[text.index("## The rules engine") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["events"][0]["touched"]  # the clue touched bob's blue cards
    assert namespace["cat"]["strikes"] == 1
