import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import add_to_date, cint, get_datetime, now_datetime

from huf.ai.triggers.rules import (
	DOC_EVENT_AGENTS_CACHE_KEY,
	RUN_AS_TYPES,
	TRIGGER_TYPES,
	UNTRIGGERABLE_DOCTYPES,
	is_system_manager,
	trigger_metadata,
)
from huf.huf import safe_expression
from huf.huf.app_events import EVENT_NAME_PATTERN
from huf.huf.doc_events import DOC_EVENTS

INTERVAL_UNITS = {
	"Hourly": "hours",
	"Daily": "days",
	"Weekly": "weeks",
	"Monthly": "months",
	"Yearly": "years",
}
SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
SCHEDULE_FIELDS = (
	"trigger_type",
	"scheduled_interval",
	"interval_count",
	"cron_expression",
	"run_at",
	"disabled",
)
ONCE = "Once"  # a one-shot schedule: runs at Run At, then disables itself (huf.ai.triggers.schedule)
# What decides what a run of a Run As kind does: only the user it acts as, or a System Manager, may change it.
RUN_DEFINING_FIELDS = (
	"agent",
	"trigger_type",
	"run_as",
	"owner",
	"reference_doctype",
	"doc_event",
	"app_name",
	"event_name",
)
# The names a prompt template of each type may use (`{{ doc.status }}`); a condition may use `doc`.
TEMPLATE_NAMES = {
	"Doc Event": ("doc", "trigger", "event"),
	"Webhook": ("payload", "trigger"),
	"App Event": ("payload", "trigger"),
}
CONDITION_NAMES = ("doc",)


