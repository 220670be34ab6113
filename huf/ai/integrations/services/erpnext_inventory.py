"""The `erpnext_inventory` tool: items, prices, stock, warehouses, stock documents and BOMs of ERPNext on
the site of the `frappe` settings, through its REST API. One tool, several actions (as upstream Huf had
it)."""

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
SLE = "Stock Ledger Entry"
SLE_ORDER = "posting_date desc, posting_time desc, creation desc"


def _limit(values: dict) -> int:
	return limit_of(values.get("limit"), default=20)


def _rows(
	values: dict, doctype: str, fields: list, filters: list, key: str, order_by="modified desc"
) -> dict:
	rows = list_rows(
		site_client(values), doctype, fields, filters=filters, order_by=order_by, limit=_limit(values)
	)
	return {"count": len(rows), key: rows}


def _list_items(values: dict) -> dict:
	search = values.get("search")
	filters = equal_filters("Item", values, ("item_group", "is_stock_item")) + [["Item", "disabled", "=", 0]]
	rows = list_rows(
		site_client(values),
		"Item",
		["name", "item_code", "item_name", "item_group", "stock_uom", "is_stock_item", "standard_rate"],
		filters=filters,
		or_filters=[["Item", f, "like", f"%{search}%"] for f in ("item_code", "item_name")]
		if search
		else None,
		limit=_limit(values),
	)
	return {"count": len(rows), "items": rows}


def _item_prices(values: dict) -> dict:
	filters = equal_filters("Item Price", values, ("item_code", "price_list"))
	for flag in ("buying", "selling"):
		if values.get(flag):
			filters.append(["Item Price", flag, "=", 1])
	fields = [
		"item_code",
		"price_list",
		"price_list_rate",
		"currency",
		"uom",
		"valid_from",
		"buying",
		"selling",
	]
	return _rows(values, "Item Price", fields, filters, "prices")


def _stock_balance(values: dict) -> dict:
	"""Bin quantities now; with as_of_date, the quantity after the last ledger entry up to that date."""
	if not values.get("as_of_date"):
		fields = [
			"item_code",
			"warehouse",
			"actual_qty",
			"reserved_qty",
			"ordered_qty",
			"projected_qty",
			"stock_value",
		]
		filters = equal_filters("Bin", values, ("item_code", "warehouse"))
		return _rows(values, "Bin", fields, filters, "balances", order_by="item_code asc")
	filters = equal_filters(
		SLE,
		{**values, "item_code": require(values.get("item_code"), "item_code")},
		("item_code", "warehouse"),
	)
	filters += [[SLE, "posting_date", "<=", values["as_of_date"]], [SLE, "is_cancelled", "=", 0]]
	entries = list_rows(
		site_client(values),
		SLE,
		["warehouse", "qty_after_transaction", "posting_date", "valuation_rate"],
		filters=filters,
		order_by=SLE_ORDER,
		limit=500,
	)
	latest: dict[str, dict] = {}
	for entry in entries:
		latest.setdefault(entry.get("warehouse"), entry)
	balances = [
		{
			"item_code": values["item_code"],
			"warehouse": w,
			"actual_qty": e.get("qty_after_transaction"),
			"as_of": e.get("posting_date"),
		}
		for w, e in latest.items()
	]
	return {"count": len(balances), "as_of_date": values["as_of_date"], "balances": balances}


def _stock_movements(values: dict) -> dict:
	filters = equal_filters(SLE, values, ("item_code", "warehouse")) + date_filters(
		SLE, "posting_date", values
	)
	filters.append([SLE, "is_cancelled", "=", 0])
	fields = [
		"posting_date",
		"item_code",
		"warehouse",
		"actual_qty",
		"qty_after_transaction",
		"voucher_type",
		"voucher_no",
	]
	return _rows(values, SLE, fields, filters, "movements", order_by=SLE_ORDER)


def _list_stock_entries(values: dict) -> dict:
	filters = equal_filters("Stock Entry", values, ("stock_entry_type",)) + date_filters(
		"Stock Entry", "posting_date", values
	)
	fields = [
		"name",
		"stock_entry_type",
		"posting_date",
		"docstatus",
		"from_warehouse",
		"to_warehouse",
		"total_amount",
	]
	return _rows(values, "Stock Entry", fields, filters, "stock_entries", order_by="posting_date desc")


def _list_warehouses(values: dict) -> dict:
	fields = ["name", "warehouse_name", "company", "is_group", "parent_warehouse"]
	filters = equal_filters("Warehouse", values, ("company",)) + [["Warehouse", "disabled", "=", 0]]
	return _rows(values, "Warehouse", fields, filters, "warehouses", order_by="name asc")


