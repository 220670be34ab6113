frappe.ui.form.on("Knowledge Input", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Reprocess"), () => {
			frappe.call({
				method: "huf.huf.doctype.knowledge_input.knowledge_input.reprocess_input",
				args: { knowledge_input: frm.doc.name },
				callback() {
					frappe.show_alert({ message: __("Reprocessing queued"), indicator: "blue" });
					frm.reload_doc();
				},
			});
		});
	},
});
