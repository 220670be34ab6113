frappe.ui.form.on("Agent", {
	refresh(frm) {
		if (frm.is_new()) return;
		if (frm.doc.allow_chat && !frm.doc.disabled) {
			frm.add_custom_button(
				__("In Desk"),
				() => frappe.set_route("huf-chat", frm.doc.name),
				__("Open Chat")
			);
			frm.add_custom_button(
				__("In Dashboard"),
				() => window.open(`/huf/chat/${encodeURIComponent(frm.doc.name)}`, "_blank", "noopener"),
				__("Open Chat")
			);
		}
		frm.add_custom_button(__("Run in Console"), () => {
			frappe.route_options = { agent_name: frm.doc.name };
			frappe.set_route("Form", "Agent Console");
		});
		frm.add_custom_button(
			__("Runs"),
			() => frappe.set_route("List", "Agent Run", { agent: frm.doc.name }),
			__("View")
		);
		frm.add_custom_button(
			__("Conversations"),
			() => frappe.set_route("List", "Agent Conversation", { agent: frm.doc.name }),
			__("View")
		);
	},
});
