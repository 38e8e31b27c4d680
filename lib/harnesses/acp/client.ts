/**
 * The library as an ACP client (the README's "ACP agents"). One run is one prompt turn: it sends
 * `initialize`, `session/new`, `session/set_model` (only with a `model`) and `session/prompt`,
 * each once the one before is answered; it answers the agent's requests at once (a permission
 * by the `permissions` option: rejected unless it is `'bypass'`; anything else -32601); and the
 * answer to the prompt ends the run: the agent's stdin is closed, SIGTERM follows after
 * `exitGraceMs` if it is still running, SIGKILL `killGraceMs` later. An abort is ACP's
 * `session/cancel`, then the same ending when the agent has not answered the turn within
 * `cancelGraceMs`. How the conversation ended decides the run's exit code (acp.md, "How the run
 * ends"), not how the agent then exits.
 *
 * An agent that cannot finish the turn ends it the same way, with an `error` event naming what it failed to do: no
 * answer to `initialize`, `session/new` or `session/set_model` within `handshakeTimeoutMs`, an answer with an id no
 * request has (`"1"` for 1), its stdout closed before the prompt's answer, or a line too long to read (past
 * maxLineBytes) while an answer is awaited. The run then ends within exitGraceMs + killGraceMs.
 *
 * Answers to the agent's own requests are written at its pace: while more than `MAX_UNREAD_ANSWER_BYTES` wait unread
 * in its stdin, further requests get no answer (counted, and said in one warning), so an agent that asks and never
 * reads cannot make the library hold its answers.
 *
 * The client reads what the normalizer parsed of the agent's stdout (spawn.ts hands it each
 * record), so the stream is parsed once, and at the consumer's pace: a slow consumer delays the
 * answers too, which holds the agent back like any backpressure.
 */
