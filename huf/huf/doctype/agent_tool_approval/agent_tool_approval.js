// Decisions go through huf.api.approvals (row lock, the waiting run resumed), not the form.
const TOOL_APPROVAL_API = "huf.api.approvals";

frappe.ui.form.on("Agent Tool Approval", {
	refresh(frm) {
		frm.disable_save();
		if (frm.doc.status === "Pending") {
			const decide = (decision, label) =>
				frm.add_custom_button(label, () => {
					frappe.prompt(
						[{ fieldname: "comment", fieldtype: "Small Text", label: __("Comment (optional)") }],
						(values) =>
							frappe
								.call(`${TOOL_APPROVAL_API}.decide_tool_approval`, {
									approval_id: frm.doc.name,
									decision,
									comment: values.comment || null,
								})
								.then(() => frm.reload_doc()),
						label,
						__("Decide")
					);
				}, __("Decide"));
			decide("approve", __("Approve once"));
			decide("approve_conversation", __("Approve for this conversation"));
			decide("approve_always", __("Always approve this tool for this agent"));
			decide("deny", __("Deny"));
		}
		if (frm.doc.status === "Approved" && frm.doc.scope !== "Once") {
			frm.add_custom_button(__("Revoke grant"), () =>
				frappe
					.call(`${TOOL_APPROVAL_API}.revoke_tool_approval_grant`, { approval_id: frm.doc.name })
					.then(() => frm.reload_doc())
			);
		}
	},
});
