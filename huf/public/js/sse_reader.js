// Reads Huf's SSE stream (POST /huf/stream/<agent>) from a fetch() response, one JSON event at a time.
// An EventSource-style reader over fetch(): EventSource cannot POST or send the CSRF header.
// Used by the Desk page Huf Chat and the /huf/stream demo page.
window.huf = window.huf || {};
huf.read_events = async function (response, handle) {
	const reader = response.body.getReader();
	const decoder = new TextDecoder();
	let buffer = "";
	for (;;) {
		const { value, done } = await reader.read();
		if (done) break;
		buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
		let end;
		while ((end = buffer.indexOf("\n\n")) !== -1) {
			const block = buffer.slice(0, end);
			buffer = buffer.slice(end + 2);
			const data = block
				.split("\n")
				.filter((line) => line.startsWith("data:"))
				.map((line) => line.slice(5).trimStart())
				.join("\n");
			if (data) handle(JSON.parse(data));
		}
	}
};
