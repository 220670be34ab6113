"""Every DocType and field of the spec exists after install, with the spec's field type."""

import frappe

from huf.huf.indexes import INDEXES, index_name
from huf.tests.support.case import HufTestCase

# DocType -> "fieldname:Fieldtype ..." (spaces in a fieldtype written as _), from the spec's tables
# plus Huf's own fields beyond them (api_base, conversation_data, knowledge and flow fields...).
SPEC_FIELDS = {
	"AI Model": "model_name:Data provider:Link input_cost_per_1m_tokens:Float output_cost_per_1m_tokens:Float cached_input_cost_per_1m_tokens:Float",
	"AI Provider": "provider_name:Data api_key:Password api_base:Data",
	"Agent": "agent_name:Data provider:Link model:Link instructions:Code agent_tool:Table agent_knowledge:Table temperature:Float top_p:Float allow_chat:Check persist_conversation:Check persist_user_history:Check description:Small_Text last_run:Datetime total_run:Int async:Check disabled:Check chef:Data slug:Data tts_model:Link tts_voice:Data context_strategy:Select history_limit:Int summary_ratio:Float summary_model:Link summary_prompt_mode:Select summary_prompt_template:Link summary_prompt_version_locked:Check summary_template_version_at_attach:Int summary_prompt:Code max_knowledge_tokens:Int max_context_chars:Int max_turns:Int enable_conversation_data:Check inject_conversation_data:Check autonaming_of_conversation_title:Check enable_prompt_caching:Check run_immediately:Check stt_model:Link allow_guest:Check agent_mcp_server:Table agent_user:Table_MultiSelect agent_role:Table_MultiSelect",
	"Agent Console": "agent_name:Link prompt:Code response:Code provider:Data model:Data",
	"Agent Context Artifact": "conversation:Link agent_run:Link artifact_type:Select summary:Small_Text payload_json:Code payload_file:Attach reference_doctype:Link reference_name:Dynamic_Link visibility:Select context_policy:Select token_estimate:Int expires_on:Datetime",
	"Agent Conversation": "title:Data agent:Link session_id:Data is_active:Check total_messages:Int conversation_data:JSON",
	"Agent Function Params": "label:Data fieldname:Data type:Select required:Check description:Small_Text options:Small_Text child_table_name:Data",
	"Agent Knowledge": "knowledge_source:Link mode:Select priority:Int token_budget:Int",
	"Agent MCP Server": "mcp_server:Link enabled:Check server_url:Data tool_count:Int",
	"Agent Message": "conversation:Link role:Select content:Long_Text kind:Select agent_run:Link tool_call:Link tool_call_id:Data tool_calls:JSON tool_name:Data tool_args:JSON tool_status:Data record_kind:Select context_policy:Select raw_payload:JSON",
	"Agent Orchestration": "agent:Link status:Select current_step:Int last_run_at:Datetime error_log:Small_Text agent_orchestration_plan:Table scratchpad:Code parent_run:Link conversation:Link",
	"Agent Orchestration Plan": "step_index:Int status:Select instruction:Long_Text output_ref:Long_Text",
	"Agent Prompt": "title:Data slug:Data category:Link description:Small_Text is_active:Check is_system:Check visibility:Select prompt_body:Code version:Int is_latest:Check",
	"Agent Role": "role:Link",
	"Agent Run": "conversation:Link agent:Link prompt:Small_Text response:Small_Text status:Select error_message:Small_Text input_tokens:Int output_tokens:Int total_tokens:Int total_cost:Currency flow_run:Link flow_node_id:Data flow_id:Data run_kind:Select knowledge_sources_used:JSON chunks_injected:Int",
	"Agent Run Feedback": "feedback:Select comments:Small_Text agent_message:Link agent:Link provider:Link model:Link",
	"Agent Settings": "default_provider:Link default_model:Link",
	"Agent Summary Prompt": "title:Data slug:Data category:Link description:Small_Text is_active:Check is_system:Check visibility:Select prompt_body:Code version:Int is_latest:Check",
	"Agent Tool": "tool:Link type:Data description:Small_Text",
	"Agent Tool Call": "agent_run:Link conversation:Link tool_args:JSON tool_result:JSON call_id:Long_Text error_message:Small_Text status:Select tool:Data is_mcp_tool:Check mcp_server:Link",
	"Agent Tool Function": "tool_name:Data description:Small_Text types:Select reference_doctype:Link function_path:Data parameters:Table function_definition:JSON base_url:Data http_headers:Table agent:Link provider_app:Data pass_parameters_as_json:Check tool_type:Link",
	"Agent Tool HTTP Header": "key:Data value:Password",
	"Agent Tool Type": "name1:Data",
	"Agent Trigger": "trigger_name:Data agent:Link trigger_type:Select disabled:Check reference_doctype:Link doc_event:Select condition:Code scheduled_interval:Select interval_count:Int last_execution:Datetime next_execution:Datetime webhook_key:Password webhook_slug:Data app_name:Data event_name:Data metadata:JSON disabled_reason:Small_Text is_virtual:Check source_system:Data file_attachments:Table",
	"Agent Trigger Attachment": "source_type:Select child_table:Select field_name:Data",
	"Agent User": "user:Link",
	"Elevenlabs Settings": "agent_id:Data provider:Link webhook_secret:Password",
	"Flow Definition": "flow_id:Data flow_name:Data status:Select version:Int schema_version:Int definition_json:JSON is_system:Check updated_by:Link updated_at:Datetime",
	"Flow Run": "flow_definition:Link flow_id:Data flow_version:Int mode:Select status:Select trigger_type:Select current_node_id:Data hop_count:Int max_hops:Int last_agent_run:Link conversation:Link context_json:JSON trigger_payload:JSON waiting:JSON last_error:Small_Text started_at:Datetime completed_at:Datetime",
	"Groq Settings": "provider:Link api_url:Data method:Select auth_type:Select file_param:Data model:Data enabled:Check api_key:Password response_path:Data",
	"Huf Data Table": "table_name:Data doctype_name:Data description:Small_Text icon:Data field_count:Int autoname_method:Select title_field_name:Data",
	"Huf Role": "role_name:Data role_description:Small_Text permissions:Table",
	"Huf User Role": "user:Link huf_role:Link enabled:Check",
	"Integration Service": "service_name:Data category:Select description:Small_Text documentation_url:Data required_credentials:JSON is_builtin:Check",
	"Integration Settings": "service:Link is_active:Check is_default:Check credentials:Table recipients:Table",
	"Knowledge Input": "knowledge_source:Link input_type:Select file:Attach text:Long_Text url:Data status:Select source_hash:Data",
	"Knowledge Source": "source_name:Data description:Small_Text knowledge_type:Select embedding_model:Data vector_dimension:Int embedding_provider:Link chroma_mode:Select chroma_host:Data chroma_port:Int chroma_ssl:Check chunk_size:Int chunk_overlap:Int status:Select storage_mode:Select",
	"MCP Server": "server_name:Data description:Small_Text enabled:Check tool_namespace:Data timeout_seconds:Int transport_type:Select server_url:Data auth_type:Select auth_header_name:Data auth_header_value:Password oauth_status:Select oauth_connect_button:Button oauth_disconnect_button:Button oauth_scope:Small_Text oauth_extra_authorize_params:Small_Text oauth_redirect_uri:Data oauth_authorization_endpoint:Data oauth_token_endpoint:Data oauth_client_id:Small_Text oauth_client_secret:Password oauth_token_response_path:Data oauth_access_token:Password oauth_refresh_token:Password oauth_token_expires_at:Datetime oauth_discovery_status:Select oauth_resource_metadata_url:Data oauth_authorization_server:Data oauth_registration_endpoint:Data oauth_client_registration_method:Data oauth_metadata_json:Code oauth_last_discovered_at:Datetime oauth_discovery_error:Small_Text custom_headers:Table sync_tools_button:Button tools:Table last_sync:Datetime available_tools:Code enable_auto_sync:Check auto_sync_interval:Int",
	"MCP Server Header": "header_name:Data header_value:Password",
	"MCP Server Tool": "tool_name:Data enabled:Check description:Small_Text parameters:Code",
	"OpenAI Settings": "provider:Link api_url:Data method:Select auth_type:Select file_param:Data model:Data enabled:Check api_key:Password response_path:Data",
}

