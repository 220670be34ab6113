/** The document events Frappe fires and Huf can start a run on (huf/huf/doc_events.py on the server). */
export const DOC_EVENTS = [
  "after_insert",
  "validate",
  "before_save",
  "on_update",
  "on_submit",
  "on_cancel",
  "on_trash",
  "on_change",
  "on_update_after_submit",
];
