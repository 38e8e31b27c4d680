/** `harness-events run`: starts a harness (or an ACP agent) and writes its normalized events live. */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isPermissions, permissionList } from '../../kernel/permissions.js';
import { HarnessRunError, type RunFailure, type RunResult } from '../../runtime/run/errors.js';
import {
  MAX_TIMER_MS,
  shellExitCode,
  spawnHarness,
  type HarnessRun,
  type SpawnHarnessOptions,
} from '../../runtime/run/spawn.js';
import type { RunItem } from '../../runtime/run/output.js';
import { serialize } from '../../transforms/serialize.js';
import { openMetrics, statOf } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { publishing } from './jetstream.js';
import { formatOf, normalizeOptions, parse, type Values } from './options.js';
import { otlpUrl, startExporting } from './otel.js';
import { terminalPrompter } from './prompter.js';
import type { Exporting } from './otlp.js';
import { loadPretty, readerGone, reportFailure, say } from './output.js';
import { trapStopSignals } from './signals.js';
import { UsageError } from './usage-error.js';
import type { Budget } from '../../runtime/run/budget.js';
import { loadPriceTable } from '../../runtime/usage/prices.js';

export async function runCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'run');
  if (values.help) return writeHelp(stdout, commandHelp('run'));
  const options = normalizeOptions(values);
  const format = formatOf(values, ['jsonl', 'pretty', 'trace']);
  const pretty = format === 'pretty' ? await loadPretty(values, stdout) : undefined;
  const launch = launchOptions(values, positionals);
  const grace = values['kill-grace-ms'];
  // A timer holds at most 2^31 - 1 ms: past it Node fires at once, so SIGKILL would follow SIGTERM by 1 ms.
  if (grace !== undefined && (!/^\d+$/.test(grace) || Number(grace) > MAX_TIMER_MS))
    throw new UsageError(`--kill-grace-ms takes a number of milliseconds up to ${MAX_TIMER_MS}, got "${grace}"`);
  const timeout = values.timeout;
  if (timeout !== undefined && (!/^[1-9]\d*$/.test(timeout) || Number(timeout) > MAX_TIMER_MS))
    throw new UsageError(`--timeout takes a positive number of milliseconds up to ${MAX_TIMER_MS}, got "${timeout}"`);
  if (options.cwd !== undefined && !statOf(options.cwd)?.isDirectory())
    throw new UsageError(`--cwd ${values.cwd} is not a directory`);
  const budget = await budgetOf(values);
  const url = otlpUrl(values.otlp);
  // Checked before the child starts: a run may take an hour and cost money.
  const metrics = await openMetrics(values.metrics);
  // --permissions ask: the person at the terminal answers (stdin and stderr, checked to be one by launchOptions).
  const prompter = launch.permissions === 'ask' ? terminalPrompter(process.stdin, process.stderr) : undefined;
  let output;
  let run: HarnessRun<RunItem>;
  let exporting: Exporting | undefined;
  try {
    output = publishing(values, values.harness!, () => run.metrics);
    if (values.otlp !== undefined)
      exporting = await startExporting({
        url,
        kind: 'client',
        clock: 'observed',
        harness: values.harness,
        // What is printed: the records themselves with --format trace, else the events.
        pass: (record) => (format === 'trace' ? record : record.kind === 'event' ? record.event : undefined),
      });
    run = startHarness({
      ...options,
      ...launch,
      // The run span's context, so that a CLI that reads TRACEPARENT puts its own spans under it.
      env: exporting ? { ...exporting.sink.traceEnv(), ...options.env } : options.env,
      // The trace: printed (--format trace), exported (--otlp); --publish sends the events it carries.
      trace: format === 'trace' || exporting !== undefined,
      killGraceMs: grace === undefined ? undefined : Number(grace),
      timeoutMs: timeout === undefined ? undefined : Number(timeout),
      budget,
      ...(prompter && { onPermission: (request, { signal }) => prompter.ask(request, signal) }),
      // The command reads every event, and reports a failure by its exit code.
      reject: false,
    } as SpawnHarnessOptions & { trace: boolean });
  } catch (error) {
    prompter?.close();
    await metrics?.discard();
    throw error;
  }
  const signals = trapStopSignals(
    () => run.stop(),
    () => run.stop({ force: true }),
  );
  let outputError: Error | undefined;
  try {
    const print = output([pretty ? pretty(run.metrics) : serialize()]);
    await pipeline([run as Readable, ...(exporting ? [exporting.stage] : []), ...print, stdout], { end: false });
  } catch (error) {
    // The reader went away (| head -1), or the output failed: either way the child is stopped, and waited for.
    run.destroy();
    outputError = error as Error;
  }
  const result = await run.done;
  prompter?.close();
  const lost = await exporting?.finish();
  if (lost !== undefined) say(lost);
  // A metrics file that cannot be written is said on stderr; the exit code stays the child's.
  await metrics?.write(run.metrics);
  signals.off();
  // After a signal the terminal may be gone too (SIGHUP): its write errors are expected.
  const failedOutput =
    outputError && signals.exitCode === undefined && !readerGone(outputError) ? outputError : undefined;
  const code = runExitCode(result, signals.exitCode, outputError !== undefined);
  const failure = failedOutput ?? (result instanceof HarnessRunError && said.has(result.reason) ? result : undefined);
  return failure ? reportFailure(failure, failedOutput ? 1 : code) : code;
}

