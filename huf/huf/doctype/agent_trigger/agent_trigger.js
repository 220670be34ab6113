frappe.ui.form.on("Agent Trigger", {
	refresh(frm) {
		// Runs act as Run As (else the owner): only a System Manager may point it at another user.
		frm.set_df_property("run_as", "read_only", frappe.user.has_role("System Manager") ? 0 : 1);
		if (frm.is_new()) return;
		frm.add_custom_button(__("Runs"), () =>
			frappe.set_route("List", "Agent Run", { agent_trigger: frm.doc.name })
		);
		if (!frm.doc.disabled) {
			frm.add_custom_button(__("Run now"), () => frm.trigger("run_now"));
		}
		if (frm.doc.trigger_type === "Webhook" && frm.doc.webhook_slug) {
			const slug = encodeURIComponent(frm.doc.webhook_slug);
			const url = `${window.location.origin}/api/method/huf.api.triggers.handle_webhook?slug=${slug}`;
			frm.set_intro(
				__("POST to {0} with the key in the X-Huf-Webhook-Key header.", [
					`<code>${frappe.utils.escape_html(url)}</code>`,
				]),
				"blue"
			);
			frm.add_custom_button(__("Copy Webhook URL"), () => frappe.utils.copy_to_clipboard(url));
			// The key is shown once (huf.api.triggers); a new key replaces it and is shown once too.
			if (!frm.doc.webhook_key_shown) {
				frm.add_custom_button(__("Show Key"), () => frm.trigger("show_key"), __("Webhook Key"));
			}
			frm.add_custom_button(__("New Key"), () => frm.trigger("new_key"), __("Webhook Key"));
		}
		if (frm.doc.disabled && frm.doc.disabled_reason) {
			frm.dashboard.set_headline(frappe.utils.escape_html(frm.doc.disabled_reason), "red");
		}
	},

	show_key(frm) {
		frappe
			.call("huf.api.triggers.reveal_webhook_key", { trigger: frm.doc.name })
			.then((r) => show_webhook_key(frm, r.message));
	},

	new_key(frm) {
		frappe.confirm(__("Make a new key? The current key stops working at once."), () =>
			frappe
				.call("huf.api.triggers.regenerate_webhook_key", { trigger: frm.doc.name })
				.then((r) => show_webhook_key(frm, r.message))
		);
	},

	run_now(frm) {
		if (frm.is_dirty()) {
			frappe.msgprint(__("Save the trigger before running it."));
			return;
		}
		frm.call({ method: "run_now", doc: frm.doc, freeze: true }).then((r) => {
			const out = r.message || {};
			const run = frappe.utils.escape_html(out.agent_run || "");
			frappe.msgprint({
				title: __("Run queued"),
				indicator: "green",
				message: __("Agent Run {0} is {1} (acting as {2}).", [
					frappe.utils.get_form_link("Agent Run", out.agent_run, true, run),
					frappe.utils.escape_html(__(out.status || "")),
					frappe.utils.escape_html(out.user || ""),
				]),
			});
		});
	},
});

function show_webhook_key(frm, out) {
	frappe.msgprint({
		title: __("Webhook Key"),
		indicator: "orange",
		message:
			__("Copy the key now: it is not shown again.") +
			`<pre>${frappe.utils.escape_html(out.key)}</pre>`,
	});
	frm.reload_doc();
}
