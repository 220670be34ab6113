"""Document: the lifecycle of a record (insert, save, submit, cancel, delete) in Frappe's order."""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _, _dict
from frappe.model.base_document import BaseDocument, _cast_value, get_controller
from frappe.model.naming import set_new_name


def get_doc(*args, **kwargs) -> Document:
	"""`get_doc(doctype, name)` loads; `get_doc(dict)` / `get_doc(doctype=..., ...)` builds."""
	if args:
		first = args[0]
		if isinstance(first, BaseDocument):
			return first
		if isinstance(first, str):
			doctype = first
		elif isinstance(first, dict):
			kwargs = dict(first)
			args = ()
			doctype = kwargs.get("doctype")
		else:
			raise ValueError("First non keyword argument must be a string or dict")
	else:
		doctype = kwargs.get("doctype")
	if not doctype:
		raise ValueError('"doctype" is a required key')
	if kwargs.pop("for_update", None):
		frappe.db.begin()  # Frappe's SELECT ... FOR UPDATE: SQLite's write lock, held until the transaction ends
	controller = get_controller(doctype)
	if args:
		return controller(*args)
	return controller(kwargs)


class Document(BaseDocument):
	"""All controllers inherit from Document."""

	def __init__(self, *args, **kwargs):
		self.doctype = None
		self.name = None
		self.flags = _dict()
		self._doc_before_save = None
		self._original_modified = None
		self.parent_doc = None
		if args and isinstance(args[0], str):
			self.doctype = args[0]
			if len(args) == 1 or args[1] is None:
				self.name = args[0]
			elif isinstance(args[1], dict):
				name = frappe.db.get_value(args[0], args[1], "name")
				if not name:
					frappe.throw(
						_("{0} {1} not found").format(_(args[0]), args[1]),
						frappe.DoesNotExistError(doctype=args[0]),
					)
				self.name = name
			else:
				self.name = args[1]
			self._table_fieldnames = {df.fieldname for df in self.meta.get_table_fields()}
			self.load_from_db()
			return
		d = args[0] if args and isinstance(args[0], dict) else kwargs
		super().__init__(d)
		self._original_modified = self.modified

	# -- loading ------------------------------------------------------------------------------

	def load_from_db(self) -> None:
		"""(Re)load values and child rows from the database."""
		meta = self.meta
		if meta.issingle:
			values = frappe.db.get_singles_dict(self.doctype)
			for df in meta.fields:
				if (
					df.fieldname
					and df.fieldname not in values
					and df.default is not None
					and df.fieldtype not in ("Table", "Table MultiSelect")
				):
					values[df.fieldname] = _cast_value(df.fieldtype, df.default)
			values.update(name=self.doctype, doctype=self.doctype, docstatus=0)
			self.__dict__.update({k: v for k, v in values.items() if k not in self._table_fieldnames})
			if values.get("modified"):
				self.modified = _cast_value("Datetime", values.get("modified"))
		else:
			rows = frappe.db.sql(
				f"select * from `tab{self.doctype}` where name=%s", (self.name,), as_dict=True
			)
			if not rows:
				frappe.throw(
					_("{0} {1} not found").format(_(self.doctype), self.name),
					frappe.DoesNotExistError(doctype=self.doctype),
				)
			self.__dict__.update(rows[0])
		for df in meta.get_table_fields():
			rows = frappe.db.sql(
				f"select * from `tab{df.options}` where parent=%s and parenttype=%s and parentfield=%s order by idx",
				(self.name, self.doctype, df.fieldname),
				as_dict=True,
			)
			self.__dict__[df.fieldname] = []
			child_class = get_controller(df.options)
			for row in rows:
				row["doctype"] = df.options
				child = child_class(row)
				child.__dict__["__islocal"] = False
				child.parent_doc = self
				self.__dict__[df.fieldname].append(child)
		self.__dict__["__islocal"] = False
		self._original_modified = self.modified

	def reload(self) -> Document:
		self.load_from_db()
		return self

	def get_doc_before_save(self) -> Document | None:
		return self._doc_before_save

	def load_doc_before_save(self) -> None:
		self._doc_before_save = None
		if not self.is_new():
			try:
				self._doc_before_save = frappe.get_doc(self.doctype, self.name)
			except frappe.DoesNotExistError:
				frappe.local.message_log = frappe.local.message_log[:-1]

	def has_value_changed(self, fieldname: str) -> bool:
		previous = self.get_doc_before_save()
		if not previous:
			return True
		return previous.get(fieldname) != self.get(fieldname)

	# -- permissions --------------------------------------------------------------------------

	def has_permission(self, permtype: str = "read", *, debug: bool = False, user: str | None = None) -> bool:
		if self.flags.ignore_permissions:
			return True
		return frappe.has_permission(self.doctype, permtype, self, user=user)

	def check_permission(self, permtype: str = "read", permlevel: int | None = None) -> None:
		"""Raise PermissionError unless the user may `permtype` this document."""
		if not self.has_permission(permtype):
			self.raise_no_permission_to(permtype)

	def raise_no_permission_to(self, perm_type: str) -> None:
		frappe.flags.error_message = _("Insufficient Permission for {0}").format(_(self.doctype))
		frappe.throw(
			_("No permission to {0} {1} {2}").format(_(perm_type), _(self.doctype), self.name or ""),
			frappe.PermissionError,
			title=_("Not Permitted"),
		)

	# -- lifecycle ----------------------------------------------------------------------------

	def insert(
		self,
		ignore_permissions: bool | None = None,
		ignore_links: bool | None = None,
		ignore_if_duplicate: bool = False,
		ignore_mandatory: bool | None = None,
		set_name: str | None = None,
		set_child_names: bool = True,
	) -> Document:
		"""Validate and INSERT this document and its children, running the insert hooks."""
		if ignore_permissions is not None:
			self.flags.ignore_permissions = ignore_permissions
		if ignore_links is not None:
			self.flags.ignore_links = ignore_links
		if ignore_mandatory is not None:
			self.flags.ignore_mandatory = ignore_mandatory
		self.__dict__["__islocal"] = True
		self._set_defaults()
		self.set_user_and_timestamp()
		self.set_docstatus()
		self.check_if_latest()
		self._validate_links()
		self.check_permission("create")
		if self._action == "submit":
			self.check_permission("submit")
		self.run_method("before_insert")
		self.set_new_name(set_name=set_name, set_child_names=set_child_names)
		self.set_parent_in_children()
		self.flags.in_insert = True
		self._doc_before_save = None
		self.run_before_save_methods()
		self._validate()
		self.set_docstatus()
		self.flags.in_insert = False
		if self.meta.issingle:
			self.update_single(self.get_valid_dict())
		else:
			self.db_insert(ignore_if_duplicate=ignore_if_duplicate)
		for d in self.get_all_children():
			d.db_insert()
		self.__dict__["__islocal"] = False
		self.run_method("after_insert")
		self.flags.in_insert = True
		self.run_post_save_methods()
		self.flags.in_insert = False
		self._original_modified = self.modified
		return self

	def save(self, *args, **kwargs) -> Document:
		try:
			return self._save(*args, **kwargs)
		except BaseException:
			saving = _currently_saving()
			if (self.doctype, self.name) in saving:
				saving.remove((self.doctype, self.name))
			raise

	def _save(self, ignore_permissions: bool | None = None, ignore_version: bool | None = None) -> Document:
		"""Validate and UPDATE this document (INSERT when it is new)."""
		if ignore_permissions is not None:
			self.flags.ignore_permissions = ignore_permissions
		if self.get("__islocal") or not self.get("name"):
			return self.insert()
		self._set_defaults()
		self._set_action()
		self.check_permission("write")
		if self._action in ("submit", "cancel"):
			self.check_permission(self._action)
		self.load_doc_before_save()
		self.set_user_and_timestamp()
		self.set_docstatus()
		self.check_if_latest()
		self.set_parent_in_children()
		self.set_name_in_children()
		self._validate_links()
		self.run_before_save_methods()
		if self._action != "cancel":
			self._validate()
		if self._action == "update_after_submit":
			self.validate_update_after_submit()
		self.set_docstatus()
		if self.meta.issingle:
			self.update_single(self.get_valid_dict())
		else:
			self.db_update()
		self.update_children()
		self.run_post_save_methods()
		self._original_modified = self.modified
		return self

	def submit(self) -> Document:
		"""Submit (docstatus 0 -> 1)."""
		self.docstatus = 1
		return self.save()

	def cancel(self) -> Document:
		"""Cancel (docstatus 1 -> 2)."""
		self.docstatus = 2
		return self.save()

	def delete(
		self, ignore_permissions: bool = False, force: bool = False, *, delete_permanently: bool = False
	) -> None:
		frappe.delete_doc(
			self.doctype,
			self.name,
			ignore_permissions=ignore_permissions or self.flags.ignore_permissions,
			flags=self.flags,
			force=force,
		)

	def rename(
		self, name: str, merge: bool = False, force: bool = False, validate_rename: bool = True
	) -> str:
		"""Rename this document to `name` (and update links to it)."""
		from frappe.model.rename_doc import rename_doc

		self.name = rename_doc(doc=self, new=name, merge=merge, force=force, validate=validate_rename)
		self.reload()
		return self.name

	def run_before_save_methods(self) -> None:
		action = self._action
		# before_validate runs even when validations are ignored, the rest does not
		if action in ("save", "submit"):
			self.run_method("before_validate")
		if self.flags.ignore_validate:
			return
		if action == "save":
			self.run_method("validate")
			self.run_method("before_save")
		elif action == "submit":
			self.run_method("validate")
			self.run_method("before_submit")
		elif action == "cancel":
			self.run_method("before_cancel")
		elif action == "update_after_submit":
			self.run_method("before_update_after_submit")

	def run_post_save_methods(self) -> None:
		action = self._action
		if action == "save":
			self.run_method("on_update")
		elif action == "submit":
			self.run_method("on_update")
			self.run_method("on_submit")
		elif action == "cancel":
			self.run_method("on_cancel")
		elif action == "update_after_submit":
			self.run_method("on_update_after_submit")
		if action == "cancel":
			self.check_no_back_links_exist()
		self.clear_cache()
		self.notify_update()
		self.run_method("on_change")
		saving = _currently_saving()
		if (self.doctype, self.name) in saving:
			saving.remove((self.doctype, self.name))

	def check_no_back_links_exist(self) -> None:
		"""A document cannot be cancelled while submitted documents link to it."""
		from frappe.model.delete_doc import check_if_doc_is_dynamically_linked, check_if_doc_is_linked

		if not self.flags.ignore_links:
			check_if_doc_is_linked(self, method="Cancel")
			check_if_doc_is_dynamically_linked(self, method="Cancel")

	def run_method(self, method: str, *args, **kwargs) -> Any:
		"""Call the controller method `method`, then every doc_events hook for it."""
		fn = getattr(self, method, None)
		out = fn(*args, **kwargs) if callable(fn) else None
		for handler in _doc_event_handlers(self.doctype, method):
			hook_out = frappe.get_attr(handler)(self, method, *args, **kwargs)
			out = hook_out if hook_out is not None else out
		return out

	def _set_action(self) -> None:
		self._action = "save"
		if self.meta.issingle or self.is_new():
			if frappe.utils.cint(self.docstatus) == 1:
				self._action = "submit"
			elif frappe.utils.cint(self.docstatus) == 2:
				raise frappe.DocstatusTransitionError(_("Cannot change docstatus from 0 to 2"))
			return
		previous = frappe.db.sql(f"select docstatus from `tab{self.doctype}` where name=%s", (self.name,))
		if not previous:
			frappe.throw(_("{0} {1} not found").format(_(self.doctype), self.name), frappe.DoesNotExistError)
		before, after = frappe.utils.cint(previous[0][0]), frappe.utils.cint(self.docstatus)
		transitions = {(0, 0): "save", (0, 1): "submit", (1, 1): "update_after_submit", (1, 2): "cancel"}
		if (before, after) not in transitions:
			if before == 2:
				raise frappe.ValidationError(_("Cannot edit cancelled document"))
			raise frappe.DocstatusTransitionError(
				_("Cannot change docstatus from {0} to {1}").format(before, after)
			)
		self._action = transitions[(before, after)]
		if self._action == "submit" and not self.meta.is_submittable:
			raise frappe.DocstatusTransitionError(_("{0} is not submittable").format(_(self.doctype)))

	def set_docstatus(self) -> None:
		if self.docstatus is None:
			self.docstatus = 0
		for d in self.get_all_children():
			d.docstatus = self.docstatus

	def set_user_and_timestamp(self) -> None:
		self._original_modified = self.modified  # what the caller had (a client may send its own)
		now = frappe.utils.now_datetime()
		user = frappe.session.user
		if self.name is not None and not self.is_new():
			_currently_saving().append((self.doctype, self.name))
		self.modified = now
		self.modified_by = user
		# the caller cannot choose owner and creation, except installs, patches and migrations
		flags = frappe.flags
		if self.is_new() and not (flags.in_install or flags.in_patch or flags.in_migrate):
			self.creation = now
			self.owner = user
		elif self.is_new():
			self.creation = self.creation or now
			self.owner = self.owner or user
		for d in self.get_all_children():
			d.modified, d.modified_by = now, user
			if not d.owner:
				d.owner = self.owner
			if not d.creation:
				d.creation = self.creation

	def check_if_latest(self) -> None:
		"""Refuse to save a copy that was loaded before someone else saved the document."""
		if self.is_new():
			self._action = "submit" if frappe.utils.cint(self.docstatus) == 1 else "save"
			if frappe.utils.cint(self.docstatus) == 2:
				raise frappe.DocstatusTransitionError(_("Cannot change docstatus from 0 to 2"))
			return
		if self.meta.issingle:
			stored = frappe.db.sql(
				"select value from tabSingles where doctype=%s and field='modified'", (self.doctype,)
			)
			stored = stored[0][0] if stored else None
		else:
			rows = frappe.db.sql(f"select modified from `tab{self.doctype}` where name=%s", (self.name,))
			stored = rows[0][0] if rows else None
		if stored and self._original_modified and _ts(stored) != _ts(self._original_modified):
			frappe.msgprint(
				_(
					"Error: Document has been modified after you have opened it ({0}, {1}). Please refresh to get the latest document."
				).format(_ts(stored), _ts(self._original_modified)),
				raise_exception=frappe.TimestampMismatchError,
			)

	def _set_defaults(self) -> None:
		"""Field defaults for values not given (Frappe's special defaults included): of a new record and
		all its rows; of a saved one only its new rows (as Frappe's save does)."""
		rows = self.get_all_children()
		docs = [self, *rows] if self.is_new() else [d for d in rows if d.is_new() or not d.name]
		for doc in docs:
			for df in doc.meta.fields:
				if not df.fieldname or df.fieldtype in ("Table", "Table MultiSelect"):
					continue
				if doc.__dict__.get(df.fieldname) is None and df.default is not None:
					doc.__dict__[df.fieldname] = _default_value(df)

	def set_parent_in_children(self) -> None:
		for df in self.meta.get_table_fields():
			for i, d in enumerate(self.__dict__.get(df.fieldname) or [], start=1):
				d.parent, d.parenttype, d.parentfield, d.idx = self.name, self.doctype, df.fieldname, i
				d.parent_doc = self

	def set_name_in_children(self) -> None:
		from frappe.model.naming import make_autoname

		for d in self.get_all_children():
			if not d.name:
				d.name = make_autoname("hash", d.doctype)

	def _validate(self) -> None:
		self._validate_mandatory()
		self._validate_data_fields()
		self._validate_selects()
		self._validate_length()
		self._validate_json()
		self._fix_numeric_types()
		self._save_passwords()
		for d in self.get_all_children():
			d._validate_data_fields()
			d._validate_selects()
			d._validate_length()
			d._validate_json()
			d._fix_numeric_types()
			d._save_passwords()

	def _validate_mandatory(self) -> None:
		if self.flags.ignore_mandatory:
			return
		missing = self._get_missing_mandatory_fields()
		for d in self.get_all_children():
			missing.extend(d._get_missing_mandatory_fields())
		if not missing:
			return
		for _fieldname, label in missing:
			frappe.msgprint(
				_("Error: Value missing for {0}: {1}").format(_(self.doctype), label), indicator="red"
			)
		raise frappe.MandatoryError(
			"[{}, {}]: {}".format(self.doctype, self.name, ", ".join(f for f, _label in missing))
		)

	def _validate_links(self) -> None:
		if self.flags.ignore_links or getattr(self, "_action", None) == "cancel":
			return
		invalid, cancelled = self.get_invalid_links(is_submittable=self.meta.is_submittable)
		for d in self.get_all_children():
			child_invalid, child_cancelled = d.get_invalid_links(is_submittable=self.meta.is_submittable)
			invalid.extend(child_invalid)
			cancelled.extend(child_cancelled)
		if invalid:
			msg = ", ".join(f"{label}: {value}" for _f, value, label in invalid)
			frappe.throw(
				_("Could not find {0}").format(msg), frappe.LinkValidationError, title=_("Links Validation")
			)
		if cancelled:
			msg = ", ".join(f"{label}: {value}" for _f, value, label in cancelled)
			frappe.throw(_("Cannot link cancelled document: {0}").format(msg), frappe.CancelledLinkError)

	def validate_update_after_submit(self) -> None:
		"""Only `allow_on_submit` fields (and rows of such tables) may change on a submitted document."""
		previous = self.get_doc_before_save()
		if self.flags.ignore_validate_update_after_submit or not previous:
			return
		_compare_after_submit(self, previous)
		for df in self.meta.get_table_fields():
			if df.allow_on_submit:
				continue
			before = {d.name: d for d in previous.get(df.fieldname) or []}
			rows = self.get(df.fieldname) or []
			if len(rows) != len(before) or any(d.name not in before for d in rows):
				frappe.throw(
					_("Not allowed to change {0} after submission").format(_(df.label or df.fieldname)),
					frappe.UpdateAfterSubmitError,
				)
			for d in rows:
				_compare_after_submit(d, before[d.name])

	def update_single(self, d: dict) -> None:
		frappe.db.sql("delete from tabSingles where doctype=%s", (self.doctype,))
		for field, value in d.items():
			if field in ("doctype", "name", "docstatus", "idx", "owner", "creation") or value is None:
				continue
			frappe.db.sql(
				"insert into tabSingles(doctype, field, value) values (%s, %s, %s)",
				(self.doctype, field, _to_text(value)),
			)

	def update_children(self) -> None:
		for df in self.meta.get_table_fields():
			rows = self.__dict__.get(df.fieldname) or []
			for d in rows:
				exists = (
					not d.get("__islocal")
					and d.name
					and frappe.db.sql(f"select 1 from `tab{df.options}` where name=%s", (d.name,))
				)
				if exists:
					d.db_update()
				else:
					d.db_insert()
			names = [d.name for d in rows]
			placeholders = ", ".join(["%s"] * len(names))
			condition = f" and name not in ({placeholders})" if names else ""
			frappe.db.sql(
				f"delete from `tab{df.options}` where parent=%s and parenttype=%s and parentfield=%s{condition}",
				[self.name, self.doctype, df.fieldname, *names],
			)

	def db_set(
		self,
		fieldname: str | dict,
		value: Any = None,
		update_modified: bool = True,
		notify: bool = False,
		commit: bool = False,
	) -> None:
		"""Set field(s) in the database without validation (runs before_change and on_change)."""
		values = dict(fieldname) if isinstance(fieldname, dict) else {fieldname: value}
		from frappe.utils.password import set_encrypted_password

		for key, val in list(values.items()):
			df = self.meta.get_field(key)
			if df and df.fieldtype == "Password" and val and not self.is_dummy_password(val):
				set_encrypted_password(self.doctype, self.name, val, key)
				values[key] = "*" * len(str(val))
		self.update(values)
		# inside on_update & co. (the document is being saved) modified is left alone, as in Frappe
		if update_modified and (self.doctype, self.name) not in _currently_saving():
			self.modified = frappe.utils.now_datetime()
			self.modified_by = frappe.session.user
		if not self.get_doc_before_save():
			self.load_doc_before_save()
		self.run_method("before_change")
		if self.name is None:
			return
		if self.meta.issingle:
			frappe.db.set_single_value(self.doctype, values)
		else:
			frappe.db.set_value(
				self.doctype,
				self.name,
				values,
				None,
				self.modified,
				self.modified_by,
				update_modified=update_modified,
			)
		if update_modified:
			self._original_modified = self.modified
		self.run_method("on_change")
		if notify:
			self.notify_update()
		self.clear_cache()
		if commit:
			frappe.db.commit()

	def get_db_value(self, key: str) -> Any:
		return frappe.db.get_value(self.doctype, self.name, key)

	def clear_cache(self) -> None:
		frappe.clear_document_cache(self.doctype, self.name)

	def notify_update(self) -> None:
		"""Tell listeners (the dashboard) that this document changed."""
		if frappe.flags.in_install or frappe.flags.in_migrate:
			return
		frappe.publish_realtime(
			"doc_update",
			{"modified": str(self.modified), "doctype": self.doctype, "name": self.name},
			doctype=self.doctype,
			docname=self.name,
			after_commit=True,
		)

	def add_comment(
		self,
		comment_type="Comment",
		text=None,
		comment_email=None,
		comment_by=None,
	):
		"""Add a comment to this document."""
		return frappe.get_doc(
			{
				"doctype": "Comment",
				"comment_type": comment_type,
				"comment_email": comment_email or frappe.session.user,
				"comment_by": comment_by,
				"reference_doctype": self.doctype,
				"reference_name": self.name,
				"content": text or comment_type,
			}
		).insert(ignore_permissions=True)

	def set_new_name(self, force=False, set_name=None, set_child_names=True):
		"""Calls `frappe.model.naming.set_new_name` for parent and child docs."""
		from frappe.model.naming import validate_name

		if (frappe.flags.api_name_set or self.flags.name_set) and not force:
			return
		autoname = self.meta.autoname or ""
		if self.get("__newname") and autoname.lower() == "prompt":
			self.name = validate_name(self.doctype, self.get("__newname"))
			self.flags.name_set = True
			return
		if set_name:
			self.name = validate_name(self.doctype, set_name)
		else:
			set_new_name(self)
		if set_child_names:
			for d in self.get_all_children():
				set_new_name(d)
		self.flags.name_set = True

	def get_all_children(self, parenttype=None) -> list[BaseDocument]:
		"""Child rows of every table field (or of the tables of `parenttype`)."""
		children = []
		for df in self.meta.get_table_fields():
			if parenttype and df.options != parenttype:
				continue
			children.extend(self.__dict__.get(df.fieldname) or [])
		return children

	def get_title(self):
		"""The value of the title field, else the name."""
		return str(self.get(self.meta.get_title_field()) or self.name)

	def is_whitelisted(self, method_name):
		"""Raise unless `method_name` is a whitelisted method of this document's controller."""
		from werkzeug.exceptions import NotFound

		method = getattr(self, method_name, None)
		if not method:
			raise NotFound(f"Method {method_name} not found")
		frappe.is_whitelisted(getattr(method, "__func__", method))

	def get_url(self) -> str:
		return f"/app/{frappe.scrub(self.doctype).replace('_', '-')}/{self.name}"

	def queue_action(self, action: str, **kwargs) -> None:
		frappe.enqueue_doc(self.doctype, self.name, action, **kwargs)

	def lock(self, timeout: int | None = None) -> None:
		pass

	def unlock(self) -> None:
		pass

	def is_locked(self) -> bool:
		return False

	def apply_fieldlevel_read_permissions(self) -> None:
		pass


