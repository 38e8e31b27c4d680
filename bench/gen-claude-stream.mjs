// The team's generator of many small Claude Code records for issue 20 (copied from the project's
// shared bench folder, ../shared/bench/gen-claude-stream.mjs, unchanged below this header).
// node bench/gen-claude-stream.mjs OUT 50000 writes about 200 MB.
// rough Claude-like stream: assistant text, tool_use, user tool_result with sizable content
import fs from 'node:fs';
const out = fs.createWriteStream(process.argv[2]);
const n = +process.argv[3] || 100000;
const sid = 'b1c2d3e4-0000-4000-8000-000000000000';
out.write(
  JSON.stringify({
    type: 'system',
    subtype: 'init',
    cwd: '/repo',
    session_id: sid,
    tools: ['Bash', 'Read'],
    model: 'claude-x',
  }) + '\n',
);
const text = 'lorem ipsum dolor sit amet '.repeat(20);
const file = 'const x = 1;\n'.repeat(200);
for (let i = 0; i < n; i++) {
  const id = 'toolu_' + i.toString(36).padStart(10, '0');
  out.write(
    JSON.stringify({
      type: 'assistant',
      message: { id: 'msg_' + i, role: 'assistant', content: [{ type: 'text', text }] },
      session_id: sid,
    }) + '\n',
  );
  out.write(
    JSON.stringify({
      type: 'assistant',
      message: {
        id: 'msg_' + i,
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id,
            name: i % 3 ? 'Read' : 'Bash',
            input:
              i % 3 ? { file_path: '/repo/src/f' + i + '.ts', offset: 10, limit: 100 } : { command: 'rg -n foo src' },
          },
        ],
      },
      session_id: sid,
    }) + '\n',
  );
  out.write(
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: file, is_error: false }] },
      session_id: sid,
    }) + '\n',
  );
}
out.end(
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    session_id: sid,
    usage: { input_tokens: 1, output_tokens: 2 },
  }) + '\n',
);