/** The failures `run` also reports on stderr (the others are the child's own, which its events already say). */
const said = new Set<RunFailure>(['spawn_failed', 'stage_failed', 'timeout', 'budget']);

/**
 * The one place `run`'s exit code is decided, from the run's result: a stop signal the command got is 128 + its
 * number; a child that could not be started 127; a failed stage 1; a timeout 124 (as timeout(1)); a reader that went
 * away 0; otherwise the child's exit code (ACP: its conversation's), 128 + n after signal n.
 */
function runExitCode(result: RunResult, signalled: number | undefined, readerWent = false): number {
  if (signalled !== undefined) return signalled;
  if (!(result instanceof HarnessRunError)) return 0;
  const byReason: Partial<Record<RunFailure, number>> = {
    spawn_failed: 127,
    stage_failed: 1,
    timeout: 124,
    budget: 124,
  };
  if (readerWent && result.reason === 'aborted') return 0;
  return byReason[result.reason] ?? shellExitCode(result);
}

/**
 * What `run` starts: with `--prompt`, the harness's own command line, the words after `--`
 * going before the prompt (acp: the agent's command line, or `--agent`'s); without, the
 * command after `--`.
 */
function launchOptions(values: Values, positionals: string[]): Partial<SpawnHarnessOptions> {
  const [command, ...args] = positionals;
  const permissions = values.permissions;
  if (permissions !== undefined && !isPermissions(permissions))
    throw new UsageError(`--permissions takes one of ${permissionList}, got "${permissions}"`);
  if (permissions !== undefined && values.prompt === undefined)
    throw new UsageError('--permissions goes with --prompt (with a command after --, its arguments are yours)');
  if (permissions === 'ask' && !(process.stdin.isTTY && process.stderr.isTTY))
    throw new UsageError(
      '--permissions ask asks you at the terminal: stdin and stderr must be one (a program passes onPermission to ' +
        'spawnHarness)',
    );
  if (values.harness === 'acp') {
    if (command === undefined && values.agent === undefined)
      throw new UsageError(
        "run --harness acp needs --agent or the agent's command after -- (see harness-events --help)",
      );
    return { command, args, prompt: values.prompt, model: values.model, agent: values.agent, permissions };
  }
  if (values.agent !== undefined) throw new UsageError('--agent is for --harness acp');
  if (values.prompt !== undefined)
    return {
      prompt: values.prompt,
      model: values.model,
      permissions,
      extraArgs: positionals.length > 0 ? positionals : undefined,
    };
  if (values.model !== undefined)
    throw new UsageError('--model goes with --prompt (with a command after --, put it there)');
  if (command === undefined)
    throw new UsageError('run needs --prompt, or the command to run after -- (see harness-events --help)');
  return { command, args };
}

/**
 * `--max-cost` (with `--prompt` and `--model`: the model whose prices count, `--prices` a file of one's own),
 * `--max-tokens`: the run's budget, its price table loaded; a usage error when it cannot be kept.
 */
async function budgetOf(values: Values): Promise<Budget | undefined> {
  const [cost, tokens] = [values['max-cost'], values['max-tokens']];
  if (values.prices !== undefined && cost === undefined) throw new UsageError('--prices goes with --max-cost');
  if (cost !== undefined && !/^\d+(\.\d+)?$/.test(cost))
    throw new UsageError(`--max-cost takes an amount of USD (0.50), got "${cost}"`);
  if (tokens !== undefined && !(/^\d+$/.test(tokens) && Number.isSafeInteger(Number(tokens))))
    throw new UsageError(`--max-tokens takes a whole number of tokens, got "${tokens}"`);
  if (cost !== undefined && values.model === undefined)
    throw new UsageError('--max-cost needs --model (with --prompt): the model whose prices count');
  if (cost === undefined) return tokens === undefined ? undefined : { tokens: Number(tokens) };
  const prices = await loadPriceTable({ overrides: values.prices }).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  return { usd: Number(cost), prices, ...(tokens === undefined ? {} : { tokens: Number(tokens) }) };
}

/** spawnHarness, with options the harness cannot run with (acp without --prompt, an unknown agent) as usage errors. */
function startHarness(options: SpawnHarnessOptions & { trace?: boolean }): HarnessRun<RunItem> {
  try {
    return spawnHarness(options);
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}
