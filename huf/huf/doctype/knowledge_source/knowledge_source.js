const KNOWLEDGE_SOURCE_METHOD = "huf.huf.doctype.knowledge_source.knowledge_source";

frappe.ui.form.on("Knowledge Source", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Rebuild Index"), () => {
			frappe.confirm(__("Clear the index and index every input again?"), () => {
				frappe.call({
					method: `${KNOWLEDGE_SOURCE_METHOD}.rebuild_index`,
					args: { knowledge_source: frm.doc.name },
					callback() {
						frappe.show_alert({ message: __("Rebuild queued"), indicator: "blue" });
						frm.reload_doc();
					},
				});
			});
		});
		frm.add_custom_button(__("Test Search"), () => {
			frappe.prompt(
				[
					{ fieldname: "query", fieldtype: "Data", label: __("Query"), reqd: 1 },
					{ fieldname: "top_k", fieldtype: "Int", label: __("Results"), default: 5 },
				],
				(values) => {
					frappe.call({
						method: `${KNOWLEDGE_SOURCE_METHOD}.test_search`,
						args: { knowledge_source: frm.doc.name, query: values.query, top_k: values.top_k },
						callback(r) {
							const rows = (r.message || []).map(
								(hit) => `<li><b>${frappe.utils.escape_html(String(hit.score ?? ""))}</b> ${frappe.utils.escape_html(hit.text || "")}</li>`
							);
							frappe.msgprint({
								title: __("Search results"),
								message: rows.length ? `<ol>${rows.join("")}</ol>` : __("Nothing found."),
								wide: true,
							});
						},
					});
				},
				__("Test Search"),
				__("Search")
			);
		});
	},
});
