frappe.ui.form.on("MCP Server", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Test Connection"), () => frm.trigger("test_connection"));
		frm.add_custom_button(__("Sync Tools"), () => frm.trigger("sync_tools_button"));
		if (frm.doc.auth_type === "oauth") {
			const connected = frm.doc.oauth_status === "Connected";
			frm.add_custom_button(connected ? __("Reconnect with OAuth") : __("Connect with OAuth"), () =>
				frm.trigger("oauth_connect_button")
			);
		}
	},

	test_connection(frm) {
		frm.call({ method: "test_connection", doc: frm.doc, freeze: true }).then((r) => {
			const out = r.message || {};
			frappe.msgprint({
				title: out.success ? __("Connected") : __("Connection failed"),
				indicator: out.success ? "green" : "red",
				message: frappe.utils.escape_html(out.message || out.error || ""),
			});
		});
	},

	oauth_connect_button(frm) {
		if (frm.is_dirty()) {
			frappe.msgprint(__("Save the server before connecting."));
			return;
		}
		frm.call({ method: "oauth_connect", doc: frm.doc, freeze: true }).then((r) => {
			const url = r.message && r.message.authorization_url;
			if (url) window.open(url, "_blank", "noopener");
		});
	},

	oauth_disconnect_button(frm) {
		frm.call({ method: "oauth_disconnect", doc: frm.doc, freeze: true }).then(() => frm.reload_doc());
	},

	sync_tools_button(frm) {
		if (frm.is_dirty()) {
			frappe.msgprint(__("Save the server before syncing its tools."));
			return;
		}
		frm.call({
			method: "sync_tools",
			doc: frm.doc,
			freeze: true,
			freeze_message: __("Syncing tools..."),
		}).then(() => frm.reload_doc());
	},
});
