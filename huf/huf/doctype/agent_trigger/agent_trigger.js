frappe.ui.form.on("Agent Trigger", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Runs"), () =>
			frappe.set_route("List", "Agent Run", { agent_trigger: frm.doc.name })
		);
		if (frm.doc.trigger_type === "Webhook" && frm.doc.webhook_slug) {
			const slug = encodeURIComponent(frm.doc.webhook_slug);
			const url = `${window.location.origin}/api/method/huf.ai.agent_hooks.handle_webhook?slug=${slug}`;
			frm.set_intro(
				__("POST to {0} with the key in the X-Huf-Webhook-Key header.", [
					`<code>${frappe.utils.escape_html(url)}</code>`,
				]),
				"blue"
			);
			frm.add_custom_button(__("Copy Webhook URL"), () => frappe.utils.copy_to_clipboard(url));
		}
		if (frm.doc.disabled && frm.doc.disabled_reason) {
			frm.dashboard.set_headline(frappe.utils.escape_html(frm.doc.disabled_reason), "red");
		}
	},
});
