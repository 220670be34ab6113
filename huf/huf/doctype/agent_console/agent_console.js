frappe.ui.form.on("Agent Console", {
	refresh(frm) {
		frm.disable_save();
		frm.page.set_primary_action(__("Run"), () => frm.trigger("run_agent"));
		// "Run in Console" on an Agent opens the console with that agent chosen
		const agent = frappe.route_options && frappe.route_options.agent_name;
		if (agent) {
			frappe.route_options = null;
			if (agent !== frm.doc.agent_name) frm.set_value("agent_name", agent);
		}
	},

	run_agent(frm) {
		if (!frm.doc.agent_name || !frm.doc.prompt) {
			frappe.msgprint(__("Choose an agent and write a prompt first."));
			return;
		}
		// Runs on the server via run_agent_sync(now=1), which stores the response on the console.
		frm.call({
			method: "run",
			doc: frm.doc,
			freeze: true,
			freeze_message: __("Running agent..."),
		}).then(() => frm.refresh_fields());
	},
});
