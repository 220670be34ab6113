// Agent Chat in Desk (/app/huf-chat[/<agent>]): pick an agent with Allow Chat and talk to it. The answer
// streams in through POST /huf/stream/<agent> (Server-Sent Events, the session's CSRF token).
frappe.provide("huf");

frappe.pages["huf-chat"].on_page_load = function (wrapper) {
	const page = frappe.ui.make_app_page({ parent: wrapper, title: __("Agent Chat"), single_column: true });
	wrapper.huf_chat = new huf.AgentChat(page);
};

frappe.pages["huf-chat"].on_page_show = function (wrapper) {
	const agent = frappe.get_route()[1];
	if (agent && agent !== wrapper.huf_chat.agent) wrapper.huf_chat.agent_field.set_value(agent);
};

huf.AgentChat = class AgentChat {
	constructor(page) {
		this.page = page;
		this.agent = null;
		this.conversation = null;
		page.set_secondary_action(__("New Conversation"), () => this.new_conversation());
		this.$body = $(`
			<div class="huf-chat">
				<div class="huf-chat-agent"></div>
				<div class="huf-chat-messages" role="log" aria-live="polite"></div>
				<form class="huf-chat-form">
					<textarea class="form-control" rows="3" aria-label="${__("Message")}"
						placeholder="${__("Ask the agent... (Ctrl+Enter sends)")}"></textarea>
					<button type="submit" class="btn btn-primary btn-sm">${__("Send")}</button>
				</form>
			</div>`).appendTo(page.main);
		this.agent_field = frappe.ui.form.make_control({
			parent: this.$body.find(".huf-chat-agent"),
			df: {
				fieldname: "agent",
				label: __("Agent"),
				fieldtype: "Link",
				options: "Agent",
				get_query: () => ({ filters: { allow_chat: 1, disabled: 0 } }),
				change: () => this.set_agent(this.agent_field.get_value()),
			},
			render_input: true,
		});
		this.$messages = this.$body.find(".huf-chat-messages");
		this.$input = this.$body.find("textarea");
		this.$send = this.$body.find("button[type=submit]");
		this.$body.find("form").on("submit", (e) => {
			e.preventDefault();
			this.send();
		});
		this.$input.on("keydown", (e) => {
			if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) this.send();
		});
		this.show_hint(__("Choose an agent to start."));
	}

	async set_agent(agent) {
		if (!agent || agent === this.agent) return;
		this.agent = agent;
		this.conversation = null;
		this.$messages.empty();
		frappe.set_route("huf-chat", agent);
		// the caller's latest chat with this agent, if any
		const r = await frappe.call({
			method: "huf.ai.agent_chat.get_agent_chat_messages",
			args: { agent },
		});
		if (agent !== this.agent) return;
		const data = r.message || {};
		this.conversation = data.conversation || null;
		for (const message of data.messages || []) this.show_stored(message);
		if (!this.$messages.children().length) this.show_hint(__("Say hello to {0}.", [agent]));
		this.$input.trigger("focus");
	}

	new_conversation() {
		this.conversation = null;
		this.$messages.empty();
		this.show_hint(
			this.agent ? __("New conversation with {0}.", [this.agent]) : __("Choose an agent to start.")
		);
	}

	async send() {
		const text = (this.$input.val() || "").trim();
		if (!this.agent) return frappe.msgprint(__("Choose an agent first."));
		if (!text || this.busy) return;
		this.set_busy(true);
		this.$messages.find(".huf-chat-hint").remove();
		this.add_bubble("user", text);
		this.$input.val("");
		const $answer = this.add_bubble("agent", "").addClass("streaming");
		try {
			if (!this.conversation) {
				const r = await frappe.xcall("huf.ai.agent_chat.create_conversation", { agent: this.agent });
				this.conversation = r.conversation_id;
			}
			await this.stream(text, $answer);
		} catch (e) {
			this.show_error($answer, e.message || String(e));
		} finally {
			$answer.removeClass("streaming");
			this.set_busy(false);
		}
	}

	async stream(prompt, $answer) {
		const response = await fetch(`/huf/stream/${encodeURIComponent(this.agent)}`, {
			method: "POST",
			credentials: "same-origin",
			headers: {
				"Content-Type": "application/json",
				Accept: "text/event-stream",
				"X-Frappe-CSRF-Token": frappe.csrf_token,
			},
			body: JSON.stringify({ prompt, channel_id: "chat", conversation_id: this.conversation }),
		});
		if (!response.ok) {
			let message = `${response.status} ${response.statusText}`;
			try {
				message = (await response.json()).message || message;
			} catch (e) {
				// not JSON
			}
			throw new Error(message);
		}
		await frappe.require("/assets/huf/js/sse_reader.js"); // huf.read_events, shared with /huf/stream
		await huf.read_events(response, (event) => this.on_event(event, $answer));
	}

	on_event(event, $answer) {
		const $text = $answer.find(".huf-chat-text");
		if (event.type === "delta") {
			$text.text($text.text() + event.content);
		} else if (event.type === "tool_call") {
			$answer.before(this.tool_line(__("Calling {0}…", [event.name])));
		} else if (event.type === "tool_result") {
			$answer.before(this.tool_line(__("{0}: {1}", [event.name, event.status])));
		} else if (event.type === "complete") {
			$text.text(event.full_response);
			this.conversation = event.conversation_id || this.conversation;
		} else if (event.type === "error") {
			this.show_error($answer, event.content);
		}
		this.scroll();
	}

	show_stored(message) {
		if (message.kind === "Tool Call" || message.role === "tool") {
			if (message.tool_name) this.$messages.append(this.tool_line(message.tool_name));
		} else if (["user", "agent"].includes(message.role) && message.content) {
			this.add_bubble(message.role, message.content);
		}
	}

	add_bubble(role, text) {
		const label = role === "user" ? __("You") : this.agent;
		const $bubble = $(`<div class="huf-chat-message ${role}">
				<div class="huf-chat-who text-muted small"></div>
				<div class="huf-chat-text"></div>
			</div>`);
		$bubble.find(".huf-chat-who").text(label);
		$bubble.find(".huf-chat-text").text(text);
		this.$messages.append($bubble);
		this.scroll();
		return $bubble;
	}

	tool_line(text) {
		return $(`<div class="huf-chat-tool text-muted small"></div>`).text(text);
	}

	show_hint(text) {
		this.$messages.append($(`<div class="huf-chat-hint text-muted"></div>`).text(text));
	}

	show_error($answer, message) {
		$answer.addClass("error").find(".huf-chat-text").text(message);
	}

	set_busy(busy) {
		this.busy = busy;
		this.$send.prop("disabled", busy).text(busy ? __("Thinking…") : __("Send"));
	}

	scroll() {
		this.$messages.scrollTop(this.$messages.prop("scrollHeight"));
	}
};
