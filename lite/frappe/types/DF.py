"""`frappe.types.DF`: the Python type of a document attribute, for each DocField type that holds a value.

Each alias is named after its fieldtype with the spaces taken out ("Small Text" is `SmallText`). The
type exporter (`frappe.types.exporter`) annotates a field as `DF.<alias>` when this module has one, as
`DF.Literal[...]` for a Select, and leaves out fieldtypes without an alias (breaks, buttons, HTML).
"""

from datetime import date, datetime, time
from typing import Literal

# Plain text: the base of every text-like fieldtype below.
Data = str
Text = str
Color = str

# Single-line values stored as text.
Attach = Data
AttachImage = Data
Autocomplete = Data
Barcode = Data
DynamicLink = Data
Link = Data
Password = Data
Phone = Data
ReadOnly = Data

# Multi-line values stored as text.
Code = Text
HTMLEditor = Text
JSON = Text
LongText = Text
MarkdownEditor = Text
SmallText = Text
TextEditor = Text

# Numbers; a Check holds 0/1 or a bool.
Check = bool | int
Int = int
Duration = int
Float = float
Currency = float
Percent = float
Rating = float

# Dates and times: a string as read from the database, or the value a controller sets.
Date = str | date
Datetime = str | datetime
Time = str | time

# One of a Select's options (the exporter writes `DF.Literal["a", "b"]`).
Select = Literal

# Child rows.
Table = list
TableMultiSelect = list
