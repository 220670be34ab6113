frappe.ui.form.on("AI Provider", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Models"), () =>
			frappe.set_route("List", "AI Model", { provider: frm.doc.name })
		);
		frm.add_custom_button(__("Agents"), () =>
			frappe.set_route("List", "Agent", { provider: frm.doc.name })
		);
		frm.add_custom_button(__("Test connection"), () => frm.trigger("test_connection"));
	},

	test_connection(frm) {
		if (frm.is_dirty()) {
			frappe.msgprint(__("Save the provider before testing it."));
			return;
		}
		frm.call({
			method: "test_connection",
			doc: frm.doc,
			freeze: true,
			freeze_message: __("Calling the provider..."),
		}).then((r) => {
			const out = r.message || {};
			frappe.msgprint({
				title: out.success ? __("Connected") : __("Connection failed"),
				indicator: out.success ? "green" : "red",
				message: frappe.utils.escape_html(out.message || ""),
			});
		});
	},
});
