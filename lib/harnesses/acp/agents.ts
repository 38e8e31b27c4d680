/**
 * The known ACP agents (the README's "ACP agents"): how each is started in ACP mode, so that
 * `spawnHarness({ harness: 'acp', agent: 'copilot', prompt })` needs no flags. Any other ACP
 * agent runs from its `command` and `args`.
 */
import { resolve } from 'node:path';
import { acpSettings } from './client.js';
// OpenCode and its fork Kilo allow edits and commands by default: an inline config that asks outranks the project's.
import { ASK } from '../opencode/command-line.js';
import type { LaunchOptions } from '../../kernel/harness.js';
import type { AcpOptions } from './client.js';

/** A known ACP agent: how it is started in ACP mode (`spawnHarness({ harness: 'acp', agent })`). */
export interface AcpAgent {
  /** The product. */
  readonly title: string;
  /** Its program, found on PATH. */
  readonly command: string;
  /** The arguments that start its ACP mode. */
  readonly args: readonly string[];
  /**
   * What each `permissions` value adds to its command line: by default (and with `'ask'`) what makes the agent send a
   * permission request (which the library rejects, or the caller decides) instead of approving by itself; with
   * `'bypass'`, what makes it approve its own calls.
   */
  readonly permissions?: PresetPermissions<readonly string[]>;
  /** The environment each `permissions` value sets; it wins over the caller's `env` (a `{...process.env}` too). */
  readonly permissionEnv?: PresetPermissions<Readonly<Record<string, string>>>;
  /** What it needs in its environment, for offline or custom-endpoint use (as the lab ran it). */
  readonly setup?: string;
  /** The version whose traffic test/fixtures/acp/ holds (LAB.md); absent for an agent not captured. */
  readonly captured?: string;
}

/** What a preset adds per `permissions` value (an ACP run takes `'default'` and `'bypass'`). */
type PresetPermissions<T> = Readonly<Partial<Record<'default' | 'bypass', T>>>;

