"""Outbound HTTP for agents, safe against SSRF.

`safe_request` resolves the host, refuses every non-public address (loopback, private, link-local
incl. cloud metadata, multicast, unspecified, reserved, shared/CGNAT and their IPv6 forms incl.
IPv4-mapped/6to4/NAT64), then connects to exactly the address it checked (no DNS-rebinding gap)
while sending the real Host header and TLS SNI. Redirects are followed by hand, each hop checked
again. Headers marked secret go only to one host. Responses are size-capped and time-limited.
Operators (and tests) can open named hosts with `huf_http_allowed_hosts` in site_config.
"""

import http.client
import ipaddress
import json as jsonlib
import socket
import ssl
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

import frappe
from frappe import _

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = 2 * 1024 * 1024
MAX_REDIRECTS = 5
ALLOWED_SCHEMES = ("http", "https")
ALLOWED_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"})
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
# Headers a client must not carry to another host after a redirect (as browsers and requests do).
CREDENTIAL_HEADERS = frozenset({"authorization", "cookie", "proxy-authorization"})
# Set by the client itself; a caller must not steer them (Host would confuse virtual hosting).
CONTROLLED_HEADERS = frozenset(
	{"host", "content-length", "transfer-encoding", "connection", "accept-encoding"}
)
USER_AGENT = "Huf-Agent/1.0 (+https://github.com/tridz-dev/huf)"

# Networks `ipaddress` does not flag as non-global in every Python version.
_EXTRA_BLOCKED = tuple(
	ipaddress.ip_network(n)
	for n in ("0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4", "64:ff9b:1::/48")
)


class HttpRequestError(frappe.ValidationError):
	"""An outbound request failed; the message is written for the model and the user."""


class BlockedURLError(HttpRequestError):
	"""The URL points to an address agents may not reach (SSRF protection) or uses another scheme."""

	http_status_code = 403


@dataclass
class SafeResponse:
	"""The outcome of `safe_request`."""

	status_code: int
	headers: dict[str, str]
	content: bytes
	url: str
	truncated: bool = False
	redirects: list[str] = field(default_factory=list)
	elapsed: float = 0.0

	@property
	def ok(self) -> bool:
		return self.status_code < 400

	@property
	def encoding(self) -> str:
		content_type = self.headers.get("content-type", "")
		for part in content_type.split(";")[1:]:
			key, _sep, value = part.strip().partition("=")
			if key.lower() == "charset" and value:
				return value.strip("\"' ")
		return "utf-8"

	@property
	def text(self) -> str:
		try:
			return self.content.decode(self.encoding, errors="replace")
		except LookupError:
			return self.content.decode("utf-8", errors="replace")

	def json(self) -> Any:
		return jsonlib.loads(self.text)


# --- address checks --------------------------------------------------------------------------


