frappe.ui.form.on("AI Provider", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Models"), () =>
			frappe.set_route("List", "AI Model", { provider: frm.doc.name })
		);
		frm.add_custom_button(__("Agents"), () =>
			frappe.set_route("List", "Agent", { provider: frm.doc.name })
		);
	},
});
