frappe.ui.form.on("Agent Tool Function", {
	refresh(frm) {
		if (frm.is_new() || !["Custom Function", "App Provided"].includes(frm.doc.types)) return;
		frm.add_custom_button(__("Fetch Parameters from Code"), () => {
			frm.call({ method: "fetch_parameters_from_code", doc: frm.doc, freeze: true }).then(() => {
				frm.dirty();
				frm.refresh_field("parameters");
				frappe.show_alert({ message: __("Parameters filled from the function; save to keep them."), indicator: "green" });
			});
		});
	},
});
