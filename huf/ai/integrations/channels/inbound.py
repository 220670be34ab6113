"""What the inbound channels share: their rate limit, the request, the settings a secret belongs to, who a
message acts as, queueing its run and answering when the run has finished (a background job)."""

import hmac
from collections.abc import Callable

import frappe
from frappe import _
from frappe.utils import strip_html
from frappe.utils.password import get_decrypted_password

from huf.ai.runtime import front_door
from huf.ai.runtime.front_door import RunResult
from huf.ai.runtime.run_request import RunRequest
from huf.huf.session_user import acting_as
from huf.request_limits import CHANNEL_RATE_LIMIT, check_webhook_rate

SETTINGS = "Integration Settings"
ANSWER = "huf.ai.integrations.channels.inbound.answer"
SEEN_SECONDS = 24 * 3600  # how long a delivered update/event id is remembered


def check_rate(channel: str) -> None:
	"""Refuse (429, Retry-After) more than `huf_channel_rate_limit` calls a minute to the webhook of
	`channel` per client address: checked first, before any secret is decrypted or signature computed."""
	check_webhook_rate(f"channel:{channel}", "huf_channel_rate_limit", CHANNEL_RATE_LIMIT)


def request_header(name: str) -> str:
	request = getattr(frappe.local, "request", None)
	return (request.headers.get(name) if request is not None else None) or ""


def raw_body() -> bytes:
	request = getattr(frappe.local, "request", None)
	return request.get_data(cache=True) if request is not None else b""


def json_body() -> dict:
	"""The request's JSON object ({} for anything else)."""
	try:
		data = frappe.parse_json(raw_body().decode("utf-8") or "{}")
	except Exception:
		return {}
	return data if isinstance(data, dict) else {}


def refuse(message: str | None = None) -> None:
	"""403 with a message that tells nothing about which settings exist."""
	frappe.throw(message or _("Invalid signature or secret."), frappe.PermissionError)


def channel_secrets(service: str) -> list[tuple[str, str]]:
	"""(settings name, webhook secret) of the active settings of `service` that have a secret."""
	found = []
	for name in frappe.get_all(SETTINGS, filters={"service": service, "is_active": 1}, pluck="name"):
		secret = get_decrypted_password(SETTINGS, name, "webhook_secret", raise_exception=False)
		if secret:
			found.append((name, secret))
	return found


def settings_matching(service: str, check: Callable[[str], bool]) -> str | None:
	"""The settings whose secret passes `check` (every secret is checked: timing tells nothing)."""
	match = None
	for name, secret in channel_secrets(service):
		if check(secret) and match is None:
			match = name
	return match


def same(given: str, expected: str) -> bool:
	return hmac.compare_digest(str(given or "").encode(), str(expected or "").encode())


def first_delivery(kind: str, key: str) -> bool:
	"""True the first time `key` arrives (Telegram and Slack deliver again when an answer is slow)."""
	cache_key = frappe.cache().make_key(f"huf:channel_seen:{kind}:{key}")
	return bool(frappe.cache().set(cache_key, b"1", nx=True, ex=SEEN_SECONDS))


def acting_user(settings: str, external_user: str) -> str | None:
	"""The Frappe user a message of `external_user` acts as: the recipient mapped to them, else the
	settings' channel user; never Administrator, Guest or a disabled user (then None)."""
	mapped = frappe.get_all(
		"Integration Recipient",
		filters={"parenttype": SETTINGS, "parent": settings, "recipient_id": str(external_user or "")},
		pluck="user",
	)
	candidates = [user for user in mapped if user]
	candidates.append(frappe.db.get_value(SETTINGS, settings, "channel_user"))
	for user in candidates:
		if user and user not in ("Administrator", "Guest") and frappe.db.get_value("User", user, "enabled"):
			return user
	return None


def receive(
	source: str,
	settings: str,
	sender: str,
	text: str,
	external_id: str,
	reply: str,
	not_linked: str,
	target: dict,
) -> None:
	"""A verified message of `sender` from `source` (Telegram, Slack): its run queued as the user it maps
	to, answered to `target` (the chat); a sender the settings do not know gets `not_linked`, a refused
	run a polite answer (logged)."""
	user = acting_user(settings, sender)
	if not user:
		enqueue_reply(settings, reply, _(not_linked).format(sender), target)
		return
	try:
		start_run(settings, user, text, external_id, reply, **target)
	except (frappe.PermissionError, frappe.ValidationError) as e:
		frappe.db.rollback()
		frappe.log_error(title=_("{0} message refused ({1})").format(source, settings), message=str(e))
		enqueue_reply(
			settings, reply, _("Sorry, I cannot answer you here: {0}").format(strip_html(str(e))), target
		)


def enqueue_reply(settings: str, reply: str, text: str, target: dict) -> None:
	"""Send `text` to the chat of `target` in a background job (send_reply)."""
	frappe.enqueue(
		"huf.ai.integrations.channels.inbound.send_reply",
		settings=settings,
		reply=reply,
		text=text,
		target=target,
	)


def start_run(settings: str, user: str, prompt: str, external_id: str, reply: str, **target) -> str:
	"""Queue the settings' agent run as `user` (persisted first); a job of its own runs it and hands the
	result to `answer` (`front_door.enqueue(..., then=...)`)."""
	agent = frappe.db.get_value(SETTINGS, settings, "agent")
	if not agent:
		frappe.throw(_("Integration Settings {0} has no Agent to answer messages.").format(settings))
	request = RunRequest(
		agent,
		prompt,
		user=user,
		channel=frappe.db.get_value(SETTINGS, settings, "service"),
		external_id=external_id,
	)
	then_kwargs = {"settings": settings, "reply": reply, "target": target}
	return front_door.enqueue(request, then=ANSWER, then_kwargs=then_kwargs).run


def answer(result: RunResult, settings: str, reply: str, target: dict) -> None:
	"""Send the run's answer (or its error) to the chat it came from with the service tool `reply`."""
	if result.complete:
		text = result.answer or _("(no answer)")
	else:
		text = _("Sorry, I could not answer: {0}").format(
			result.error["content"] if result.error else _("the run did not finish.")
		)
	send_reply(settings, reply, text, target)


def send_reply(settings: str, reply: str, text: str, target: dict) -> None:
	"""Send `text` with the service tool `reply` (dotted path) as Administrator: the channel's own answer
	to the chat it came from. A failure is logged, never raised to the job."""
	try:
		with acting_as("Administrator"):
			frappe.get_attr(reply)(text=text, settings=settings, **target)
	except Exception as e:
		frappe.log_error(title=_("{0}: could not send the answer").format(settings), message=str(e))


def split_text(text: str, limit: int) -> list[str]:
	"""`text` in parts of at most `limit` characters, cut at a line break or space where there is one."""
	parts = []
	while len(text) > limit:
		cut = max(text.rfind("\n", 0, limit), text.rfind(" ", 0, limit))
		if cut < limit // 2:
			cut = limit
		parts.append(text[:cut])
		text = text[cut:].lstrip("\n ") if cut < limit else text[cut:]
	return [*parts, text] if text else parts
