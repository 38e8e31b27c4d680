/**
 * `harness-events run --permissions ask` on a terminal: the person answers each of the agent's permission requests,
 * one at a time (y: once, s: for the session where the agent can grant it, n: deny). What it shows comes from the
 * agent (a command, a path, a diff), so every text is made inert first: an escape sequence in a command must not
 * move the cursor or forge the question.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { isObject } from '../../kernel/json.js';
import { oneLine, readable } from '../view/invisible.js';

/** What the prompt shows of a request (the normalized request's fields it reads). */
export interface Shown {
  readonly tool: string;
  readonly kind: string;
  readonly command?: string;
  readonly path?: string;
  readonly agent_id?: string;
  readonly input?: unknown;
  readonly raw?: unknown;
  readonly scopes: readonly string[];
}

/** The person's answer (a deny without a message: most agents have no field for one, and refuse it). */
export type Said = { allow: 'once' | 'session' } | { deny: true };

/** Lines of a diff shown at most: an agent's edit may be a whole file. */
export const MAX_DIFF_LINES = 40;

/** What a key means, and what the question offers for it. */
const keys = [
  { key: 'y', label: '[y]es once', scope: 'once' },
  { key: 's', label: '[s]ession', scope: 'session' },
  { key: 'n', label: '[n]o', scope: undefined },
] as const;

/** Text lines as `-` / `+` lines. */
function marked(sign: string, text: unknown): string[] {
  if (typeof text !== 'string' || text === '') return [];
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `${sign} ${line}`);
}

/** The edit's diff, from what the agent sent: an ACP diff block, Claude's and Qwen's old/new strings, a new file. */
export function diffOf(request: Pick<Shown, 'input' | 'raw'>): string[] {
  const raw = isObject(request.raw) ? request.raw : {};
  const call = isObject(raw.toolCall) ? raw.toolCall : {};
  const blocks = Array.isArray(call.content)
    ? call.content.filter((block) => isObject(block) && block.type === 'diff')
    : [];
  if (blocks.length > 0)
    return blocks.flatMap((block) => [...marked('-', block.oldText), ...marked('+', block.newText)]);
  const input = isObject(request.input) ? request.input : {};
  const old = input.old_string ?? input.oldString ?? input.old_str;
  const next = input.new_string ?? input.newString ?? input.new_str;
  if (typeof old === 'string' || typeof next === 'string') return [...marked('-', old), ...marked('+', next)];
  return marked('+', input.content ?? input.file_text);
}

/** The question for one request, every line inert. */
export function question(request: Shown): string {
  const lines = [`${oneLine(request.tool)} asks to ${oneLine(request.kind)}`];
  if (request.agent_id !== undefined) lines[0] += ` (subagent ${oneLine(request.agent_id)})`;
  if (request.command !== undefined) lines.push(`  command: ${oneLine(request.command)}`);
  if (request.path !== undefined) lines.push(`  path: ${oneLine(request.path)}`);
  const diff = diffOf(request);
  const shown = diff.slice(0, MAX_DIFF_LINES).map((line) => `  ${readable(line).replace(/\n/g, '\u2424')}`);
  if (diff.length > MAX_DIFF_LINES) shown.push(`  ... ${diff.length - MAX_DIFF_LINES} more lines`);
  return `${[...lines, ...shown].join('\n')}\n`;
}

/** The keys this request offers: session only where the agent can grant it. */
function offered(request: Shown) {
  return keys.filter((choice) => choice.scope === undefined || request.scopes.includes(choice.scope));
}

export interface Prompter {
  /** Asks the person; resolves to a deny when the run withdraws the request or the terminal closes. */
  ask(request: Shown, signal: AbortSignal): Promise<Said>;
  /** Stops reading the terminal. */
  close(): void;
}

/** A prompter reading answers from `input` (a line each) and writing questions to `output`. */
export function terminalPrompter(input: Readable, output: Writable): Prompter {
  const lines = createInterface({ input, terminal: false });
  let closed = false;
  let waiting: ((line: string | undefined) => void) | undefined;
  lines.on('line', (line) => waiting?.(line));
  lines.on('close', () => {
    closed = true;
    waiting?.(undefined);
  });
  /** The next line; undefined when the terminal closed or the request was withdrawn. */
  const nextLine = (signal: AbortSignal) =>
    new Promise<string | undefined>((resolve) => {
      if (closed || signal.aborted) return resolve(undefined);
      const done = (line: string | undefined) => {
        waiting = undefined;
        signal.removeEventListener('abort', withdrawn);
        resolve(line);
      };
      const withdrawn = () => done(undefined);
      waiting = done;
      signal.addEventListener('abort', withdrawn, { once: true });
    });

  async function askOne(request: Shown, signal: AbortSignal): Promise<Said> {
    if (signal.aborted) return { deny: true };
    const choices = offered(request);
    output.write(question(request));
    for (;;) {
      output.write(`Allow? ${choices.map((choice) => choice.label).join(', ')}: `);
      const line = await nextLine(signal);
      if (line === undefined) {
        output.write(signal.aborted ? '\n(withdrawn: the run no longer waits for it)\n' : '\n');
        return { deny: true };
      }
      const choice = choices.find((c) => c.key === line.trim().toLowerCase());
      if (choice !== undefined) return choice.scope === undefined ? { deny: true } : { allow: choice.scope };
    }
  }

  let queue: Promise<unknown> = Promise.resolve();
  return {
    ask(request, signal) {
      const answer = queue.then(() => askOne(request, signal));
      queue = answer;
      return answer;
    },
    close() {
      lines.close();
    },
  };
}
