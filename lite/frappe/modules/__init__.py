"""Apps and their modules (modules.txt), as in Frappe's frappe.modules."""

from .utils import *
