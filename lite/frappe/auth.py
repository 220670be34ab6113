"""Request authentication: cookie sessions, login/logout, CSRF, API keys, failed-login throttling."""

from __future__ import annotations

import base64
import binascii
import datetime
import hmac
from urllib.parse import quote

from werkzeug.wrappers import Response

import frappe
from frappe import _
from frappe.apps import get_default_path
from frappe.sessions import Session, clear_sessions, delete_session, get_expiry_in_seconds
from frappe.website.utils import get_home_page

SAFE_HTTP_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))
UNSAFE_HTTP_METHODS = frozenset(("POST", "PUT", "DELETE", "PATCH"))
MAX_PASSWORD_SIZE = 512
_USER_WIDE_ATTEMPTS_FACTOR = 4


class HTTPRequest:
	"""Sets up who is calling: request IP, cookies, session (or login) and the CSRF check."""

	def __init__(self):
		# set frappe.local.request_ip
		self.set_request_ip()
		# load cookies
		self.set_cookies()
		# login and start/resume user session
		self.set_session()
		# match csrf token from current session
		self.validate_csrf_token()
		# write out latest cookies
		frappe.local.cookie_manager.init_cookies()

	def set_request_ip(self):
		if frappe.get_request_header("X-Forwarded-For"):
			frappe.local.request_ip = (frappe.get_request_header("X-Forwarded-For").split(",", 1)[0]).strip()
		elif frappe.get_request_header("REMOTE_ADDR"):
			frappe.local.request_ip = frappe.get_request_header("REMOTE_ADDR")
		else:
			frappe.local.request_ip = frappe.local.request.remote_addr or "127.0.0.1"

	def set_cookies(self):
		frappe.local.cookie_manager = CookieManager()

	def set_session(self):
		frappe.local.login_manager = LoginManager()

	def validate_csrf_token(self):
		"""A state-changing request of a session that has a CSRF token must echo it (header or form).

		As in Frappe, a session gets its token only when a page asks for it (`get_csrf_token`, e.g. the
		desk or the /huf page); sessions without one (API clients logged in with /api/method/login)
		are not checked."""
		if (
			not frappe.request
			or frappe.request.method not in UNSAFE_HTTP_METHODS
			or frappe.conf.ignore_csrf
			or not frappe.session
			or not (saved_token := frappe.session.data.csrf_token)
			or (
				(frappe.get_request_header("X-Frappe-CSRF-Token") or frappe.form_dict.pop("csrf_token", None))
				== saved_token
			)
			or self.is_allowed_referrer()
		):
			return

		frappe.flags.disable_traceback = True
		frappe.throw(_("Invalid Request"), frappe.CSRFTokenError)

	def is_allowed_referrer(self):
		referrer = frappe.get_request_header("Referer")
		origin = frappe.get_request_header("Origin")
		allowed_referrers = frappe.conf.get("allowed_referrers", [])
		return (referrer and any(referrer.startswith(allowed) for allowed in allowed_referrers)) or (
			origin and any(origin == allowed for allowed in allowed_referrers)
		)