def _compare_after_submit(doc: BaseDocument, previous: BaseDocument) -> None:
	for df in doc.meta.get_data_fields():
		if df.allow_on_submit or df.fieldname in ("modified", "modified_by") or df.fieldtype == "Password":
			continue
		if _cast_value(df.fieldtype, previous.get(df.fieldname)) != _cast_value(
			df.fieldtype, doc.get(df.fieldname)
		):
			label = _(df.label or df.fieldname)
			if doc.meta.istable:
				label = _("Row #{0}:").format(doc.idx) + " " + label
			frappe.throw(
				_("Not allowed to change {0} after submission").format(label), frappe.UpdateAfterSubmitError
			)


def _currently_saving() -> list:
	"""(doctype, name) of the documents being saved in this context."""
	flags = frappe.local.flags
	if flags.currently_saving is None:
		flags.currently_saving = []
	return flags.currently_saving


_handler_cache: dict[tuple[int, str, str], list[str]] = {}


def _doc_event_handlers(doctype: str, method: str) -> list[str]:
	"""doc_events hooks for this DocType, then the "*" ones."""
	events = frappe.get_hooks("doc_events") or {}
	key = (id(events), doctype, method)
	handlers = _handler_cache.get(key)
	if handlers is None:
		handlers = []
		# keys may be a DocType, a tuple of DocTypes, or "*" (which runs last)
		for target, by_method in events.items():
			if target == doctype or (isinstance(target, tuple) and doctype in target):
				handlers.extend((by_method or {}).get(method, []))
		handlers.extend((events.get("*") or {}).get(method, []))
		_handler_cache[key] = handlers
	return handlers


def _default_value(df: _dict) -> Any:
	default = df.default
	if isinstance(default, str):
		lowered = default.lower()
		if df.fieldtype == "Date" and lowered == "today":
			return frappe.utils.nowdate()
		if df.fieldtype == "Datetime" and lowered == "now":
			return frappe.utils.now_datetime()
		if df.fieldtype == "Time" and lowered == "now":
			return frappe.utils.nowtime()
		if default == "__user":
			return frappe.session.user
	return _cast_value(df.fieldtype, default)


def _ts(value: Any) -> str:
	text = str(value)
	return text if "." in text else text + ".000000"


def _to_text(value: Any) -> Any:
	from frappe.database.database import _single_text

	return _single_text(value)