class AgentTrigger(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.agent_trigger_attachment.agent_trigger_attachment import AgentTriggerAttachment

		agent: DF.Link
		app_name: DF.Data | None
		condition: DF.Code | None
		cron_expression: DF.Data | None
		disabled: DF.Check
		disabled_reason: DF.SmallText | None
		doc_event: DF.Literal[
			"",
			"after_insert",
			"validate",
			"before_save",
			"on_update",
			"on_submit",
			"on_cancel",
			"on_trash",
			"on_change",
			"on_update_after_submit",
		]
		event_name: DF.Data | None
		file_attachments: DF.Table[AgentTriggerAttachment]
		interval_count: DF.Int
		is_virtual: DF.Check
		last_execution: DF.Datetime | None
		metadata: DF.JSON | None
		next_execution: DF.Datetime | None
		reference_doctype: DF.Link | None
		run_as: DF.Link | None
		run_at: DF.Datetime | None
		run_in_minutes: DF.Int
		scheduled_interval: DF.Literal["", "Hourly", "Daily", "Weekly", "Monthly", "Yearly", "Cron", "Once"]
		source_system: DF.Data | None
		trigger_name: DF.Data | None
		trigger_type: DF.Literal["", "Schedule", "Doc Event", "Webhook", "App Event", "Manual"]
		webhook_key: DF.Password | None
		webhook_key_shown: DF.Check
		webhook_slug: DF.Data | None
	# end: auto-generated types

	def before_insert(self) -> None:
		if not (self.trigger_name or "").strip():
			self.trigger_name = self.default_name()

	def acts_as_run_as(self) -> bool:
		"""Whether its runs act as its Run As, else its owner (Manual runs act as the caller)."""
		return self.trigger_type in RUN_AS_TYPES

	def default_name(self) -> str:
		base = f"{self.agent} - {self.trigger_type}"
		name, count = base, 1
		while frappe.db.exists("Agent Trigger", name):
			count += 1
			name = f"{base} {count}"
		return name

	def validate(self) -> None:
		self.validate_run_as()
		self.validate_metadata()
		validator = {
			"Doc Event": self.validate_doc_event,
			"Schedule": self.validate_schedule,
			"Webhook": self.validate_webhook,
			"App Event": self.validate_app_event,
		}.get(self.trigger_type)
		if validator:
			validator()

	def validate_doc_event(self) -> None:
		if not self.reference_doctype:
			frappe.throw(_("Reference DocType is required for a Doc Event trigger."))
		if self.doc_event not in DOC_EVENTS:
			frappe.throw(
				_("Doc Event must be one of {0}; {1} is not an event Frappe fires.").format(
					", ".join(DOC_EVENTS), frappe.bold(self.doc_event or _("(empty)"))
				)
			)
		if self.reference_doctype in UNTRIGGERABLE_DOCTYPES:
			frappe.throw(
				_("{0} cannot have Doc Event triggers: the agent's own run would trigger it again.").format(
					frappe.bold(self.reference_doctype)
				)
			)
		if frappe.get_meta(self.reference_doctype).istable:
			frappe.throw(
				_("{0} is a child table; attach the trigger to its parent DocType.").format(
					frappe.bold(self.reference_doctype)
				)
			)
		if (
			self.doc_event in ("on_submit", "on_cancel", "on_update_after_submit")
			and not frappe.get_meta(self.reference_doctype).is_submittable
		):
			frappe.throw(
				_("{0} is not submittable, so {1} never happens.").format(
					frappe.bold(self.reference_doctype), self.doc_event
				)
			)
		validate_condition(self.condition)
		self.validate_attachments()

	def validate_run_as(self) -> None:
		"""Runs act as Run As or the owner: only a System Manager may make that anyone but the editor."""
		if is_system_manager():
			return
		editor = frappe.session.user
		before = self.get_doc_before_save()
		if before and before.owner != self.owner:
			frappe.throw(
				_("Only a System Manager may change the owner of an Agent Trigger."), frappe.PermissionError
			)
		if self.run_as and self.run_as != editor and (not before or before.run_as != self.run_as):
			frappe.throw(
				_(
					"Only a System Manager may set Run As to another user ({0}). Leave it empty: the runs of"
					" your triggers act as you."
				).format(self.run_as),
				frappe.PermissionError,
			)
		acting = self.run_as or self.owner or editor
		if self.trigger_type not in RUN_AS_TYPES or acting == editor or not before:
			return
		changed = [f for f in RUN_DEFINING_FIELDS if before.get(f) != self.get(f)]
		if prompt_of(before) != prompt_of(self):
			changed.append("prompt")
		if changed:
			frappe.throw(
				_(
					"The runs of Agent Trigger {0} act as {1}: only {1} or a System Manager may change its"
					" Agent, Trigger Type, Run As, Reference DocType, Doc Event, App Name, Event Name or prompt."
				).format(self.name, acting),
				frappe.PermissionError,
			)

	def validate_metadata(self) -> None:
		metadata = trigger_metadata(self)
		if "run_as" in metadata:
			frappe.throw(
				_(
					"Metadata run_as is not read any more: set the Run As field instead (only a System Manager"
					" may set it to another user)."
				)
			)
		names = TEMPLATE_NAMES.get(self.trigger_type)
		if names:
			try:
				safe_expression.check_template(metadata.get("prompt"), names, _("Prompt template"))
			except safe_expression.ExpressionError as e:
				frappe.throw(str(e), safe_expression.ExpressionError)

	def validate_attachments(self) -> None:
		meta = frappe.get_meta(self.reference_doctype)
		for row in self.file_attachments or []:
			target = meta
			if row.source_type == "Child Table":
				table = meta.get_field(row.child_table) if row.child_table else None
				if not table or table.fieldtype not in ("Table", "Table MultiSelect"):
					frappe.throw(
						_("File Attachments row {0}: {1} is not a table of {2}.").format(
							row.idx, frappe.bold(row.child_table or ""), self.reference_doctype
						)
					)
				target = frappe.get_meta(table.options)
			field = target.get_field(row.field_name)
			if not field or field.fieldtype not in ("Attach", "Attach Image"):
				frappe.throw(
					_("File Attachments row {0}: {1} is not an Attach field of {2}.").format(
						row.idx, frappe.bold(row.field_name), target.name
					)
				)

	def validate_schedule(self) -> None:
		if not self.scheduled_interval:
			frappe.throw(_("Scheduled Interval is required for a Schedule trigger."))
		if self.scheduled_interval == ONCE:
			self.validate_once()
		elif self.scheduled_interval == "Cron":
			self.cron_expression = (self.cron_expression or "").strip()
			if not self.cron_expression or not _valid_cron(self.cron_expression):
				frappe.throw(
					_("{0} is not a valid cron expression (five fields, e.g. 0 9 * * 1-5).").format(
						frappe.bold(self.cron_expression or _("(empty)"))
					)
				)
		else:
			if not self.interval_count:
				self.interval_count = 1
			if cint(self.interval_count) < 1:
				frappe.throw(_("Interval Count must be at least 1."))
		if self.disabled:
			return
		before = self.get_doc_before_save()
		changed = not before or any(before.get(f) != self.get(f) for f in SCHEDULE_FIELDS)
		if changed or not self.next_execution:
			self.next_execution = self.compute_next_execution()

	def validate_once(self) -> None:
		"""Run In (minutes) becomes Run At (from now); an enabled one-shot needs a Run At still to come
		when it is new, re-enabled or moved."""
		minutes = cint(self.run_in_minutes)
		if minutes < 0:
			frappe.throw(_("Run In (minutes) must be 0 or more."))
		if minutes:
			self.run_at = add_to_date(now_datetime(), minutes=minutes)
			self.run_in_minutes = 0
		if not self.run_at:
			frappe.throw(_("A one-shot schedule needs Run At, or Run In (minutes)."))
		before = self.get_doc_before_save()
		moved = not before or any(before.get(f) != self.get(f) for f in SCHEDULE_FIELDS)
		if (
			not self.disabled
			and moved
			and get_datetime(self.run_at) < add_to_date(now_datetime(), minutes=-1)
		):
			frappe.throw(
				_("Run At {0} has passed: pick a time to come, or Run In (minutes).").format(self.run_at)
			)

	def compute_next_execution(self, after=None):
		"""The first run time after `after` (default: now); a one-shot's Run At."""
		after = get_datetime(after) if after else now_datetime()
		if self.scheduled_interval == ONCE:
			return get_datetime(self.run_at)  # due from then on, however late the scheduler looks
		if self.scheduled_interval == "Cron":
			from croniter import croniter

			return croniter(self.cron_expression, after).get_next(type(after))
		unit = INTERVAL_UNITS[self.scheduled_interval]
		return add_to_date(after, **{unit: cint(self.interval_count) or 1})

	def validate_webhook(self) -> None:
		self.webhook_slug = (self.webhook_slug or "").strip().lower() or _slugify(
			self.trigger_name or self.agent
		)
		if not SLUG_PATTERN.match(self.webhook_slug):
			frappe.throw(_("Webhook Slug may contain only lowercase letters, digits, - and _ (at most 80)."))
		clash = frappe.db.get_value(
			"Agent Trigger", {"webhook_slug": self.webhook_slug, "name": ("!=", self.name or "")}
		)
		if clash:
			frappe.throw(
				_("Webhook Slug {0} is already used by the trigger {1}.").format(
					frappe.bold(self.webhook_slug), clash
				),
				frappe.DuplicateEntryError,
			)
		if not self.webhook_key:
			# A Password field: stored encrypted, shown once (huf.api.triggers.reveal_webhook_key).
			self.webhook_key = frappe.generate_hash(length=40)
			self.webhook_key_shown = 0

	def validate_app_event(self) -> None:
		self.app_name = (self.app_name or "").strip()
		self.event_name = (self.event_name or "").strip()
		if not (self.app_name and self.event_name):
			frappe.throw(_("App Name and Event Name are required for an App Event trigger."))
		if self.app_name not in frappe.get_installed_apps():
			frappe.throw(
				_("App {0} is not installed on this site; App Name must be one of: {1}.").format(
					frappe.bold(self.app_name), ", ".join(frappe.get_installed_apps())
				)
			)
		if not EVENT_NAME_PATTERN.match(self.event_name):
			frappe.throw(
				_("Event Name may contain only letters, digits and _ . : / - (at most 140), like order_paid.")
			)

	def on_update(self) -> None:
		frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)

	@frappe.whitelist(methods=["POST"])
	def run_now(self) -> dict:
		"""Run the trigger's agent once now (Desk button Run now): queues an Agent Run and returns it."""
		from huf.ai.triggers.run_now import run_now

		return run_now(self.name)

	def on_trash(self) -> None:
		frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)


def validate_condition(condition: str | None) -> None:
	"""Throw unless `condition` is empty or a safe expression over `doc` (huf.huf.safe_expression)."""
	if not (condition or "").strip():
		return
	try:
		safe_expression.check(condition, CONDITION_NAMES, _("Condition"))
	except safe_expression.ExpressionError as e:
		frappe.throw(str(e), safe_expression.ExpressionError)


def prompt_of(trigger: Document) -> str | None:
	return trigger_metadata(trigger).get("prompt")


def _valid_cron(expression: str) -> bool:
	from croniter import croniter

	return len(expression.split()) == 5 and croniter.is_valid(expression)


def _slugify(text: str) -> str:
	slug = re.sub(r"[^a-z0-9]+", "-", (text or "").lower()).strip("-")[:80]
	return slug or frappe.generate_hash(length=10)


@frappe.whitelist()
def get_trigger_type() -> list[str]:
	"""The kinds of Agent Trigger (the options of Trigger Type), for callers who may read triggers."""
	frappe.has_permission("Agent Trigger", "read", throw=True)
	return list(TRIGGER_TYPES)