class LoginManager:
	"""Logs in at /api/method/login, resumes the cookie session otherwise, logs out."""

	def __init__(self):
		self.user = None
		self.info = None
		self.full_name = None
		self.user_type = None
		request = frappe.local.request
		if frappe.form_dict.get("cmd") == "login" or (request and request.path == "/api/method/login"):
			if self.login() is False:
				return
			self.resume = False
			self.run_trigger("on_session_creation")
		else:
			self.resume = True
			self.make_session(resume=True)
			self.user = frappe.session.user
			self.get_user_info()
			self.set_user_info(resume=True)

	def login(self) -> bool | None:
		self.authenticate(frappe.form_dict.get("usr"), frappe.form_dict.get("pwd"))
		frappe.form_dict.pop("pwd", None)
		self.post_login()

	def post_login(self) -> None:
		self.run_trigger("on_login")
		self.get_user_info()
		self.make_session()
		self.set_user_info()

	def authenticate(self, user: str | None = None, pwd: str | None = None) -> None:
		"""Check the credentials (and the failed-login lock) and remember the user."""
		if not (user and pwd):
			user, pwd = frappe.form_dict.get("usr"), frappe.form_dict.get("pwd")
		if not (user and pwd):
			self.fail(_("Incomplete login details"), user=user)
		if len(pwd) > MAX_PASSWORD_SIZE:
			self.fail(_("Password size exceeded the maximum allowed size"), user=user)
		login_key = str(user).strip().lower()
		# per user and address; a looser per-user limit bounds guessing from rotating addresses
		trackers = (
			get_login_attempt_tracker(f"{login_key}|{getattr(frappe.local, 'request_ip', '')}"),
			_login_attempt_tracker(login_key, attempts_factor=_USER_WIDE_ATTEMPTS_FACTOR),
		)
		name = _find_user(user)
		try:
			if not name:
				raise frappe.AuthenticationError
			from frappe.utils.password import check_password

			name = check_password(name, pwd) or name
			if name != "Administrator" and not frappe.db.get_value("User", name, "enabled"):
				raise frappe.AuthenticationError
		except frappe.AuthenticationError:
			for tracker in trackers:
				tracker.add_failure_attempt()
			self.fail(_("Invalid login credentials"), user=name or user)
		for tracker in trackers:
			tracker.add_success_attempt()
		self.user = name

	def fail(self, message: str, user: str | None = None) -> None:
		frappe.local.response["message"] = message
		raise frappe.AuthenticationError(message)

	def get_user_info(self) -> None:
		if self.user in (None, "Guest"):
			self.info = frappe._dict(user_type="Website User", first_name="Guest", last_name=None)
		else:
			fields = ["user_type", "first_name", "last_name"]
			self.info = frappe.db.get_value("User", self.user, fields, as_dict=True) or frappe._dict(
				user_type="System User", first_name=self.user
			)
		self.user_type = self.info.user_type

	def set_user_info(self, resume: bool = False) -> None:
		frappe.local.cookie_manager.init_cookies()
		self.full_name = " ".join(filter(None, [self.info.first_name, self.info.last_name]))
		cookies = frappe.local.cookie_manager
		if self.user == "Guest":
			return
		if self.info.user_type == "Website User":
			cookies.set_cookie("system_user", "no")
			if not resume:
				frappe.local.response["message"] = "No App"
				frappe.local.response["home_page"] = get_default_path() or "/" + get_home_page()
		else:
			cookies.set_cookie("system_user", "yes")
			if not resume:
				frappe.local.response["message"] = "Logged In"
				frappe.local.response["home_page"] = get_default_path() or "/app"
		if not resume:
			frappe.local.response["full_name"] = self.full_name
		cookies.set_cookie("full_name", self.full_name)
		cookies.set_cookie("user_id", self.user)

	def make_session(self, resume: bool = False) -> None:
		frappe.local.session_obj = Session(
			user=self.user, resume=resume, full_name=self.full_name, user_type=self.user_type
		)
		self.user = frappe.local.session_obj.user
		frappe.local.session = frappe.local.session_obj.data
		frappe.local.role_cache = {}

	def run_trigger(self, event: str = "on_login") -> None:
		for method in frappe.get_hooks(event):
			frappe.call(frappe.get_attr(method), login_manager=self)

	def login_as_guest(self) -> None:
		self.login_as("Guest")

	def login_as(self, user: str) -> None:
		self.user = user
		self.post_login()

	def logout(self, arg: str = "", user: str | None = None) -> None:
		"""End the current session (or every session of another user)."""
		user = user or frappe.session.user
		self.run_trigger("on_logout")
		if user == frappe.session.user:
			delete_session(frappe.session.sid, user=user, reason="User Manually Logged Out")
			self.clear_cookies()
			if frappe.request:
				self.user = "Guest"
				self.make_session()
		else:
			clear_sessions(user)

	def clear_cookies(self) -> None:
		clear_cookies()


class CookieManager:
	"""Cookies to set or delete on the response of this request."""

	def __init__(self):
		self.cookies: dict[str, dict] = {}
		self.to_delete: list[str] = []

	def init_cookies(self) -> None:
		sid = frappe.session.get("sid") if frappe.session else None
		if sid and sid != "Guest":
			self.set_cookie("sid", sid, max_age=get_expiry_in_seconds(), httponly=True)

	def set_cookie(
		self,
		key: str,
		value: str,
		expires=None,
		secure: bool = False,
		httponly: bool = False,
		samesite: str = "Lax",
		max_age: int | None = None,
	) -> None:
		request = frappe.local.request
		if not secure and request is not None:
			secure = request.scheme == "https"
		self.cookies[key] = dict(
			value=value, expires=expires, secure=secure, httponly=httponly, samesite=samesite, max_age=max_age
		)
		if key in self.to_delete:
			self.to_delete.remove(key)

	def delete_cookie(self, to_delete: str | list | tuple) -> None:
		if isinstance(to_delete, str):
			to_delete = [to_delete]
		for key in to_delete:
			self.cookies.pop(key, None)
			self.to_delete.append(key)

	def flush_cookies(self, response: Response) -> None:
		for key, opts in self.cookies.items():
			response.set_cookie(
				key,
				quote((opts.get("value") or "").encode("utf-8")),
				expires=opts.get("expires"),
				secure=opts.get("secure"),
				httponly=opts.get("httponly"),
				samesite=opts.get("samesite"),
				max_age=opts.get("max_age"),
			)
		expired = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)
		for key in set(self.to_delete):
			response.set_cookie(key, "", expires=expired, samesite="Lax")


@frappe.whitelist()
def get_logged_user() -> str:
	"""The user of the current request."""
	return frappe.session.user


def clear_cookies() -> None:
	if getattr(frappe.local, "session", None):
		frappe.session.sid = ""
	frappe.local.cookie_manager.delete_cookie(["full_name", "user_id", "sid", "system_user"])


