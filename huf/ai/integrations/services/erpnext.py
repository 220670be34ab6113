"""The `erpnext` tool: ERPNext's transactions and accounting on the site of the `frappe` settings (sales and
purchase invoices, payments, customers, quotations, requests for quotation, the general ledger and
journal entries), through its REST API with that site user's API key. One tool, several actions (as
upstream Huf had it); what it creates is a draft for a person to submit on the site."""

from huf.ai.integrations.services.frappe_site import (
	DATE_RANGE,
	date_filters,
	equal_filters,
	fetch,
	insert,
	list_rows,
	site_client,
)
from huf.ai.integrations.services.tool_params import (
	choice,
	given,
	json_arg,
	limit_of,
	param,
	require,
	run_action,
	tool,
)

SERVICE = "frappe"
DOCSTATUS = {0: "Draft", 1: "Submitted", 2: "Cancelled"}
DOCSTATUS_OF = {label: value for value, label in DOCSTATUS.items()}
SALES_INVOICE, PURCHASE_INVOICE = "Sales Invoice", "Purchase Invoice"
PAYMENT, QUOTATION, RFQ, GL, JOURNAL = (
	"Payment Entry",
	"Quotation",
	"Request for Quotation",
	"GL Entry",
	"Journal Entry",
)
INVOICE_FIELDS = [
	"name",
	"posting_date",
	"due_date",
	"grand_total",
	"outstanding_amount",
	"status",
	"docstatus",
]
SALES_INVOICE_FIELDS = ["customer", "customer_name", *INVOICE_FIELDS]
PURCHASE_INVOICE_FIELDS = ["supplier", "supplier_name", "bill_no", *INVOICE_FIELDS]
PAYMENT_FIELDS = [
	"name",
	"payment_type",
	"party_type",
	"party",
	"party_name",
	"paid_amount",
	"posting_date",
	"mode_of_payment",
	"status",
	"docstatus",
]
QUOTATION_FIELDS = [
	"name",
	"quotation_to",
	"party_name",
	"customer_name",
	"company",
	"transaction_date",
	"valid_till",
	"currency",
	"grand_total",
	"status",
	"docstatus",
]
CUSTOMER_FIELDS = ["name", "customer_name", "customer_type", "customer_group", "territory", "disabled"]
GL_FIELDS = [
	"name",
	"posting_date",
	"account",
	"party_type",
	"party",
	"debit",
	"credit",
	"voucher_type",
	"voucher_no",
	"cost_center",
	"remarks",
]
ADDRESS_FIELDS = [
	"name",
	"address_title",
	"address_type",
	"address_line1",
	"city",
	"country",
	"email_id",
	"phone",
]
CONTACT_FIELDS = ["name", "full_name", "email_id", "mobile_no", "phone"]
PAYMENT_TYPES = ("Receive", "Pay", "Internal Transfer")
PARTY_TYPES = ("Customer", "Supplier")
# The invoice a payment of a party type settles.
INVOICE_OF_PARTY = {"Customer": SALES_INVOICE, "Supplier": PURCHASE_INVOICE}


def _labelled(rows: list[dict]) -> list[dict]:
	"""Rows with `docstatus_label` (Draft, Submitted, Cancelled) beside their docstatus."""
	return [
		{**row, "docstatus_label": DOCSTATUS.get(row.get("docstatus"), row.get("docstatus"))} for row in rows
	]


def _status_filter(doctype: str, status: str | None) -> list:
	"""Draft / Submitted / Cancelled filter the docstatus, any other status the status field."""
	if not status:
		return []
	if status in DOCSTATUS_OF:
		return [[doctype, "docstatus", "=", DOCSTATUS_OF[status]]]
	return [[doctype, "status", "=", status]]


def _list(values: dict, doctype: str, fields: list, filters: list, key: str, date_field: str) -> dict:
	rows = list_rows(
		site_client(values),
		doctype,
		fields,
		filters=filters + date_filters(doctype, date_field, values),
		order_by=f"{date_field} desc",
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), key: _labelled(rows) if "docstatus" in fields else rows}


