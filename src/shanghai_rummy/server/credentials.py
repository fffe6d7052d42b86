"""Seat credentials: a random secret per seat, kept only as its digest, compared in constant
time.

>>> secret = new_secret()
>>> len(secret) >= 40, matches(digest(secret), secret), matches(digest(secret), "guess")
(True, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["SECRET_BYTES", "digest", "matches", "new_secret"]

SECRET_BYTES = 32
"""Random bytes in a secret (256 bits), sent to the client as URL-safe base64."""


def new_secret() -> str:
    """A new seat credential from the operating system's secure random source."""
    return secrets.token_urlsafe(SECRET_BYTES)


def digest(secret: str) -> str:
    """What the store keeps of a secret: its SHA-256, in hex. A stolen store gives no seat:
    the secret is 256 random bits, so a fast hash is as good as a slow one here."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(stored_digest: str | None, offered: object) -> bool:
    """True when ``offered`` is the secret whose digest is stored; the comparison takes the
    same time wherever the digests differ. A missing digest or a non-text offer never matches."""
    if stored_digest is None or not isinstance(offered, str):
        return False
    return hmac.compare_digest(stored_digest, digest(offered))
