"""Password hashing with argon2id (argon2-cffi), with a constant-work check for unknown users."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_HASHER = PasswordHasher()
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
