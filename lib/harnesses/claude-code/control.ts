/**
 * The library's side of the stream-json control protocol (Claude Code's, which Qwen Code copies) in a
 * `permissions: 'ask'` run: the prompt goes to stdin as a user message (no option parser reads it), each
 * `control_request` `can_use_tool` is asked of the caller (lib/kernel/asker.ts) and answered with a `control_response`,
 * a `control_cancel_request` withdraws its request (the callback's signal aborts), and stdin is closed after the
 * `result` so the child ends. Any other control request gets an error answer: the CLI is never left waiting.
 */
import type { PermissionScope, AnswerTable, Decision } from '../../kernel/approvals.js';
import { describeCall } from '../../kernel/approvals.js';
import { createAsker } from '../../kernel/asker.js';
import type { ClientContext, Harness, HarnessClient, LaunchOptions } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';

/** One agent's copy of the protocol: its answers and how a decision is written for it. */
export interface ControlDialect {
  /** The harness whose tool table classifies the calls asked about. */
  readonly harness: Pick<Harness, 'name' | 'tools' | 'toolKey'>;
  /** What each answer becomes (docs/library.md "Approvals"). */
  readonly answers: AnswerTable;
  /** The scopes a `can_use_tool` request can be allowed for. */
  scopes(request: JsonObject): PermissionScope[];
  /** The `control_response`'s inner `response` for a decision. */
  response(decision: Decision, request: JsonObject): JsonObject;
  /** An `initialize` control request sent before the prompt, for an agent that routes its asks only after one. */
  readonly initialize?: JsonObject;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Whether a run has the control client: it asks (`permissions: 'ask'`) and has a prompt to send. */
export function asks(options: LaunchOptions): boolean {
  return options.permissions === 'ask' && options.prompt !== undefined;
}

/** The client of a `permissions: 'ask'` run, for one agent's dialect. */
export function controlClient(dialect: ControlDialect) {
  return (options: LaunchOptions, context: ClientContext): HarnessClient => {
    const asker = createAsker({
      onPermission: options.onPermission!,
      timeoutMs: options.permissionTimeoutMs,
      table: dialect.answers,
      emit: context.emit,
      metrics: context.metrics,
      trace: context.trace,
    });
    const { stdin } = context;
    /** The requests waiting for the caller, by request id: their call ids. */
    const waiting = new Map<string, string>();
    // A write after the child is gone fails (EPIPE): its exit is what the run reports.
    stdin.on('error', () => {});
    const send = (message: JsonObject) => {
      if (stdin.writable) stdin.write(JSON.stringify(message) + '\n');
    };
    if (dialect.initialize !== undefined)
      send({ type: 'control_request', request_id: 'harness-events-initialize', request: dialect.initialize });
    send({
      type: 'user',
      session_id: '',
      message: { role: 'user', content: options.prompt ?? '' },
      parent_tool_use_id: null,
    });

    function canUseTool(request_id: string, request: JsonObject): void {
      const call_id = text(request.tool_use_id) ?? request_id;
      const tool = text(request.tool_name) ?? 'a tool';
      const home = options.env?.HOME ?? process.env.HOME;
      const agent_id = text(request.agent_id);
      waiting.set(request_id, call_id);
      const asked = {
        call_id,
        harness: dialect.harness.name,
        tool,
        ...describeCall(dialect.harness as Harness, tool, request.input, options.cwd, home),
        input: request.input,
        ...(agent_id === undefined ? {} : { agent_id }),
        scopes: dialect.scopes(request),
        raw: request,
      };
      void asker.ask(asked, request_id).then((decision) => {
        waiting.delete(request_id);
        if (decision === undefined) return;
        const response = dialect.response(decision, request);
        send({ type: 'control_response', response: { subtype: 'success', request_id, response } });
      });
    }

    return {
      record(value) {
        if (!isObject(value)) return;
        const request_id = text(value.request_id);
        if (value.type === 'control_request' && request_id !== undefined && isObject(value.request)) {
          if (value.request.subtype === 'can_use_tool') return canUseTool(request_id, value.request);
          const error = `harness-events does not answer ${String(value.request.subtype)}`;
          return send({ type: 'control_response', response: { subtype: 'error', request_id, error } });
        }
        if (value.type === 'control_cancel_request' && request_id !== undefined) {
          const call_id = waiting.get(request_id);
          if (call_id !== undefined) asker.withdraw(call_id);
        }
        // The turn is over: with stdin closed the child ends.
        if (value.type === 'result') stdin.end();
      },
      abort() {
        asker.withdrawAll();
        return 'terminate';
      },
      exited: () => asker.withdrawAll(),
      outputEnded: () => asker.withdrawAll(),
      approvals: () => asker.counts,
    };
  };
}