def _get(doctype: str):
	def get(values: dict) -> dict:
		document = fetch(site_client(values), doctype, values.get("name"))
		return {**document, "docstatus_label": DOCSTATUS.get(document.get("docstatus"))}

	return get


def _item_rows(values: dict) -> list[dict]:
	rows = json_arg(require(values.get("items"), "items"), "items", (list,))
	items = [
		{"qty": 1, **given(row, ("item_code", "qty", "rate", "uom", "description"))}
		for row in rows
		if isinstance(row, dict) and row.get("item_code")
	]
	return require(items, "items with an item_code")


def _created(document: dict) -> dict:
	return {
		"created": True,
		"name": document.get("name"),
		"docstatus_label": DOCSTATUS.get(document.get("docstatus"), "Draft"),
	}


def _list_sales_invoices(values: dict) -> dict:
	filters = equal_filters(SALES_INVOICE, values, ("customer", "company"))
	filters += _status_filter(SALES_INVOICE, values.get("status"))
	return _list(values, SALES_INVOICE, SALES_INVOICE_FIELDS, filters, "invoices", "posting_date")


def _create_sales_invoice(values: dict) -> dict:
	invoice = {
		"customer": require(values.get("customer"), "customer"),
		**given(values, ("company", "posting_date", "due_date")),
		"items": _item_rows(values),
	}
	if values.get("posting_date"):
		invoice["set_posting_time"] = 1  # keep the given date instead of today's
	return _created(insert(site_client(values), SALES_INVOICE, invoice))


def _list_purchase_invoices(values: dict) -> dict:
	filters = equal_filters(PURCHASE_INVOICE, values, ("supplier", "company"))
	filters += _status_filter(PURCHASE_INVOICE, values.get("status"))
	return _list(values, PURCHASE_INVOICE, PURCHASE_INVOICE_FIELDS, filters, "invoices", "posting_date")


def _list_payments(values: dict) -> dict:
	filters = equal_filters(PAYMENT, values, ("party_type", "party", "payment_type", "company"))
	filters += _status_filter(PAYMENT, values.get("status"))
	return _list(values, PAYMENT, PAYMENT_FIELDS, filters, "payments", "posting_date")


def _create_payment(values: dict) -> dict:
	"""A draft Payment Entry; with `invoice_name`, allocated to that invoice of the party."""
	payment_type = require(values.get("payment_type"), "payment_type")
	party_type = require(values.get("party_type"), "party_type")
	amount = require(values.get("paid_amount"), "paid_amount")
	payment = {
		"payment_type": payment_type,
		"party_type": party_type,
		"party": require(values.get("party"), "party"),
		"paid_amount": amount,
		"received_amount": values.get("received_amount") or amount,
		**given(
			values,
			(
				"company",
				"posting_date",
				"mode_of_payment",
				"paid_from",
				"paid_to",
				"reference_no",
				"reference_date",
				"source_exchange_rate",
				"target_exchange_rate",
			),
		),
	}
	if values.get("invoice_name"):
		invoice_doctype = require(INVOICE_OF_PARTY.get(party_type), "party_type Customer or Supplier")
		payment["references"] = [
			{
				"reference_doctype": invoice_doctype,
				"reference_name": values["invoice_name"],
				"allocated_amount": amount,
			}
		]
	return _created(insert(site_client(values), PAYMENT, payment))


def _list_customers(values: dict) -> dict:
	search = values.get("search")
	rows = list_rows(
		site_client(values),
		"Customer",
		CUSTOMER_FIELDS,
		filters=equal_filters("Customer", values, ("customer_group", "territory")),
		or_filters=[
			["Customer", f, "like", "%" + "%".join(search.split()) + "%"] for f in ("name", "customer_name")
		]
		if search
		else None,
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), "customers": rows}