SINGLES = {"Agent Console", "Agent Settings", "Elevenlabs Settings", "Groq Settings", "OpenAI Settings"}
CHILD_TABLES = {
	"Agent Eval Check",
	"Agent Function Params",
	"Agent Knowledge",
	"Agent MCP Server",
	"Agent Orchestration Plan",
	"Agent Role",
	"Agent Tool",
	"Agent Tool HTTP Header",
	"Agent Trigger Attachment",
	"Agent User",
	"Huf Role Permission",
	"Integration Credential",
	"Integration Recipient",
	"Integration Settings Role",
	"MCP Server Header",
	"MCP Server Tool",
}
EXTRA_DOCTYPES = {
	"Agent Chat",
	"Agent Eval Case",
	"Agent Eval Check",
	"Agent Eval Result",
	"Agent Eval Run",
	"Agent Prompt Category",
	"Agent Summary Prompt Category",
	"Agent Tool Approval",
	"Huf Budget",
	"Huf Role Permission",
	"Integration Credential",
	"Integration Recipient",
	"Integration Settings Role",
}


class TestInstalledSchema(HufTestCase):
	def test_all_54_doctypes_installed(self):
		installed = set(frappe.get_all("DocType", filters={"module": "Huf"}, pluck="name"))
		expected = set(SPEC_FIELDS) | EXTRA_DOCTYPES
		self.assertEqual(len(expected), 54)
		self.assertEqual(installed, expected)

	def test_every_spec_field_has_its_type(self):
		for doctype, fields in SPEC_FIELDS.items():
			meta = frappe.get_meta(doctype)
			for item in fields.split():
				fieldname, fieldtype = item.split(":")
				with self.subTest(doctype=doctype, fieldname=fieldname):
					field = meta.get_field(fieldname)
					self.assertIsNotNone(field, f"{doctype} has no field {fieldname}")
					self.assertEqual(field.fieldtype, fieldtype.replace("_", " "))

	def test_kinds_of_doctype(self):
		for doctype in SPEC_FIELDS.keys() | EXTRA_DOCTYPES:
			meta = frappe.get_meta(doctype)
			with self.subTest(doctype):
				self.assertEqual(bool(meta.issingle), doctype in SINGLES)
				self.assertEqual(bool(meta.istable), doctype in CHILD_TABLES)

	def test_busy_tables_have_their_indexes(self):
		"""Frappe indexes no Link field by itself: a run's reads by conversation must not scan whole tables."""
		for doctype, indexes in INDEXES.items():
			for columns in indexes:
				with self.subTest(doctype=doctype, columns=columns):
					self.assertTrue(frappe.db.has_index(f"tab{doctype}", index_name(columns)))
