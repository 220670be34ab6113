"""A `page_renderer` hook class used by the HTTP tests."""

from frappe.website.page_renderers.base_renderer import BaseRenderer
from werkzeug.wrappers import Response


class LiteStreamRenderer(BaseRenderer):
	def can_render(self):
		return self.path == "lite-stream" or self.path.startswith("lite-stream/")

	def render(self):
		return Response(f"data: {self.path}\n\n", mimetype="text/event-stream")
