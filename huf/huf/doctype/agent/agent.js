const MODEL_QUERY = "huf.huf.doctype.ai_model.ai_model.get_models_by_modality";

frappe.ui.form.on("Agent", {
	setup(frm) {
		// each model field offers only AI Models of its kind (the main model: of the agent's provider)
		frm.set_query("model", (doc) => ({
			query: MODEL_QUERY,
			filters: { modality: "Text", provider: doc.provider || undefined },
		}));
		frm.set_query("summary_model", () => ({ query: MODEL_QUERY, filters: { modality: "Text" } }));
		frm.set_query("stt_model", () => ({ query: MODEL_QUERY, filters: { modality: "Transcription" } }));
		frm.set_query("tts_model", () => ({ query: MODEL_QUERY, filters: { modality: "Text-to-Speech" } }));
	},
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