/** The known ACP agents by the name `agent` takes (`copilot`, `droid`, ...), each with its command line. */
export const acpAgents: ReadonlyMap<string, AcpAgent> = new Map<string, AcpAgent>([
  [
    'copilot',
    {
      title: 'GitHub Copilot CLI',
      command: 'copilot',
      args: ['--acp', '--no-auto-update'],
      permissions: { bypass: ['--allow-all-tools'] },
      setup: 'BYOK: COPILOT_OFFLINE=true, COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_API_KEY, COPILOT_MODEL',
      captured: '1.0.102',
    },
  ],
  [
    'droid',
    {
      title: 'Factory Droid',
      command: 'droid',
      args: ['exec', '-o', 'acp'],
      setup:
        'FACTORY_API_KEY set (any value when only custom models are used); a custom model from ' +
        '~/.factory/settings.json with the model option (custom:<Name>-<index>)',
      captured: '0.225.2',
    },
  ],
  [
    'kilo',
    {
      title: 'Kilo Code CLI',
      command: 'kilo',
      args: ['acp'],
      permissionEnv: { default: { KILO_CONFIG_CONTENT: ASK } },
      setup: 'a provider in kilo.json (@ai-sdk/openai-compatible), KILO_DISABLE_* switches',
      captured: '7.7.7',
    },
  ],
  [
    'claude',
    {
      title: "Claude Code (Zed's adapter, npm @zed-industries/claude-agent-acp)",
      command: 'claude-agent-acp',
      args: [],
      setup: 'ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY; as root also IS_SANDBOX=1',
      captured: '0.23.1',
    },
  ],
  [
    // The adapter's former name, started the same way.
    'claude-code',
    {
      title: "Claude Code (Zed's former adapter, npm @zed-industries/claude-code-acp)",
      command: 'claude-code-acp',
      args: [],
      setup: 'ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY; as root also IS_SANDBOX=1',
      captured: '0.16.2',
    },
  ],
  [
    'qwen',
    {
      title: 'Qwen Code',
      command: 'qwen',
      args: ['--acp'],
      // Started without a mode, it runs in its own `auto`: writes and edits unasked, shell calls the model's choice.
      permissions: { default: ['--approval-mode', 'default'], bypass: ['--approval-mode', 'yolo'] },
      setup:
        'OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL, ~/.qwen/settings.json (args --auth-type openai for an ' +
        'OpenAI-compatible endpoint)',
      captured: '0.24.4',
    },
  ],
  [
    'gemini',
    {
      title: 'Gemini CLI',
      command: 'gemini',
      args: ['--acp'],
      // A settings file's defaultApprovalMode (a project's too) is outranked.
      permissions: { default: ['--approval-mode', 'default'] },
      setup:
        'GEMINI_API_KEY (GOOGLE_GEMINI_BASE_URL for another endpoint), ~/.gemini/settings.json with ' +
        'security.auth.selectedType "gemini-api-key"',
      captured: '0.61.0',
    },
  ],
  [
    'opencode',
    {
      title: 'OpenCode (npm opencode-ai)',
      command: 'opencode',
      args: ['acp'],
      permissionEnv: { default: { OPENCODE_CONFIG_CONTENT: ASK } },
      setup:
        'a provider in opencode.json (@ai-sdk/openai-compatible), OPENCODE_DISABLE_* switches; permission in ' +
        'opencode.json (ask makes it send permission requests)',
      captured: '1.18.33',
    },
  ],
  [
    'goose',
    {
      title: 'Goose',
      command: 'goose',
      args: ['acp'],
      // Unset, GOOSE_MODE is auto: every call approved.
      permissionEnv: { default: { GOOSE_MODE: 'approve' }, bypass: { GOOSE_MODE: 'auto' } },
    },
  ],
  ['crush', { title: 'Crush', command: 'crush', args: ['acp'] }],
  ['auggie', { title: 'Auggie', command: 'auggie', args: ['--acp'] }],
  ['cursor', { title: 'Cursor CLI', command: 'cursor-agent', args: ['acp'] }],
  [
    'codex',
    {
      title: "Codex (Zed's adapter, npm @zed-industries/codex-acp)",
      command: 'codex-acp',
      args: [],
      // Over whatever config.toml says: asks for what the read-only sandbox refuses.
      permissions: {
        default: ['-c', 'approval_policy="on-request"', '-c', 'sandbox_mode="read-only"'],
        bypass: ['-c', 'approval_policy="never"', '-c', 'sandbox_mode="danger-full-access"'],
      },
      setup:
        '~/.codex/config.toml (or CODEX_HOME): model provider, approval_policy (untrusted makes it send permission ' +
        'requests), sandbox_mode; the provider key in its env_key variable, or OPENAI_API_KEY / CODEX_API_KEY',
      captured: '0.16.0',
    },
  ],
]);

/**
 * An acp run's options with its command line filled in from the `agent` preset (the caller's
 * `command` replaces the preset's program, the caller's `extraArgs` and `args` follow the
 * preset's) and its working directory made absolute, as `session/new` requires.
 */
export function launch<Options extends LaunchOptions & AcpOptions>(options: Options): Options & LaunchOptions {
  const preset = options.agent === undefined ? undefined : acpAgents.get(options.agent);
  if (options.agent !== undefined && preset === undefined) {
    throw new TypeError(
      `acp: unknown agent "${options.agent}" (known: ${[...acpAgents.keys()].join(', ')}); run any other with ` +
        `command and args`,
    );
  }
  const command = options.command ?? preset?.command;
  if (command === undefined) throw new TypeError('acp: an agent (a known one) or a command is required');
  const launched = { ...options, command, cwd: resolve(options.cwd ?? process.cwd()) };
  const settings = acpSettings(launched);
  // Asking needs what makes the agent send its requests, as by default.
  const permissions = settings.permissions === 'ask' ? 'default' : settings.permissions;
  const presetArgs = preset === undefined ? [] : [...preset.args, ...(preset.permissions?.[permissions] ?? [])];
  const env = preset?.permissionEnv?.[permissions];
  return {
    ...launched,
    args: [...presetArgs, ...(options.extraArgs ?? []), ...(options.args ?? [])],
    ...(env === undefined ? {} : { env: { ...options.env, ...env } }),
  };
}
