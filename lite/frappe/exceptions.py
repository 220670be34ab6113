"""Frappe's exception hierarchy; `http_status_code` decides the HTTP status of an error response."""

from werkzeug.exceptions import NotFound


class SiteNotSpecifiedError(Exception):
	def __init__(self, *args, **kwargs):
		self.message = "Please specify --site sitename"
		super(Exception, self).__init__(self.message)


class ValidationError(Exception):
	http_status_code = 417


class AuthenticationError(Exception):
	http_status_code = 401


class SessionExpired(AuthenticationError):
	pass


class PermissionError(Exception):  # noqa: A001 - Frappe's name
	http_status_code = 403


class DoesNotExistError(ValidationError):
	http_status_code = 404

	def __init__(self, *args, doctype=None):
		super().__init__(*args)
		self.doctype = doctype


class PageDoesNotExistError(ValidationError):
	http_status_code = 404


class NameError(Exception):  # noqa: A001 - Frappe's name
	http_status_code = 409


class DuplicateEntryError(NameError):
	pass


class UniqueValidationError(ValidationError):
	pass


class DataError(ValidationError):
	pass


class MandatoryError(ValidationError):
	pass


class InvalidSignatureError(ValidationError):
	pass


class InvalidNameError(ValidationError):
	pass


class LinkValidationError(ValidationError):
	pass


class LinkExistsError(ValidationError):
	pass


class CancelledLinkError(LinkValidationError):
	pass


class TimestampMismatchError(ValidationError):
	pass


class DocstatusTransitionError(ValidationError):
	pass


class UpdateAfterSubmitError(ValidationError):
	pass


class CharacterLengthExceededError(ValidationError):
	pass


class CSRFTokenError(Exception):
	http_status_code = 400


class TooManyRequestsError(Exception):
	http_status_code = 429


class OutgoingEmailError(Exception):
	pass


class QueryTimeoutError(Exception):
	pass


class QueryDeadlockError(Exception):
	pass


class InvalidColumnName(ValidationError):
	pass


class DocumentLockedError(ValidationError):
	pass


class ImplicitCommitError(ValidationError):
	pass


class RetryBackgroundJobError(Exception):
	pass


class SecurityException(Exception):
	pass


class InReadOnlyMode(ValidationError):
	http_status_code = 503


class IncorrectSitePath(NotFound):
	pass


class DocumentAlreadyRestored(ValidationError):
	pass


class InvalidEmailAddressError(ValidationError):
	pass


class InvalidPhoneNumberError(ValidationError):
	pass


class Redirect(Exception):
	"""Raised by a page to send the browser to `frappe.flags.redirect_location` (301 unless given)."""

	def __init__(self, http_status_code: int = 301):
		self.http_status_code = http_status_code


class AppNotInstalledError(ValidationError):
	pass


class FrappeTypeError(TypeError):
	http_status_code = 417


class CommandFailedError(Exception):
	def __init__(self, message: str, out: str, err: str):
		super().__init__(message)
		self.out = out
		self.err = err
