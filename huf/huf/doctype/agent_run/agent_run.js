// A run in flight is cancelled through huf.api.runs.cancel_agent_run (who may is checked there).
const IN_FLIGHT = ["Queued", "Started", "Waiting Approval"];

frappe.ui.form.on("Agent Run", {
	refresh(frm) {
		if (frm.is_new() || !IN_FLIGHT.includes(frm.doc.status)) return;
		frm.add_custom_button(__("Cancel Run"), () => {
			frappe.prompt(
				[{ fieldname: "reason", fieldtype: "Small Text", label: __("Reason (optional)") }],
				(values) =>
					frappe
						.call({
							method: "huf.api.runs.cancel_agent_run",
							args: { run_id: frm.doc.name, reason: values.reason || null },
						})
						.then(() => frm.reload_doc()),
				__("Cancel this run?"),
				__("Cancel Run")
			);
		});
	},
});
