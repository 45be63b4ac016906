"""Every Python block of the SDK's README and docs page is valid Python."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOCS = [ROOT / "packages" / "sdk-python" / "README.md", ROOT / "docs" / "python-sdk.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_python_blocks_compile(doc: Path) -> None:
    blocks = BLOCK.findall(doc.read_text("utf-8"))
    assert blocks, f"{doc} has no python block"
    for index, block in enumerate(blocks):
        compile(block, f"{doc.name} block {index + 1}", "exec")
