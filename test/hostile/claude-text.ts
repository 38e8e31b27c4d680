/** The Claude Code record the hostile-input tests put around what they test: an assistant text, `line ${i}`. */
export const text = (i: number) => ({
  type: 'assistant',
  message: { id: `m${i}`, content: [{ type: 'text', text: `line ${i}` }] },
  session_id: 's',
});