def _list_delivery_notes(values: dict) -> dict:
	filters = equal_filters("Delivery Note", values, ("customer",)) + date_filters(
		"Delivery Note", "posting_date", values
	)
	fields = ["name", "customer", "posting_date", "status", "grand_total", "currency"]
	return _rows(values, "Delivery Note", fields, filters, "delivery_notes", order_by="posting_date desc")


def _list_purchase_receipts(values: dict) -> dict:
	filters = equal_filters("Purchase Receipt", values, ("supplier",)) + date_filters(
		"Purchase Receipt", "posting_date", values
	)
	fields = ["name", "supplier", "posting_date", "status", "grand_total", "currency"]
	return _rows(
		values, "Purchase Receipt", fields, filters, "purchase_receipts", order_by="posting_date desc"
	)


def _list_boms(values: dict) -> dict:
	filters = equal_filters("BOM", values, ("item", "is_active", "is_default"))
	fields = ["name", "item", "quantity", "is_active", "is_default", "total_cost", "docstatus"]
	return _rows(values, "BOM", fields, filters, "boms")


def _create_bom(values: dict) -> dict:
	rows = json_arg(require(values.get("items"), "items"), "items", (list,))
	items = [given(row, ("item_code", "qty", "uom", "rate")) for row in rows if isinstance(row, dict)]
	bom = {
		"item": require(values.get("item"), "item"),
		"quantity": values.get("quantity") or 1,
		"items": items,
	}
	created = insert(site_client(values), "BOM", bom)
	return {"created": True, "name": created.get("name"), "docstatus": created.get("docstatus")}


ACTIONS = {
	"list_items": _list_items,
	"get_item": lambda v: fetch(site_client(v), "Item", v.get("name") or v.get("item_code")),
	"item_prices": _item_prices,
	"stock_balance": _stock_balance,
	"stock_movements": _stock_movements,
	"list_stock_entries": _list_stock_entries,
	"list_warehouses": _list_warehouses,
	"list_delivery_notes": _list_delivery_notes,
	"list_purchase_receipts": _list_purchase_receipts,
	"list_boms": _list_boms,
	"get_bom": lambda v: fetch(site_client(v), "BOM", v.get("name")),
	"create_bom": _create_bom,
}


def erpnext_inventory(action: str, **values) -> dict:
	"""Run one ERPNext inventory action (see ACTIONS) with the given values."""
	return run_action(ACTIONS, action, values)


TOOLS = [
	tool(
		"erpnext_inventory",
		"huf.ai.integrations.services.erpnext_inventory.erpnext_inventory",
		"ERPNext items, stock and BOMs on the connected site. Actions: list_items (search, item_group, "
		"is_stock_item, limit), get_item (name or item_code), item_prices (item_code, price_list, buying, "
		"selling), stock_balance (item_code, warehouse, as_of_date), stock_movements (item_code, warehouse, "
		"from_date, to_date, limit), list_stock_entries (stock_entry_type, from_date, to_date, limit), "
		"list_warehouses (company, limit), list_delivery_notes (customer, from_date, to_date, limit), "
		"list_purchase_receipts (supplier, from_date, to_date, limit), list_boms (item, is_active, "
		"is_default, limit), get_bom (name), create_bom (item required, quantity, items [{item_code, qty, "
		"uom, rate}]; saved as a draft).",
		[
			choice("action", "What to do.", list(ACTIONS), 1),
			param("name", "string", "Name of the item or BOM."),
			param("item_code", "string", "Item code."),
			param("item_group", "string", "Item group."),
			param("is_stock_item", "integer", "1: stock items only."),
			param("price_list", "string", "Price list name."),
			param("buying", "integer", "1: buying prices only."),
			param("selling", "integer", "1: selling prices only."),
			param("warehouse", "string", "Warehouse name."),
			param("as_of_date", "string", "Stock balance as of this date, YYYY-MM-DD (needs item_code)."),
			param(
				"stock_entry_type",
				"string",
				"Material Issue, Material Receipt, Material Transfer, Manufacture...",
			),
			param("customer", "string", "Customer, for delivery notes."),
			param("supplier", "string", "Supplier, for purchase receipts."),
			param("company", "string", "Company, for warehouses."),
			param("item", "string", "Item of a BOM."),
			param("is_active", "integer", "1: active BOMs only."),
			param("is_default", "integer", "1: default BOMs only."),
			param("quantity", "number", "Quantity the BOM makes (default 1)."),
			param("items", "array", "BOM rows: [{item_code, qty, uom, rate}]."),
			param("search", "string", "Text to search for in item codes and names."),
			*DATE_RANGE,
			param("limit", "integer", "How many rows (1-50, default 20)."),
		],
	),
]
