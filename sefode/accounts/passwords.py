"""Password hashing with argon2id (argon2-cffi), with a constant-work check for unknown users."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_HASHER = PasswordHasher()
_DUMMY_HASH = "$argon2id$v=19$m=65536,t=3,p=4$/4RuL6xPD/rSB4O758FfGg$g0xyqOY/Me/fQpre26Q7FHF0rTku3dez1d3s1M1aBhk"
"""``_HASHER.hash("sefode: no such user")``, made once: hashing it at import cost every process start a fifth of a
second of CPU (a cluster node, a test's server). Checking it is the same work as checking a user's hash as long as
it has the hasher's parameters; if they change (a new argon2-cffi default), it is made again here."""
if _HASHER.check_needs_rehash(_DUMMY_HASH):
    _DUMMY_HASH = _HASHER.hash("sefode: no such user")


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """True when ``password`` matches ``stored``. With ``stored=None`` (no such user) the same work is done
    against a dummy hash and False is returned, so a failed login takes as long whether or not the user exists."""
    try:
        ok = _HASHER.verify(stored if stored is not None else _DUMMY_HASH, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return ok and stored is not None


def needs_rehash(stored: str) -> bool:
    return _HASHER.check_needs_rehash(stored)
