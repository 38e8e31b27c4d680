/**
 * Qwen Code's session records keep the model's messages as Gemini-style `parts` (`text`, `thought`,
 * `functionCall`, `functionResponse`); its stdout writes the same messages as Claude Code's content
 * blocks. Restated here as those blocks, the session reader (session.ts) reads them with the stdout
 * dialect (../claude-code/dialect.ts), so a call pairs with its result and meets the tool table the same way.
 */
import { isObject, type JsonObject } from '../../kernel/json.js';

/** A record's blocks, and the parts that are none of the shapes above (each an unknown event). */
export interface Restated {
  readonly blocks: JsonObject[];
  readonly unread: unknown[];
}

/** An assistant record's parts: a thought is a thinking block, other text a text block, a call a tool_use. */
export function modelBlocks(parts: readonly unknown[]): Restated {
  const blocks: JsonObject[] = [];
  const unread: unknown[] = [];
  for (const part of parts) {
    if (isObject(part) && typeof part.text === 'string')
      blocks.push(
        part.thought === true ? { type: 'thinking', thinking: part.text } : { type: 'text', text: part.text },
      );
    else if (isObject(part) && isObject(part.functionCall))
      blocks.push({
        type: 'tool_use',
        id: part.functionCall.id,
        name: part.functionCall.name,
        input: part.functionCall.args,
      });
    else unread.push(part);
  }
  return { blocks, unread };
}

/**
 * A tool_result record's `functionResponse` parts as tool_result blocks: the content is the response's `output` (or
 * its `error`), which is what stdout prints; failed when the response is an `error` or `toolCallResult.status` is
 * not `success` (a subagent's records have no status).
 */
export function responseBlocks(parts: readonly unknown[], status: unknown): Restated {
  const blocks: JsonObject[] = [];
  const unread: unknown[] = [];
  for (const part of parts) {
    const response = isObject(part) && isObject(part.functionResponse) ? part.functionResponse : undefined;
    if (response === undefined || typeof response.id !== 'string' || !isObject(response.response)) {
      unread.push(part);
      continue;
    }
    const failed = 'error' in response.response || (status !== undefined && status !== 'success');
    const content = 'output' in response.response ? response.response.output : response.response.error;
    blocks.push({ type: 'tool_result', tool_use_id: response.id, is_error: failed, content });
  }
  return { blocks, unread };
}

/** What a `<task-notification>` text says: its task, the call that started it, how it ended. */
export interface TaskNotice {
  readonly taskId?: string;
  readonly toolUseId: string;
  readonly status: string;
}

/** The `<task-notification>` a background task's completion brings back, or undefined for any other text. */
export function taskNotice(parts: unknown): TaskNotice | undefined {
  const text = Array.isArray(parts) && isObject(parts[0]) ? parts[0].text : undefined;
  if (typeof text !== 'string' || !text.startsWith('<task-notification>')) return undefined;
  const toolUseId = tag(text, 'tool-use-id');
  const status = tag(text, 'status');
  if (toolUseId === undefined || status === undefined) return undefined;
  return { taskId: tag(text, 'task-id'), toolUseId, status };
}

/** The text of the first `<name>` element, when it is on one line. */
function tag(text: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([^<\\n]*)</${name}>`).exec(text);
  return match?.[1];
}
