"""Canonical JSON and payload hashes, byte for byte as the server computes them.

The server hashes ``{"tool", "operation", "args"}`` as ``JSON.stringify`` writes it with object keys
sorted at every depth (packages/protocol/src/canonical-json.ts). Three JavaScript rules differ from
Python's ``json`` module and are reproduced here: numbers are written as ``Number.prototype.toString``
writes them (``1.0`` is ``1``, ``1e21`` is ``1e+21``, integers past 2**53 lose precision as a double),
keys sort by UTF-16 code units, and keys that are array indices ("0", "7", "10") come first in
numeric order, because a JavaScript object lists such keys before all others.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, Mapping, Optional

from .errors import GatehouseError

#: Deepest nesting of arrays and objects accepted, as the server's CANONICAL_JSON_MAX_DEPTH.
CANONICAL_JSON_MAX_DEPTH = 256

_ARRAY_INDEX = re.compile(r"^(?:0|[1-9][0-9]*)$")
_MAX_ARRAY_INDEX = 2**32 - 2
_SAFE_INTEGER = 2**53
_SURROGATE = re.compile("[\ud800-\udfff]")
_REPR = re.compile(r"^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$")


def _is_array_index(key: str) -> bool:
    return _ARRAY_INDEX.match(key) is not None and int(key) <= _MAX_ARRAY_INDEX


def _key_order(key: str) -> tuple[int, int, bytes]:
    if _is_array_index(key):
        return (0, int(key), b"")
    return (1, 0, key.encode("utf-16-be", "surrogatepass"))


def _js_string(value: str) -> str:
    text = json.dumps(value, ensure_ascii=False)
    # JSON.stringify escapes lone surrogates; Python would leave them raw.
    return _SURROGATE.sub(lambda match: "\\u%04x" % ord(match.group(0)), text)


def _js_number(value: float) -> str:
    """``Number.prototype.toString`` of a finite double (ECMAScript Number::toString)."""
    if math.isnan(value) or math.isinf(value):
        return "null"  # what JSON.stringify writes for them
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    match = _REPR.match(repr(abs(value)))
    if match is None:  # pragma: no cover - repr of a finite float always matches
        raise ValueError(f"cannot format {value!r}")
    whole, fraction, exponent = match.group(1), match.group(2) or "", int(match.group(3) or 0)
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + exponent - (len(whole + fraction) - len((whole + fraction).lstrip("0")))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def _encode(value: Any, depth: int, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_js_string(value))
    elif isinstance(value, int):
        # The server reads numbers as doubles: past 2**53 an integer is rounded as JSON.parse rounds it.
        if abs(value) <= _SAFE_INTEGER:
            out.append(str(value))
        else:
            try:
                out.append(_js_number(float(value)))
            except OverflowError:
                out.append("null")
    elif isinstance(value, float):
        out.append(_js_number(value))
    elif isinstance(value, (list, tuple, dict)):
        if depth >= CANONICAL_JSON_MAX_DEPTH:
            raise GatehouseError(
                "VALIDATION_FAILED",
                f"value nested deeper than {CANONICAL_JSON_MAX_DEPTH} levels; flatten it",
                status=400,
                details={"limit": CANONICAL_JSON_MAX_DEPTH},
            )
        if isinstance(value, dict):
            out.append("{")
            for index, key in enumerate(sorted(value, key=_key_order)):
                if index:
                    out.append(",")
                out.append(_js_string(key))
                out.append(":")
                _encode(value[key], depth + 1, out)
            out.append("}")
        else:
            out.append("[")
            for index, item in enumerate(value):
                if index:
                    out.append(",")
                _encode(item, depth + 1, out)
            out.append("]")
    else:
        raise TypeError(f"{type(value).__name__} is not JSON")


def as_sent(value: Any) -> Any:
    """The value as the server receives it: through a JSON round trip (tuples become lists, keys
    strings). NaN and infinities are refused, as the server would refuse them."""
    return json.loads(json.dumps(value, allow_nan=False))


def canonical_json(value: Any) -> str:
    """JSON with object keys sorted at every depth, as the server writes it.

    >>> canonical_json({"b": 1, "a": [2.0]})
    '{"a":[2],"b":1}'
    """
    out: list[str] = []
    _encode(value, 0, out)
    return "".join(out)


def payload_text(
    tool: Optional[str] = None,
    operation: Optional[str] = None,
    args: Optional[Mapping[str, Any]] = None,
) -> str:
    """The text an approval binds to: the tool or operation and its arguments as sent.

    >>> payload_text(tool="rm")
    '{"args":{},"operation":null,"tool":"rm"}'
    """
    return canonical_json(
        {"tool": tool, "operation": operation, "args": as_sent(dict(args)) if args is not None else {}}
    )


def payload_hash(
    tool: Optional[str] = None,
    operation: Optional[str] = None,
    args: Optional[Mapping[str, Any]] = None,
) -> str:
    """Lowercase hex SHA-256 of :func:`payload_text`: the hash a decision records for its action."""
    return hashlib.sha256(payload_text(tool, operation, args).encode("utf-8")).hexdigest()