def _get_customer(values: dict) -> dict:
	"""The customer with its addresses and contacts (linked to it through their Links table)."""
	client = site_client(values)
	customer = fetch(client, "Customer", values.get("name"))
	linked = {}
	for doctype, fields in (("Address", ADDRESS_FIELDS), ("Contact", CONTACT_FIELDS)):
		linked[doctype] = list_rows(
			client,
			doctype,
			fields,
			filters=[
				["Dynamic Link", "link_doctype", "=", "Customer"],
				["Dynamic Link", "link_name", "=", customer.get("name") or values.get("name")],
			],
			limit=20,
		)
	return {**customer, "addresses": linked["Address"], "contacts": linked["Contact"]}


def _list_quotations(values: dict) -> dict:
	filters = equal_filters(QUOTATION, values, ("party_name", "company"))
	filters += _status_filter(QUOTATION, values.get("status"))
	return _list(values, QUOTATION, QUOTATION_FIELDS, filters, "quotations", "transaction_date")


def _create_quotation(values: dict) -> dict:
	quotation = {
		"quotation_to": require(values.get("quotation_to"), "quotation_to"),
		"party_name": require(values.get("party_name"), "party_name"),
		**given(values, ("company", "transaction_date", "valid_till")),
		"items": _item_rows(values),
	}
	return _created(insert(site_client(values), QUOTATION, quotation))


def _list_rfqs(values: dict) -> dict:
	filters = equal_filters(RFQ, values, ("company",)) + _status_filter(RFQ, values.get("status"))
	fields = ["name", "company", "transaction_date", "schedule_date", "status", "docstatus"]
	return _list(values, RFQ, fields, filters, "rfqs", "transaction_date")


def _get_ledger(values: dict) -> dict:
	"""The account's GL entries oldest first, each with the running balance (debit - credit) over them."""
	account = require(values.get("account"), "account")
	filters = [[GL, "account", "=", account], [GL, "is_cancelled", "=", 0]]
	filters += equal_filters(GL, values, ("party_type", "party", "company"))
	rows = list_rows(
		site_client(values),
		GL,
		GL_FIELDS,
		filters=filters + date_filters(GL, "posting_date", values),
		order_by="posting_date asc, creation asc",
		limit=limit_of(values.get("limit"), default=50),
	)
	balance = 0.0
	for row in rows:
		balance += float(row.get("debit") or 0) - float(row.get("credit") or 0)
		row["running_balance"] = round(balance, 6)
	return {"count": len(rows), "account": account, "entries": rows}


def _create_journal_entry(values: dict) -> dict:
	lines = json_arg(require(values.get("accounts"), "accounts"), "accounts", (list,))
	accounts = [
		given(
			line,
			(
				"account",
				"debit_in_account_currency",
				"credit_in_account_currency",
				"party_type",
				"party",
				"cost_center",
			),
		)
		for line in lines
		if isinstance(line, dict) and line.get("account")
	]
	entry = {
		"voucher_type": values.get("voucher_type") or "Journal Entry",
		**given(values, ("company", "posting_date", "user_remark")),
		"accounts": require(accounts, "accounts with an account"),
	}
	return _created(insert(site_client(values), JOURNAL, entry))


ACTIONS = {
	"list_sales_invoices": _list_sales_invoices,
	"get_sales_invoice": _get(SALES_INVOICE),
	"create_sales_invoice": _create_sales_invoice,
	"list_purchase_invoices": _list_purchase_invoices,
	"get_purchase_invoice": _get(PURCHASE_INVOICE),
	"list_payments": _list_payments,
	"create_payment": _create_payment,
	"list_customers": _list_customers,
	"get_customer": _get_customer,
	"list_quotations": _list_quotations,
	"create_quotation": _create_quotation,
	"list_rfqs": _list_rfqs,
	"get_ledger": _get_ledger,
	"create_journal_entry": _create_journal_entry,
}


def erpnext(action: str, **values) -> dict:
	"""Run one ERPNext action (see ACTIONS) with the given values."""
	return run_action(ACTIONS, action, values)


