"""Files sent to chat endpoints as base64: decoded, checked (size, name, audio type) and saved privately.

`decode_upload` turns `b64data` (plain base64 or a `data:` URL) into bytes with clear errors: bad
base64, empty, larger than the site's `max_file_size` (audio also at most the 25 MB STT limit).
`check_audio` accepts only recordings whose name and first bytes say audio (MP3, WAV, OGG/Opus,
FLAC, WebM, MP4/M4A, AAC); `check_document` only images and documents Huf can read (not HTML, SVG,
XML or JavaScript, which a browser opening the file would run: huf/huf/file_safety.py).
`save_upload` stores the bytes as a private File, attached to the conversation when there is one
(whoever may read the conversation may read the file), else only its owner may read it.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

import frappe
from frappe import _

from huf.ai.media import common

AUDIO_EXTENSIONS = frozenset(
	{"mp3", "mpga", "mpeg", "wav", "ogg", "oga", "opus", "flac", "webm", "m4a", "mp4", "aac"}
)
MAX_AUDIO_BYTES = 25 * 1024 * 1024  # OpenAI's transcription limit
MAX_NAME_CHARS = 140
_DATA_URL = re.compile(r"^data:[^,]{0,200},", re.IGNORECASE)
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]")


class UploadTooLargeError(frappe.ValidationError):
	"""The uploaded file is larger than the site accepts."""

	http_status_code = 413


def max_upload_bytes(audio: bool = False) -> int:
	"""The largest upload the site accepts (`max_file_size`); audio also at most MAX_AUDIO_BYTES."""
	from frappe.utils.file_manager import get_max_file_size

	limit = int(get_max_file_size())
	return min(limit, MAX_AUDIO_BYTES) if audio else limit


def decode_upload(b64data: Any, audio: bool = False) -> bytes:
	"""The bytes of `b64data`; throws on missing, malformed, empty or oversized data."""
	if not isinstance(b64data, str) or not b64data.strip():
		frappe.throw(_("Send the file's content as base64 (b64data)."))
	text = _DATA_URL.sub("", b64data.strip(), count=1)
	limit = max_upload_bytes(audio)
	if len(text) > (limit // 3 + 1) * 4 + 4:  # refuse before decoding a huge string
		_too_large(limit)
	try:
		content = base64.b64decode(re.sub(r"\s+", "", text), validate=True)
	except (binascii.Error, ValueError):
		frappe.throw(_("The file's content is not valid base64."))
	if not content:
		frappe.throw(_("The file is empty."))
	if len(content) > limit:
		_too_large(limit)
	return content


def _too_large(limit: int) -> None:
	frappe.throw(
		_("The file is larger than {0} MB.").format(round(limit / 1024 / 1024, 2)), UploadTooLargeError
	)


def clean_filename(filename: Any) -> str:
	"""`filename` without folders or characters a file name cannot have; throws when nothing is left."""
	if not isinstance(filename, str):
		frappe.throw(_("Name the file (filename)."))
	name = _UNSAFE_NAME.sub("", filename.replace("\\", "/").rsplit("/", 1)[-1]).strip().strip(".")
	if not name:
		frappe.throw(_("Name the file (filename)."))
	if len(name) > MAX_NAME_CHARS:
		stem, dot, ext = name.rpartition(".")
		name = (
			(stem[: MAX_NAME_CHARS - len(ext) - 1] + dot + ext)
			if dot and len(ext) < 10
			else name[:MAX_NAME_CHARS]
		)
	return name


def extension(filename: str) -> str:
	return filename.rsplit(".", 1)[-1].lower() if "." in filename else ""


def is_audio(content: bytes) -> bool:
	"""Whether the first bytes are those of a common audio container."""
	head = content[:16]
	return (
		head.startswith((b"ID3", b"OggS", b"fLaC", b"\x1a\x45\xdf\xa3"))  # MP3 tag, Ogg, FLAC, WebM/Matroska
		or (head[:4] == b"RIFF" and head[8:12] == b"WAVE")
		or head[4:8] == b"ftyp"  # MP4 / M4A
		or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0)  # MPEG audio / AAC frame sync
	)


def check_audio(filename: str, content: bytes) -> None:
	"""Throw unless `filename` has an audio extension and `content` starts like an audio file."""
	if extension(filename) not in AUDIO_EXTENSIONS:
		frappe.throw(
			_("{0} is not an audio file. Send one of: {1}.").format(
				frappe.bold(filename), ", ".join(sorted(AUDIO_EXTENSIONS))
			)
		)
	if not is_audio(content):
		frappe.throw(_("The content of {0} is not a recognised audio format.").format(frappe.bold(filename)))


def check_document(filename: str) -> None:
	"""Throw unless the file is an image or a document whose text Huf can read (no HTML or XML)."""
	from huf.ai.media.extractors import SUPPORTED_EXTENSIONS
	from huf.huf.file_safety import ACTIVE_EXTENSIONS

	allowed = (SUPPORTED_EXTENSIONS | common.IMAGE_EXTENSIONS) - ACTIVE_EXTENSIONS
	if extension(filename) not in allowed:
		frappe.throw(
			_("{0} cannot be processed. Send one of: {1}.").format(
				frappe.bold(filename), ", ".join(sorted(allowed))
			)
		)


def save_upload(filename: str, content: bytes, conversation: str | None = None) -> Any:
	"""A private File with `content`, attached to the conversation when given."""
	return common.new_file(
		filename, content, "Agent Conversation" if conversation else None, conversation, is_private=1
	)