def is_public_ip(address: str | ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
	"""True only for a globally routable unicast address."""
	try:
		ip = ipaddress.ip_address(str(address).split("%", 1)[0])
	except ValueError:
		return False
	if isinstance(ip, ipaddress.IPv6Address):
		embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
		if embedded is None and ip in ipaddress.ip_network("64:ff9b::/96"):
			embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
		if embedded is not None:
			return is_public_ip(embedded)
	if ip.is_multicast or ip.is_unspecified or ip.is_loopback or ip.is_link_local:
		return False
	if ip.is_private or ip.is_reserved or not ip.is_global:
		return False
	return not any(ip.version == net.version and ip in net for net in _EXTRA_BLOCKED)


def allowed_hosts() -> set[str]:
	"""Entries of `huf_http_allowed_hosts` (site_config): host names or host:port, lower-cased."""
	value = frappe.conf.get("huf_http_allowed_hosts") or []
	if isinstance(value, str):
		value = value.replace(",", " ").split()
	return {str(entry).strip().lower().strip("[]") for entry in value if str(entry).strip()}


def _is_allowlisted(host: str, port: int) -> bool:
	entries = allowed_hosts()
	host = host.lower()
	return host in entries or f"{host}:{port}" in entries or f"[{host}]:{port}" in entries


def port_of(parts) -> int:
	try:
		port = parts.port
	except ValueError:
		raise BlockedURLError(_("The URL has an invalid port.")) from None
	return port or (443 if parts.scheme == "https" else 80)


def validate_url(url: str) -> tuple[str, int, list[str]]:
	"""Check `url` and resolve its host; returns (host, port, checked IPs) or raises BlockedURLError."""
	if not isinstance(url, str) or not url.strip():
		raise BlockedURLError(
			_("No URL given. Pass a full http(s) URL such as https://api.example.com/items.")
		)
	parts = urlsplit(url.strip())
	scheme = parts.scheme.lower()
	if scheme not in ALLOWED_SCHEMES:
		raise BlockedURLError(
			_("Only http and https URLs are allowed (got {0}).").format(
				f"{scheme}:" if scheme else _("no scheme")
			)
		)
	host = (parts.hostname or "").rstrip(".").lower()
	if not host:
		raise BlockedURLError(_("The URL {0} has no host name.").format(url))
	if parts.username or parts.password:
		raise BlockedURLError(_("URLs with credentials (user:password@host) are not allowed; use headers."))
	port = port_of(parts)
	try:
		infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
	except (socket.gaierror, UnicodeError):
		raise HttpRequestError(
			_("The host name {0} could not be resolved. Check the URL for typos.").format(host)
		) from None
	addresses = list(dict.fromkeys(info[4][0] for info in infos))
	if not addresses:
		raise HttpRequestError(_("The host name {0} has no address.").format(host))
	if _is_allowlisted(host, port):
		return host, port, addresses
	blocked = [a for a in addresses if not is_public_ip(a)]
	if blocked:
		raise BlockedURLError(
			_(
				"Refused: {0} resolves to {1}, a private, loopback or otherwise internal address. "
				"Agents may only call public internet hosts."
			).format(host, blocked[0])
		)
	return host, port, addresses


# --- the request -----------------------------------------------------------------------------


def _connect_pinned(ips: list[str], port: int, timeout: float) -> socket.socket:
	"""A TCP connection to the first reachable of the already checked addresses."""
	error: OSError | None = None
	for ip in ips:
		try:
			return socket.create_connection((ip, port), timeout)
		except OSError as exc:
			error = exc
	raise error or OSError("no address")


class _PinnedHTTPConnection(http.client.HTTPConnection):
	"""Connects to the checked IPs only; `host` (Host header) stays the URL's host name."""

	def __init__(self, host: str, port: int, ips: list[str], timeout: float):
		super().__init__(host, port, timeout=timeout)
		self._ips = ips

	def connect(self):
		self.sock = _connect_pinned(self._ips, self.port, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
	"""TLS to the checked IPs with SNI and certificate check for the URL's host name."""

	def __init__(self, host: str, port: int, ips: list[str], timeout: float, context: ssl.SSLContext):
		super().__init__(host, port, timeout=timeout, context=context)
		self._ips = ips

	def connect(self):
		sock = _connect_pinned(self._ips, self.port, self.timeout)
		self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _ssl_context() -> ssl.SSLContext:
	"""Verifying TLS context: certifi's CAs, plus `huf_http_ca_bundle` (site_config) for private CAs."""
	try:
		import certifi

		context = ssl.create_default_context(cafile=certifi.where())
	except ImportError:
		context = ssl.create_default_context()
	extra = frappe.conf.get("huf_http_ca_bundle")
	if extra:
		context.load_verify_locations(cafile=extra)
	return context


def _with_params(url: str, params: dict | list | str | None) -> str:
	if not params:
		return url
	query = params if isinstance(params, str) else urlencode(params, doseq=True)
	parts = urlsplit(url)
	joined = f"{parts.query}&{query}" if parts.query else query
	return urlunsplit((parts.scheme, parts.netloc, parts.path, joined, parts.fragment))


def _encode_body(json: Any, data: Any) -> tuple[bytes | None, str | None]:
	if json is not None:
		return jsonlib.dumps(json, default=str).encode(), "application/json"
	if data is None:
		return None, None
	if isinstance(data, dict | list):
		return urlencode(data, doseq=True).encode(), "application/x-www-form-urlencoded"
	if isinstance(data, str):
		return data.encode(), "text/plain; charset=utf-8"
	return bytes(data), "application/octet-stream"


def safe_request(
	method: str,
	url: str,
	*,
	headers: dict | None = None,
	params: dict | list | str | None = None,
	json: Any = None,
	data: Any = None,
	timeout: float = DEFAULT_TIMEOUT,
	max_bytes: int = DEFAULT_MAX_BYTES,
	secret_headers: dict | None = None,
	secret_headers_host: str | None = None,
	max_redirects: int = MAX_REDIRECTS,
) -> SafeResponse:
	"""Make one HTTP request with SSRF protection; raises BlockedURLError / HttpRequestError.

	`headers` go to every hop, except credential headers (Authorization, Cookie) once a redirect
	leaves the first host. `secret_headers` go only to `secret_headers_host` ("host" or "host:port";
	default: the first URL's host and port). A body larger than `max_bytes` is cut there and the
	response marked `truncated`.
	"""
	method = (method or "GET").upper()
	if method not in ALLOWED_METHODS:
		raise HttpRequestError(
			_("HTTP method {0} is not allowed. Use one of {1}.").format(
				method, ", ".join(sorted(ALLOWED_METHODS))
			)
		)
	url = _with_params(url, params)
	first = urlsplit(url)
	first_host = (first.hostname or "").lower()
	secret_at = (secret_headers_host or f"{first_host}:{port_of(first)}").lower()
	body, content_type = _encode_body(json, data)
	started = time.monotonic()
	deadline = started + timeout
	redirects: list[str] = []

	while True:
		host, port, ips = validate_url(url)
		send = {"User-Agent": USER_AGENT, "Accept": "*/*", "Accept-Encoding": "identity"}
		for key, value in (headers or {}).items():
			lower = str(key).lower()
			if lower in CONTROLLED_HEADERS or (host != first_host and lower in CREDENTIAL_HEADERS):
				continue
			send[str(key)] = str(value)
		if secret_at in (host, f"{host}:{port}"):
			send.update({str(k): str(v) for k, v in (secret_headers or {}).items()})
		if body is not None and not any(k.lower() == "content-type" for k in send):
			send["Content-Type"] = content_type

		status, response_headers, content, truncated = _send_once(
			method, url, host, port, ips, send, body, deadline, max_bytes, timeout
		)
		location = response_headers.get("location")
		if status in REDIRECT_CODES and location:
			if len(redirects) >= max_redirects:
				raise HttpRequestError(
					_("Too many redirects (more than {0}) starting at {1}.").format(
						max_redirects, redirects[0]
					)
				)
			redirects.append(url)
			url = urljoin(url, location)
			if status == 303 or (status in (301, 302) and method == "POST"):
				method, body = "GET", None
			continue
		return SafeResponse(
			status_code=status,
			headers=response_headers,
			content=content,
			url=url,
			truncated=truncated,
			redirects=redirects,
			elapsed=time.monotonic() - started,
		)


def _send_once(method, url, host, port, ips, send, body, deadline, max_bytes, timeout):
	parts = urlsplit(url)
	path = parts.path or "/"
	if parts.query:
		path += "?" + parts.query
	remaining = deadline - time.monotonic()
	if remaining <= 0:
		raise HttpRequestError(_("The request to {0} timed out after {1:g} s.").format(host, timeout))
	if parts.scheme.lower() == "https":
		connection = _PinnedHTTPSConnection(host, port, ips, remaining, _ssl_context())
	else:
		connection = _PinnedHTTPConnection(host, port, ips, remaining)
	try:
		connection.request(method, path, body=body, headers=send)
		response = connection.getresponse()
		response_headers = {k.lower(): v for k, v in response.getheaders()}
		chunks, size, truncated = [], 0, False
		if method != "HEAD":
			while True:
				if time.monotonic() > deadline:
					raise TimeoutError
				piece = response.read(min(65536, max_bytes - size + 1))
				if not piece:
					break
				chunks.append(piece)
				size += len(piece)
				if size > max_bytes:
					truncated = True
					break
		content = b"".join(chunks)[:max_bytes]
		return response.status, response_headers, content, truncated
	except TimeoutError:
		raise HttpRequestError(
			_("The request to {0} timed out after {1:g} s. Try again later or ask for less data.").format(
				host, timeout
			)
		) from None
	except ssl.SSLError as exc:
		raise HttpRequestError(
			_("The TLS connection to {0} failed: {1}").format(host, exc.reason or exc)
		) from None
	except ConnectionRefusedError:
		raise HttpRequestError(
			_("Could not connect to {0}:{1} (connection refused).").format(host, port)
		) from None
	except (OSError, ValueError, http.client.HTTPException) as exc:
		raise HttpRequestError(
			_("The request to {0} failed: {1}").format(host, str(exc) or type(exc).__name__)
		) from None
	finally:
		connection.close()