TOOLS = [
	tool(
		"erpnext",
		"huf.ai.integrations.services.erpnext.erpnext",
		"ERPNext transactions and accounting on the connected site (documents it creates are drafts). "
		"Actions: list_sales_invoices (customer, status, from_date, to_date, limit), get_sales_invoice (name), "
		"create_sales_invoice (customer and items [{item_code, qty, rate}] required; company, posting_date, "
		"due_date), list_purchase_invoices (supplier, status, from_date, to_date, limit), get_purchase_invoice "
		"(name), list_payments (party_type, party, payment_type, from_date, to_date, limit), create_payment "
		"(payment_type Receive / Pay / Internal Transfer, party_type, party and paid_amount required; "
		"mode_of_payment, paid_from, paid_to, invoice_name, reference_no, reference_date, "
		"source_exchange_rate, target_exchange_rate, company, posting_date), list_customers (search, "
		"customer_group, territory, limit), get_customer (name; with its addresses and contacts), "
		"list_quotations (party_name, status, from_date, to_date, limit), create_quotation (quotation_to "
		"Customer / Lead, party_name and items required; company, transaction_date, valid_till), list_rfqs "
		"(status, from_date, to_date, limit), get_ledger (account required; party_type, party, from_date, "
		"to_date, limit: GL entries with a running balance), create_journal_entry (accounts [{account, "
		"debit_in_account_currency, credit_in_account_currency, party_type, party, cost_center}] required; "
		"voucher_type, company, posting_date, user_remark). status Draft / Submitted / Cancelled filters "
		"by docstatus, any other value by the status field. For leads and opportunities use erpnext_crm, "
		"for items and stock erpnext_inventory, for reports erpnext_run_report.",
		[
			choice("action", "What to do.", list(ACTIONS), 1),
			param("name", "string", "Name (id) of the document."),
			param("customer", "string", "Customer name."),
			param("supplier", "string", "Supplier name."),
			choice("party_type", "Party type.", PARTY_TYPES),
			param("party", "string", "Customer or supplier name."),
			choice("payment_type", "Payment type.", PAYMENT_TYPES),
			param("paid_amount", "number", "Amount of the payment."),
			param(
				"received_amount",
				"number",
				"Amount received, when in another currency (default paid_amount).",
			),
			param(
				"invoice_name",
				"string",
				"Invoice the payment settles (a Sales Invoice for a customer, a Purchase Invoice for a supplier).",
			),
			param("mode_of_payment", "string", "Mode of payment, e.g. Cash, Wire Transfer."),
			param("paid_from", "string", "Account paid from."),
			param("paid_to", "string", "Account paid to."),
			param("reference_no", "string", "Cheque or transaction reference of a bank payment."),
			param("reference_date", "string", "Date of that reference, YYYY-MM-DD."),
			param("source_exchange_rate", "number", "Exchange rate of the paid-from account's currency."),
			param("target_exchange_rate", "number", "Exchange rate of the paid-to account's currency."),
			param("account", "string", "Account, for get_ledger."),
			param(
				"status",
				"string",
				"Status to filter by: Draft, Submitted, Cancelled, or a document status such as Unpaid, Overdue, Paid.",
			),
			*DATE_RANGE,
			param("company", "string", "Company."),
			param("posting_date", "string", "Posting date, YYYY-MM-DD."),
			param("due_date", "string", "Due date of a sales invoice, YYYY-MM-DD."),
			param("items", "array", "Rows: [{item_code, qty, rate}]."),
			param(
				"accounts",
				"array",
				"Journal entry lines: [{account, debit_in_account_currency, credit_in_account_currency}].",
			),
			param("voucher_type", "string", "Journal entry type (default Journal Entry)."),
			param("user_remark", "string", "Journal entry remark."),
			choice("quotation_to", "Who the quotation is for.", ("Customer", "Lead")),
			param("party_name", "string", "Customer or lead of a quotation."),
			param("transaction_date", "string", "Quotation date, YYYY-MM-DD."),
			param("valid_till", "string", "Quotation valid till, YYYY-MM-DD."),
			param("customer_group", "string", "Customer group."),
			param("territory", "string", "Territory."),
			param("search", "string", "Text to search for in customer names."),
			param("limit", "integer", "How many rows (1-50)."),
		],
		requires_approval=True,
	),
]
