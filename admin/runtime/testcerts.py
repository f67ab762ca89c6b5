"""Test certificates made with the openssl CLI: a CA, and a server certificate it signs (SAN IP), for
the TLS listeners of the throw-away Dovecot (:mod:`admin.runtime.dovecot`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


class ToolMissing(RuntimeError):
    """The openssl CLI is not installed."""


def _openssl(*args: str) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        raise ToolMissing("the openssl CLI is not installed (needed for the TLS test server)")
    subprocess.run([openssl, *args], check=True, capture_output=True, timeout=60)


def make_ca(directory: Path, name: str = "ca") -> tuple[Path, Path]:
    """A self-signed CA certificate and key: ``(NAME.pem, NAME.key)`` in ``directory``."""
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    _openssl(
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", str(key), "-out", str(cert), "-days", "30", "-subj", f"/CN=nomopoly test {name}",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip
    return cert, key


def make_server_cert(directory: Path, ca: tuple[Path, Path], ip: str = "127.0.0.1") -> tuple[Path, Path]:
    """A server certificate for ``ip`` (SAN IP) signed by ``ca``: ``(server.pem, server.key)``."""
    cert, key, csr, ext = (directory / n for n in ("server.pem", "server.key", "server.csr", "server.ext"))
    ext.write_text(
        f"subjectAltName=IP:{ip}\nbasicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
        "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"
    )
    _openssl(
        "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", str(key), "-out", str(csr), "-subj", f"/CN={ip}",
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1]), "-CAcreateserial",
        "-out", str(cert), "-days", "30", "-extfile", str(ext),
    )  # fmt: skip
    return cert, key
