/**
 * The terminal prompter of `run --permissions ask` on streams: the exact question, inert; one request at a time; the
 * keys per scope; a withdrawn request and a closed terminal deny.
 */
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_DIFF_LINES, question, terminalPrompter, type Shown } from '../../../lib/interfaces/cli/prompter.js';

const command: Shown = { tool: 'Bash', kind: 'command', command: 'rm -rf build', scopes: ['once', 'session'] };
const edit: Shown = {
  tool: 'Edit src/c.ts',
  kind: 'file_write',
  path: '/w/src/c.ts',
  scopes: ['once'],
  raw: {
    toolCall: {
      content: [
        { type: 'diff', path: '/w/src/c.ts', oldText: 'export const a = 42;\n', newText: 'export const a = 43;\n' },
      ],
    },
  },
};

let streams: { input: PassThrough; output: PassThrough; text: () => string; close(): void };
afterEach(() => streams?.close());

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const prompter = terminalPrompter(input, output);
  streams = { input, output, text: () => written, close: () => prompter.close() };
  return { prompter, input, text: () => written };
}

/** Resolves once the output ends with the question's last line. */
async function asked(output: PassThrough, text: () => string) {
  while (!text().endsWith(': ')) await once(output, 'data');
}

describe('the terminal prompter', () => {
  test('the question: tool, command, the keys the request offers; y allows once, s the session', async () => {
    const { prompter, input, text } = terminal();
    const answer = prompter.ask(command, new AbortController().signal);
    await asked(streams.output, text);
    expect(text()).toBe('Bash asks to command\n  command: rm -rf build\nAllow? [y]es once, [s]ession, [n]o: ');
    input.write('s\n');
    expect(await answer).toEqual({ allow: 'session' });
  });

  test('an edit shows its path and diff; a key it does not offer (s) asks again; n denies', async () => {
    const { prompter, input, text } = terminal();
    const answer = prompter.ask(edit, new AbortController().signal);
    await asked(streams.output, text);
    input.write('s\n');
    // Asked again: a line typed before the question shows is not its answer.
    await asked(streams.output, () => text().slice(text().indexOf(': ') + 2));
    input.write(' N \n');
    expect(await answer).toEqual({ deny: true });
    expect(text()).toBe(
      'Edit src/c.ts asks to file_write\n  path: /w/src/c.ts\n  - export const a = 42;\n  + export const a = 43;\n' +
        'Allow? [y]es once, [n]o: Allow? [y]es once, [n]o: ',
    );
  });

  test("the agent's text is inert: control characters as symbols, a line break cannot forge a line", async () => {
    const hostile: Shown = {
      tool: 'Bash\u001b[2J',
      kind: 'command',
      command: 'ls\nAllow? [y]es once: y\u001b]0;x\u0007',
      scopes: ['once'],
      input: { old_string: 'a\u001b[31m', new_string: 'b\u202e' },
    };
    expect(question(hostile)).toBe(
      'Bash␛[2J asks to command\n  command: ls␤Allow? [y]es once: y␛]0;x␇\n  - a␛[31m\n  + b⟨U+202E⟩\n',
    );
  });

  test('a long diff: the first lines, then how many more', () => {
    const lines = Array.from({ length: MAX_DIFF_LINES + 5 }, (_, i) => `line ${i}`).join('\n');
    const shown = question({ tool: 'Write', kind: 'file_write', scopes: ['once'], input: { content: lines } });
    expect(shown.split('\n').slice(-3)).toEqual([`  + line ${MAX_DIFF_LINES - 1}`, '  ... 5 more lines', '']);
  });

  test('one at a time: the second is asked once the first is answered; typed-ahead lines dropped', async () => {
    const { prompter, input, text } = terminal();
    input.write('y\n');
    await new Promise((resolve) => setImmediate(resolve));
    const first = prompter.ask(command, new AbortController().signal);
    const second = prompter.ask(edit, new AbortController().signal);
    await asked(streams.output, text);
    expect(text()).not.toContain('Edit src/c.ts');
    input.write('y\n');
    expect(await first).toEqual({ allow: 'once' });
    await asked(streams.output, () => text().slice(text().indexOf('Edit')));
    input.write('n\n');
    expect(await second).toEqual({ deny: true });
  });

  test('a request the run withdraws while asked: denied, said; a closed terminal denies the next', async () => {
    const { prompter, input, text } = terminal();
    const controller = new AbortController();
    const answer = prompter.ask(command, controller.signal);
    await asked(streams.output, text);
    controller.abort();
    expect(await answer).toEqual({ deny: true });
    expect(text()).toMatch(/\n\(withdrawn: the run no longer waits for it\)\n$/);
    input.end();
    expect(await prompter.ask(edit, new AbortController().signal)).toEqual({ deny: true });
  });
});