def _find_user(login: str) -> str | None:
	"""The User name for a login id (user name or email, case-insensitive)."""
	if login in ("Administrator", "Guest"):
		return login if login == "Administrator" else None
	name = frappe.db.get_value("User", login, "name")
	if not name:
		rows = frappe.db.sql(
			"select name from `tabUser` where lower(name)=lower(%s) or lower(email)=lower(%s) limit 1",
			(login, login),
		)
		name = rows[0][0] if rows else None
	return name


# ---------------------------------------------------------------------------------------------
# API keys


def validate_auth() -> None:
	"""Authenticate with the Authorization header (token or basic api_key:api_secret) if given."""
	header = (frappe.get_request_header("Authorization") or "").split(" ")
	if len(header) == 2:
		validate_auth_via_api_keys(header)
	for hook in frappe.get_hooks("auth_hooks"):
		frappe.get_attr(hook)()
	if len(header) == 2 and frappe.session.user in ("", "Guest"):
		raise frappe.AuthenticationError


def validate_auth_via_api_keys(authorization_header: list[str]) -> None:
	auth_type, auth_token = authorization_header
	try:
		if auth_type.lower() == "basic":
			api_key, api_secret = base64.b64decode(auth_token).decode("utf-8").split(":", 1)
		elif auth_type.lower() == "token":
			api_key, api_secret = auth_token.split(":", 1)
		else:
			return
	except (binascii.Error, UnicodeDecodeError):
		frappe.throw(
			_("Failed to decode token, please provide a valid base64-encoded token."),
			frappe.AuthenticationError,
		)
	except ValueError:
		return
	validate_api_key_secret(api_key, api_secret)


def validate_api_key_secret(api_key: str, api_secret: str) -> None:
	"""Act as the user whose api_key/api_secret pair matches, else AuthenticationError."""
	from frappe.utils.password import get_decrypted_password

	user = frappe.db.get_value("User", {"api_key": api_key, "enabled": 1}, "name") if api_key else None
	if not user:
		raise frappe.AuthenticationError
	form_dict = frappe.local.form_dict
	secret = get_decrypted_password("User", user, fieldname="api_secret", raise_exception=False)
	if secret and hmac.compare_digest(str(secret), str(api_secret)):
		if frappe.local.login_manager.user in ("", "Guest"):
			frappe.set_user(user)
		frappe.local.form_dict = form_dict
	else:
		raise frappe.AuthenticationError


# ---------------------------------------------------------------------------------------------
# failed logins


def get_login_attempt_tracker(key: str, raise_locked_exception: bool = True) -> LoginAttemptTracker:
	"""A tracker for `key`; raises TooManyRequestsError while the key is locked."""
	return _login_attempt_tracker(key, raise_locked_exception)


def _login_attempt_tracker(
	key: str, raise_locked_exception: bool = True, attempts_factor: int = 1
) -> LoginAttemptTracker:
	max_attempts = int(frappe.conf.get("allow_consecutive_login_attempts") or 5) * attempts_factor
	lock_interval = int(frappe.conf.get("allow_login_after_fail") or 60)
	tracker = LoginAttemptTracker(
		key, max_consecutive_login_attempts=max_attempts, lock_interval=lock_interval
	)
	if raise_locked_exception and not tracker.is_user_allowed():
		frappe.throw(
			_("Your account has been locked and will resume after {0} seconds").format(lock_interval),
			frappe.TooManyRequestsError,
		)
	return tracker


class LoginAttemptTracker:
	"""Counts consecutive failed logins of a key within the lock interval (in frappe.cache)."""

	def __init__(self, key: str, max_consecutive_login_attempts: int = 5, lock_interval: int = 60):
		self.key = key
		self.max_failed_logins = max_consecutive_login_attempts
		self.lock_interval = datetime.timedelta(seconds=lock_interval)

	@property
	def login_failed_count(self) -> int:
		return int(frappe.cache().hget("login_failed_count", self.key) or 0)

	@property
	def login_failed_time(self) -> datetime.datetime | None:
		value = frappe.cache().hget("login_failed_time", self.key)
		return datetime.datetime.fromisoformat(value) if isinstance(value, str) else value

	def add_failure_attempt(self) -> None:
		first, count = self.login_failed_time, self.login_failed_count
		now = datetime.datetime.now()
		if first and count and first + self.lock_interval > now:
			count += 1
		else:
			first, count = now, 1
		frappe.cache().hset("login_failed_time", self.key, first.isoformat())
		frappe.cache().hset("login_failed_count", self.key, count)

	def add_success_attempt(self) -> None:
		frappe.cache().hdel("login_failed_count", self.key)
		frappe.cache().hdel("login_failed_time", self.key)

	def is_user_allowed(self) -> bool:
		first = self.login_failed_time
		return not (
			first
			and first + self.lock_interval > datetime.datetime.now()
			and self.login_failed_count >= self.max_failed_logins
		)
