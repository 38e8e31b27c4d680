/**
 * `permissions: 'ask'` over ACP (docs/library.md "Approvals"): each `session/request_permission` becomes a normalized
 * request for the caller's `onPermission`, through the one asker (lib/kernel/asker.ts), and its decision becomes the
 * option the agent's row names (approval-options.ts). ACP carries no deny message and no rewritten input: such answers
 * are refused by the asker (denied, with a warning). A `stop` is the deny option, then `session/cancel`. A request
 * withdrawn (the run aborted, its turn over) is answered `cancelled`, as ACP requires after `session/cancel`.
 */
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { describeCall, type AnswerTable, type Decision, type PermissionRequest } from '../../kernel/approvals.js';
import { createAsker, type ApprovalCounts, type Asker } from '../../kernel/asker.js';
import type { ClientContext, Harness, LaunchOptions } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { agentRules, rowOf, type ToolRecord } from './agent-rules.js';
import { offeredAnswers, optionsFor, type AcpScope, type OfferedAnswers } from './approval-options.js';
import { tools } from './tools.js';

/** The tool table alone: what describeCall needs of the harness. */
const toolsOnly = { tools } as Pick<Harness, 'tools'> as Harness;

const cancelled = { outcome: { outcome: 'cancelled' } } as const satisfies RequestPermissionResponse;
const selected = (optionId: string) =>
  ({ outcome: { outcome: 'selected', optionId } }) as const satisfies RequestPermissionResponse;

/** The asker's table for an agent: the scopes its row has options for, the deny, and a stop (deny + cancel). */
function tableOf(rule: string, scopes: readonly AcpScope[]): AnswerTable {
  const table: Record<string, { rule: string; does: string }> = {
    deny: { rule: `${rule}.deny`, does: "the row's reject option; no message reaches the model (ACP has no field)" },
    stop: { rule: `${rule}.stop`, does: 'the reject option, then session/cancel: the turn ends cancelled' },
  };
  for (const scope of scopes) table[scope] = { rule: `${rule}.${scope}`, does: `the row's option for ${scope}` };
  return table;
}

/** The normalized request of an ACP permission request. */
export function acpRequest(
  params: JsonObject,
  merged: JsonObject | undefined,
  id: unknown,
  agent: string | undefined,
  cwd: string,
  offered: OfferedAnswers,
): PermissionRequest {
  const call = merged ?? (isObject(params.toolCall) ? params.toolCall : {});
  const call_id =
    typeof call.toolCallId === 'string' && call.toolCallId !== '' ? call.toolCallId : `request-${String(id)}`;
  const tool = [call.title, call.kind].find((name) => typeof name === 'string' && name !== '') as string | undefined;
  const record = { ...call, toolCallId: call_id } as ToolRecord;
  const rules = agent === undefined ? undefined : agentRules.get(agent);
  const described = describeCall(toolsOnly, rowOf(record, rules), rules?.input?.(record) ?? record, cwd);
  return {
    call_id,
    harness: 'acp',
    tool: tool ?? 'a tool',
    ...described,
    input: call.rawInput,
    scopes: (['once', 'session', 'always'] as const).filter((scope) => offered.scopes[scope] !== undefined),
    raw: params,
  };
}

/** Tool calls announced and not finished that a request may name; past it, the oldest is forgotten. */
export const MAX_ANNOUNCED_CALLS = 32;

export interface AcpApprovals {
  /** A `session/update`'s `update`: the tool calls announced, whose fields a request may leave out. */
  update(update: unknown): void;
  /** Asks the caller about a request; `answer` is called with the response (cancelled when withdrawn). */
  request(
    id: unknown,
    params: JsonObject,
    agent: string | undefined,
    answer: (result: RequestPermissionResponse, decision: Decision | undefined) => void,
  ): void;
  /** Withdraws every pending request: each is answered `cancelled`. */
  withdrawAll(): void;
  counts(): ApprovalCounts;
}

/** The ACP side of the asker for one run (`permissions: 'ask'`). */
export function acpApprovals(
  options: LaunchOptions & { agent?: string },
  context: ClientContext,
  cwd: string,
): AcpApprovals {
  let asker: Asker | undefined;
  /**
   * The announced calls by id: a request's toolCall may carry only its id and title (claude-code-acp, Gemini), the
   * kind and input being in the call's `tool_call`.
   */
  const announced = new Map<string, JsonObject>();
  /** The asker, made at the first request: the agent's name is known then (from its initialize answer). */
  const askerFor = (rule: string, scopes: readonly AcpScope[]) =>
    (asker ??= createAsker({
      onPermission: options.onPermission!,
      timeoutMs: options.permissionTimeoutMs,
      table: tableOf(rule, scopes),
      emit: context.emit,
      metrics: context.metrics,
      trace: context.trace,
    }));
  let warnedNoReject = false;
  return {
    update(update) {
      if (!isObject(update) || typeof update.toolCallId !== 'string') return;
      const { toolCallId, sessionUpdate, status } = update;
      if (sessionUpdate !== 'tool_call' && sessionUpdate !== 'tool_call_update') return;
      if (status === 'completed' || status === 'failed') return void announced.delete(toolCallId);
      const { sessionUpdate: _kind, ...fields } = update;
      const known = announced.get(toolCallId);
      announced.delete(toolCallId);
      announced.set(toolCallId, { ...known, ...fields });
      if (announced.size > MAX_ANNOUNCED_CALLS) announced.delete(announced.keys().next().value!);
    },
    request(id, params, agent, answer) {
      const row = optionsFor(options.agent, agent);
      const offered = offeredAnswers(row, params.options);
      const granted = (['once', 'session', 'always'] as const).filter((scope) => (row?.[scope] ?? ['']).length > 0);
      const call = isObject(params.toolCall) ? params.toolCall : {};
      const known = typeof call.toolCallId === 'string' ? announced.get(call.toolCallId) : undefined;
      const request = acpRequest(params, known && { ...known, ...call }, id, agent, cwd, offered);
      void askerFor(offered.rule, row === undefined ? ['once'] : granted)
        .ask(request, typeof id === 'string' || typeof id === 'number' ? String(id) : undefined)
        .then((decision) => {
          if (decision === undefined) return answer(cancelled, undefined);
          if ('allow' in decision) return answer(selected(offered.scopes[decision.allow]!), decision);
          if (offered.deny === undefined && !warnedNoReject) {
            warnedNoReject = true;
            context.emit({
              type: 'warning',
              code: 'permission_answer',
              message: `${request.tool} (${request.call_id}): the request offers no reject option: answered cancelled`,
            });
          }
          answer(offered.deny === undefined ? cancelled : selected(offered.deny), decision);
        });
    },
    withdrawAll: () => asker?.withdrawAll(),
    counts: () => asker?.counts ?? { asked: 0, allowed: 0, denied: 0 },
  };
}
