"""Field-type groups and standard columns, as in Frappe's frappe.model."""

default_fields = ("name", "owner", "creation", "modified", "modified_by", "docstatus", "idx")
child_table_fields = ("parent", "parentfield", "parenttype")
optional_fields = ("_user_tags", "_comments", "_assign", "_liked_by", "_seen")
table_fields = ("Table", "Table MultiSelect")
no_value_fields = (
	"Section Break",
	"Column Break",
	"Tab Break",
	"HTML",
	"Table",
	"Table MultiSelect",
	"Button",
	"Image",
	"Fold",
	"Heading",
)
display_fieldtypes = (
	"Section Break",
	"Column Break",
	"Tab Break",
	"HTML",
	"Button",
	"Image",
	"Fold",
	"Heading",
)
numeric_fieldtypes = ("Currency", "Int", "Long Int", "Float", "Percent", "Check", "Rating", "Duration")
float_like_fields = ("Float", "Currency", "Percent", "Rating", "Duration")
datetime_fields = ("Datetime", "Date", "Time")
data_fieldtypes = (
	"Currency",
	"Int",
	"Long Int",
	"Float",
	"Percent",
	"Check",
	"Small Text",
	"Long Text",
	"Code",
	"Text Editor",
	"Markdown Editor",
	"HTML Editor",
	"Date",
	"Datetime",
	"Time",
	"Text",
	"Data",
	"Link",
	"Dynamic Link",
	"Password",
	"Select",
	"Rating",
	"Read Only",
	"Attach",
	"Attach Image",
	"Signature",
	"Color",
	"Barcode",
	"Geolocation",
	"Duration",
	"Icon",
	"Phone",
	"Autocomplete",
	"JSON",
)