import type {
  CancelNotification,
  InitializeRequest,
  NewSessionRequest,
  PermissionOptionKind,
  PromptRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { ClientContext, HarnessClient, LaunchOptions } from '../../kernel/harness.js';
import type { Permissions } from '../../kernel/permissions.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { delay } from '../../kernel/limits.js';
import { permissionDenied, type Refusal } from '../../kernel/permission-denied.js';
import { refusalWatch } from './stopped.js';
import { acpApprovals } from './approvals.js';
import { packageVersion } from '../../kernel/version.js';

/**
 * The `permissions` values an ACP run takes: `'default'` rejects the agent's permission requests, `'bypass'` allows
 * them (and adds a preset's auto-approve flags), `'ask'` hands each to `onPermission` (approvals.ts).
 */
export type AcpPermissions = Extract<Permissions, 'default' | 'bypass' | 'ask'>;
/** The values the library answers by itself. */
type Answered = Exclude<AcpPermissions, 'ask'>;

/**
 * The options of an acp run (beside `prompt`, `model`, `command`, `args`, `extraArgs`, `cwd`, `killGraceMs`,
 * `permissions`).
 */
export interface AcpOptions {
  /**
   * A known agent (`acpAgents`): its command line, so `command` and `args` may be left out (`args` are added after the
   * preset's).
   */
  agent?: string;
  /**
   * How long the agent may take to exit once its stdin is closed at the end of the run, before SIGTERM. Default 2000
   * ms.
   */
  exitGraceMs?: number;
  /**
   * How long the agent may take to answer the turn after an abort's `session/cancel`, before it is ended. Default 5000
   * ms.
   */
  cancelGraceMs?: number;
  /**
   * How long the agent may take to answer each of `initialize`, `session/new` and `session/set_model` before the run
   * ends with an error. Default 60,000 ms. (The prompt's turn has no limit: it takes what the task takes.)
   */
  handshakeTimeoutMs?: number;
}

/** Bytes of answers the agent may leave unread in its stdin before its further requests go unanswered. */
export const MAX_UNREAD_ANSWER_BYTES = 1 << 20;
/** The longest method name an error answer repeats: the agent chose the name, and its length. */
const MAX_ECHOED_METHOD = 200;

/**
 * The kinds of option a permission request is answered with, in order; `allow_always` last, as agents may persist it.
 */
const permissionKinds: Readonly<Record<Answered, readonly PermissionOptionKind[]>> = {
  default: ['reject_once', 'reject_always'],
  bypass: ['allow_once', 'allow_always'],
};

// Typed by what they are, checked against the SDK's type: the published declarations name no dev dependency.
const cancelledAnswer = { outcome: { outcome: 'cancelled' } } as const satisfies RequestPermissionResponse;

/**
 * The answer to a `session/request_permission`: the first option of the wanted kinds; cancelled without one, or after
 * an abort.
 */
export function permissionAnswer(options: unknown, permissions: Answered, cancelled = false) {
  if (cancelled || !Array.isArray(options)) return cancelledAnswer;
  for (const kind of permissionKinds[permissions]) {
    const option: unknown = options.find(
      (option) => isObject(option) && option.kind === kind && typeof option.optionId === 'string',
    );
    if (isObject(option))
      return {
        outcome: { outcome: 'selected', optionId: option.optionId as string },
      } as const satisfies RequestPermissionResponse;
  }
  return cancelledAnswer;
}

/** What a request the client did not allow refused (docs/harnesses/acp.md "Permission requests"). */
function refusalOf(toolCall: unknown, answer: ReturnType<typeof permissionAnswer>): Refusal {
  const call = isObject(toolCall) ? toolCall : {};
  const tool = [call.title, call.kind, call.toolCallId].find((name) => typeof name === 'string' && name !== '');
  const reason =
    answer.outcome.outcome === 'selected'
      ? `permissions "default": the library chose ${answer.outcome.optionId}`
      : 'permissions "default": the request offered no reject option, so it was cancelled';
  return { tool: (tool as string | undefined) ?? 'a tool', reason };
}

interface Settings {
  prompt: string;
  cwd: string;
  permissions: AcpPermissions;
  model: string | undefined;
  exitGraceMs: number;
  killGraceMs: number;
  cancelGraceMs: number;
  handshakeTimeoutMs: number;
}

/** The run's settings, defaults filled; a TypeError or RangeError for an option it cannot run with. */
export function acpSettings(options: LaunchOptions & AcpOptions): Settings {
  if (typeof options.prompt !== 'string') throw new TypeError('acp: the prompt option is required (a string)');
  const permissions = (options.permissions ?? 'default') as AcpPermissions;
  if (permissions !== 'ask' && !Object.hasOwn(permissionKinds, permissions))
    throw new TypeError(
      `acp: permissions must be "default" (reject the agent's requests), "bypass" (allow them) or "ask" ` +
        `(onPermission decides), got ${JSON.stringify(permissions)}`,
    );
  if (permissions === 'ask' && typeof options.onPermission !== 'function')
    throw new TypeError("acp: permissions 'ask' needs onPermission (the callback that decides each call)");
  if (options.model !== undefined && typeof options.model !== 'string')
    throw new TypeError('acp: model must be a string');
  if (options.cwd === undefined)
    throw new TypeError('acp: the working directory is required (spawnHarness fills it in)');
  return {
    prompt: options.prompt,
    cwd: options.cwd,
    permissions,
    model: options.model,
    // Within a timer's range, as spawnHarness checks its own killGraceMs (0 included: SIGKILL at once).
    exitGraceMs: delay('exitGraceMs', options.exitGraceMs, 2000, 0),
    killGraceMs: delay('killGraceMs', options.killGraceMs, 2000, 0),
    cancelGraceMs: delay('cancelGraceMs', options.cancelGraceMs, 5000, 0),
    handshakeTimeoutMs: delay('handshakeTimeoutMs', options.handshakeTimeoutMs, 60_000),
  };
}

type Step = 'initialize' | 'session/new' | 'session/set_model' | 'session/prompt';

export function acpClient(options: LaunchOptions & AcpOptions, context: ClientContext): HarnessClient {
  const settings = acpSettings(options);
  const { stdin } = context;
  let nextId = 1;
  /** The request waiting for its answer (there is one at a time). */
  let waiting: { id: number; step: Step } | undefined;
  let sessionId: string | undefined;
  let cancelled = false;
  let ending = false;
  const watch = refusalWatch();
  /** The run's exit code, once the conversation has decided it. */
  let exitCode: number | undefined;
  /** The handshake's deadline, the cancel grace, then the exit grace. */
  let timer: NodeJS.Timeout | undefined;
  /** Requests of the agent's left unanswered while it did not read its stdin. */
  let unanswered = 0;
  /** The agent's `agentInfo.name`, from its answer to initialize: its row of approval options. */
  let agentName: string | undefined;
  /** A denial with `stop` has cancelled the turn. */
  let stopping = false;
  const approvals = settings.permissions === 'ask' ? acpApprovals(options, context, settings.cwd) : undefined;

  // A write after the agent is gone fails (EPIPE): its exit is what the run reports.
  stdin.on('error', () => {});

  function send(message: JsonObject): void {
    if (stdin.writable) stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  }

  function request(step: Step, params: JsonObject): void {
    waiting = { id: nextId++, step };
    send({ id: waiting.id, method: step, params });
    clearTimeout(timer);
    if (step !== 'session/prompt') {
      const { id } = waiting;
      timer = setTimeout(() => {
        if (waiting?.id === id) fail(`did not answer ${step} within ${settings.handshakeTimeoutMs} ms`);
      }, settings.handshakeTimeoutMs).unref();
    }
  }

  /** The agent cannot finish the turn: an error naming what it failed to do, then the run's ending. */
  function fail(what: string): void {
    if (ending) return;
    context.emit({ type: 'error', code: 'protocol_error', message: `the ACP agent ${what}` });
    end(1);
  }

  /** An answer to one of the agent's requests, unless it has left too many unread. */
  function reply(message: JsonObject): void {
    if (stdin.writableLength <= MAX_UNREAD_ANSWER_BYTES) return send(message);
    if (unanswered++ > 0) return;
    context.emit({
      type: 'warning',
      code: 'protocol_error',
      message:
        `the ACP agent is not reading its stdin (${stdin.writableLength} bytes of answers unread): its requests ` +
        'go unanswered until it reads',
    });
    stdin.once('drain', () => (unanswered = 0));
  }

  function prompt(): void {
    request('session/prompt', {
      sessionId: sessionId!,
      prompt: [{ type: 'text', text: settings.prompt }],
    } satisfies PromptRequest);
  }

  /** The agent's request, answered at once. */
  function answer(message: JsonObject): void {
    const { id, method } = message;
    if (method === 'session/request_permission') {
      const params = isObject(message.params) ? message.params : {};
      if (approvals !== undefined) return ask(id, params);
      const result = permissionAnswer(params.options, settings.permissions as Answered, cancelled);
      reply({ id, result });
      // Refused by the permissions setting; not a request cancelled with the turn.
      if (settings.permissions !== 'bypass' && !cancelled) {
        permissionDenied(context, refusalOf(params.toolCall, result));
        watch.refused(isObject(params.toolCall) ? params.toolCall.toolCallId : undefined);
      }
      return;
    }
    const name =
      (method as string).length > MAX_ECHOED_METHOD ? `${(method as string).slice(0, MAX_ECHOED_METHOD)}...` : method;
    reply({ id, error: { code: -32601, message: `Method not found: ${name as string}` } });
  }

  /**
   * `permissions: 'ask'`: the caller decides (approvals.ts); a request after an abort is answered cancelled at once. A
   * denial with `stop` ends the turn: `session/cancel` after the reject option.
   */
  function ask(id: unknown, params: JsonObject): void {
    if (cancelled || ending) return reply({ id, result: cancelledAnswer });
    approvals!.request(id, params, agentName, (result, decision) => {
      reply({ id, result });
      if (decision === undefined || 'allow' in decision) return;
      watch.refused(isObject(params.toolCall) ? params.toolCall.toolCallId : undefined);
      if (decision.stop && !stopping && !cancelled && waiting?.step === 'session/prompt') {
        stopping = true;
        send({ method: 'session/cancel', params: { sessionId: sessionId! } satisfies CancelNotification });
      }
    });
  }

  /** The answer to the request that was waiting: the next step. */
  function next(step: Step, result: unknown, ok: boolean): void {
    // A model the agent refuses does not stop the run; any other error does, and the prompt's answer ends it.
    if (step === 'session/prompt') {
      if (watch.stopped()) context.metrics.stopped_by_permission = true;
      return end(ok ? stopExitCode(result) : 1);
    }
    if (!ok && step !== 'session/set_model') return end(1);
    if (step === 'initialize') {
      const info = isObject(result) && isObject(result.agentInfo) ? result.agentInfo : {};
      agentName = typeof info.name === 'string' ? info.name : undefined;
      return request('session/new', { cwd: settings.cwd, mcpServers: [] } satisfies NewSessionRequest);
    }
    if (step === 'session/new') {
      sessionId = isObject(result) && typeof result.sessionId === 'string' ? result.sessionId : undefined;
      if (sessionId === undefined) {
        context.emit({
          type: 'error',
          code: 'protocol_error',
          message: 'the ACP agent answered session/new without a sessionId: no prompt can be sent',
        });
        return end(1);
      }
      if (settings.model !== undefined) return request('session/set_model', { sessionId, modelId: settings.model });
    }
    prompt();
  }

  /** acp.md "How the run ends": `end_turn` 0, `cancelled` after the caller's abort 130, any other stop reason 1. */
  function stopExitCode(result: unknown): number {
    const stopReason = isObject(result) ? result.stopReason : undefined;
    if (stopReason === 'end_turn') return 0;
    return stopReason === 'cancelled' && cancelled ? 130 : 1;
  }

  /**
   * The run is over, with this exit code: stdin closed, then SIGTERM and SIGKILL if the agent does not exit. Without
   * a code, the agent's own exit decides, unless it has to be signalled: then `unless` is the error said and the run
   * exits 1 (an agent that exits at once, a crash, has said what it had to by its exit).
   */
  function end(code: number | undefined, unless?: string): void {
    if (ending) return;
    ending = true;
    exitCode = code;
    // Nothing can answer them any more: their callbacks' signals abort.
    approvals?.withdrawAll();
    clearTimeout(timer);
    stdin.end();
    timer = setTimeout(() => {
      if (unless !== undefined) {
        context.emit({ type: 'error', code: 'protocol_error', message: unless });
        exitCode ??= 1;
      }
      context.kill('SIGTERM');
      // Like spawnHarness after an abort: the SIGKILL goes out even after the agent exits, for what it started.
      setTimeout(() => context.kill('SIGKILL'), settings.killGraceMs).unref();
    }, settings.exitGraceMs).unref();
  }

  const initialize: InitializeRequest = {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: 'harness-events', version: packageVersion() },
  };
  request('initialize', initialize);

  return {
    record(value) {
      if (!isObject(value)) return;
      if (typeof value.method === 'string') {
        if (Object.hasOwn(value, 'id')) answer(value);
        else if (value.method === 'session/update' && isObject(value.params)) {
          watch.update(value.params.update);
          approvals?.update(value.params.update);
        }
        return;
      }
      const ok = Object.hasOwn(value, 'result') && !Object.hasOwn(value, 'error');
      if (ending || waiting === undefined || !(ok || Object.hasOwn(value, 'error'))) return;
      if (value.id !== waiting.id)
        return fail(
          `answered with id ${JSON.stringify(value.id)}, which no request has (${waiting.step} has id ${waiting.id})`,
        );
      const { step } = waiting;
      waiting = undefined;
      next(step, value.result, ok);
    },
    abort() {
      if (cancelled || ending) return;
      cancelled = true;
      // An abort ends the run with 130 whether or not the turn was answered in time.
      if (waiting?.step !== 'session/prompt') return end(130);
      send({ method: 'session/cancel', params: { sessionId: sessionId! } satisfies CancelNotification });
      // ACP: after session/cancel, every pending permission request is answered cancelled.
      approvals?.withdrawAll();
      timer = setTimeout(() => end(130), settings.cancelGraceMs).unref();
    },
    exited() {
      clearTimeout(timer);
    },
    exitCode: () => exitCode,
    ...(approvals === undefined ? {} : { approvals: () => approvals.counts() }),
    outputEnded() {
      // A crash closes stdout too, and its exit says so: the error is for an agent that stays.
      if (waiting !== undefined)
        end(undefined, `the ACP agent closed its stdout before answering ${waiting.step} and did not exit`);
    },
    lineLost() {
      if (waiting !== undefined)
        fail(`wrote a line longer than maxLineBytes while ${waiting.step} awaited its answer (it may have been it)`);
    },
  };
}
