/**
 * How each agent CLI is run offline against the scripted model. The command line is the
 * library's, as users get it (`spawnHarness({ harness, prompt, model, extraArgs })`:
 * lib/runtime/command-lines.ts, and acp's agent presets); what this file adds is the suite's own
 * business, `offline`: what points the CLI at the scripted model instead of its vendor and keeps
 * it off the network (the environment, the config files written into the run's HOME or
 * workspace, the arguments that pick the scripted provider).
 *
 * Then the rows: one per way of running a CLI (the same CLI through ACP is a row of its own),
 * with the wire protocol it speaks and the requests it makes besides the conversation. The facts
 * are the lab's (test/fixtures/<harness>/lab/LAB.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AcpRunOptions, HarnessName } from '../lib/index.js';
import type { Permissions } from '../lib/kernel/permissions.js';
import type { Conversation } from '../lib/testing/index.js';
import type { ProtocolName } from '../lib/testing/protocols/protocol.js';
import type { Place } from './workspace.js';

/** The rows, by id. */
export type RowId =
  | 'claude-code'
  | 'codex'
  | 'opencode'
  | 'gemini'
  | 'qwen'
  | 'pi'
  | 'copilot'
  | 'kilo'
  | 'copilot-acp'
  | 'qwen-acp'
  | 'claude-acp'
  | 'codex-acp'
  | 'opencode-acp'
  | 'gemini-acp'
  | 'kilo-acp'
  | 'cline';

// ---------------------------------------------------------------------------------------------
// offline: the scripted model instead of the vendor's, and nothing else on the network

export interface Offline {
  /** The environment besides the base one (PATH, HOME, LANG, SHELL, TERM, TMPDIR). */
  env: Record<string, string>;
  /**
   * Arguments that pick the scripted provider (or switch off what no flag-free setting does); they go first among
   * `extraArgs`.
   */
  args?: string[];
  /** The model the scripted provider is asked for, when the command line must name it. */
  model?: string;
}

const FAKE_KEY = 'fake-key-not-real';

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
}

/** OpenCode and its fork Kilo read the same provider config: the OpenAI-compatible lab provider. */
function openaiCompatibleProject(url: string, extra: Record<string, unknown> = {}) {
  return {
    provider: {
      lab: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Lab',
        options: { baseURL: `${url}/v1`, apiKey: FAKE_KEY },
        models: {
          'fake-model': {
            name: 'Fake Model',
            tool_call: true,
            reasoning: true,
            attachment: false,
            limit: { context: 128000, output: 8192 },
          },
        },
      },
    },
    model: 'lab/fake-model',
    small_model: 'lab/fake-model',
    autoupdate: false,
    share: 'disabled',
    permission: { edit: 'allow', bash: 'allow', webfetch: 'deny' },
    ...extra,
  };
}

/**
 * OpenCode and Kilo `npm install` their plugin SDK into each config folder at startup unless the
 * folder's lock already lists it: a lock that does keeps them off the registry, and the registry
 * they would use is the scripted server, which refuses it loudly.
 */
function openaiCompatibleSetup(place: Place, url: string, configDir: string): Record<string, string> {
  const dir = join(place.home, '.config', configDir);
  const dependencies = { '@opencode-ai/plugin': '*' };
  writeJson(join(dir, 'package.json'), { dependencies });
  writeJson(join(dir, 'package-lock.json'), { lockfileVersion: 3, packages: { '': { dependencies } } });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  return { npm_config_registry: `${url}/npm-registry/` };
}

const copilotEnv = (url: string) => ({
  COPILOT_OFFLINE: 'true',
  COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
  COPILOT_PROVIDER_API_KEY: FAKE_KEY,
  COPILOT_MODEL: 'fake-model',
});

function qwenOffline(place: Place, url: string): Offline {
  writeJson(join(place.home, '.qwen', 'settings.json'), {
    security: { auth: { selectedType: 'openai' } },
    model: { name: 'fake-model' },
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    memory: { enableManagedAutoMemory: false },
    tools: { listDirectory: { enabled: true } },
    // After a task, Qwen asks the model for a follow-up suggestion (one more request) unless told not to.
    ui: { enableFollowupSuggestions: false },
  });
  return {
    env: {
      OPENAI_API_KEY: FAKE_KEY,
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_MODEL: 'fake-model',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    },
    args: ['--auth-type', 'openai'],
  };
}

export const offline: Readonly<Record<RowId, (place: Place, url: string) => Offline>> = {
  'claude-code': (_place, url) => ({
    env: {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: FAKE_KEY,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      IS_SANDBOX: '1',
    },
  }),
  codex: (place, url) => {
    const codexHome = join(place.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "lab"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.lab]',
        'name = "Lab"',
        `base_url = "${url}/v1"`,
        'env_key = "LAB_API_KEY"',
        'wire_api = "responses"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
        '[analytics]',
        'enabled = false',
        '',
        // Plugins sync the curated marketplace (github.com) and the ChatGPT app catalog at startup.
        '[features]',
        'plugins = false',
        '',
      ].join('\n'),
    );
    return { env: { CODEX_HOME: codexHome, LAB_API_KEY: FAKE_KEY } };
  },
  opencode: (place, url) => {
    // With its $schema: without one, OpenCode writes it into the file (a workspace change of its own).
    writeJson(
      place.path('opencode.json'),
      openaiCompatibleProject(url, { $schema: 'https://opencode.ai/config.json' }),
    );
    return {
      env: {
        ...openaiCompatibleSetup(place, url, 'opencode'),
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
      },
    };
  },
  gemini: (place, url) => {
    writeJson(join(place.home, '.gemini', 'settings.json'), {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false },
      model: { name: 'gemini-2.5-flash' },
    });
    return { env: { GEMINI_API_KEY: FAKE_KEY, GOOGLE_GEMINI_BASE_URL: url } };
  },
  qwen: qwenOffline,
  pi: (place, url) => {
    writeJson(join(place.home, '.pi', 'agent', 'models.json'), {
      providers: {
        lab: {
          baseUrl: `${url}/v1`,
          api: 'openai-completions',
          apiKey: FAKE_KEY,
          models: [{ id: 'fake-model', reasoning: true }],
        },
      },
    });
    return {
      env: { PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
      args: ['--provider', 'lab'],
      model: 'fake-model',
    };
  },
  copilot: (_place, url) => ({ env: copilotEnv(url), args: ['--no-auto-update'] }),
  kilo: (place, url) => {
    // Only the lab provider: Kilo's own gateway provider would fetch its model list from its API.
    writeJson(
      place.path('kilo.json'),
      openaiCompatibleProject(url, { $schema: 'https://app.kilo.ai/config.json', enabled_providers: ['lab'] }),
    );
    return {
      env: {
        ...openaiCompatibleSetup(place, url, 'kilo'),
        ...Object.fromEntries(
          [
            'MODELS_FETCH',
            'AUTOUPDATE',
            'DEFAULT_PLUGINS',
            'LSP_DOWNLOAD',
            'SHARE',
            'CODEBASE_INDEXING',
            'SESSION_INGEST',
            'PRESENCE',
            'CHANNEL_DB',
          ].map((name) => [`KILO_DISABLE_${name}`, 'true']),
        ),
        // PostHog telemetry is on unless this says otherwise ("all" is the only level that sends).
        KILO_TELEMETRY_LEVEL: 'off',
      },
    };
  },
  // What `cline auth -p openai-compatible -k KEY -m fake-model -b URL/v1` writes: the last
  // used provider is the run's. The library's launch adds the local session backend (no hub daemon).
  cline: (place, url) => {
    writeJson(join(place.home, '.cline', 'data', 'settings', 'providers.json'), {
      version: 1,
      lastUsedProvider: 'openai-compatible',
      modes: {},
      providers: {
        'openai-compatible': {
          settings: { provider: 'openai-compatible', apiKey: FAKE_KEY, model: 'fake-model', baseUrl: `${url}/v1` },
          updatedAt: '2026-12-01T00:00:00.000Z',
          tokenSource: 'manual',
        },
      },
    });
    return { env: {} };
  },
  // The ACP preset has --no-auto-update already.
  'copilot-acp': (_place, url) => ({ env: copilotEnv(url) }),
  'qwen-acp': qwenOffline,
  // The adapters run the CLI they wrap, configured as the CLI is.
  'claude-acp': (place, url) => offline['claude-code'](place, url),
  // codex-acp reads approval and sandbox from the config (no command line of Codex's): the lab's shell has no
  // bubblewrap, so the sandbox is off, and nothing asks.
  'codex-acp': (place, url) => {
    const setup = offline.codex(place, url);
    const config = join(setup.env.CODEX_HOME!, 'config.toml');
    writeFileSync(
      config,
      `approval_policy = "never"\nsandbox_mode = "danger-full-access"\n${readFileSync(config, 'utf8')}`,
    );
    return setup;
  },
  'opencode-acp': (place, url) => offline.opencode(place, url),
  'gemini-acp': (place, url) => offline.gemini(place, url),
  'kilo-acp': (place, url) => offline.kilo(place, url),
};

// ---------------------------------------------------------------------------------------------
// The rows

export interface LiveHarness {
  id: RowId;
  /** The library harness that starts it and normalizes its output. */
  harness: HarnessName;
  /** The CLI of live/clis.ts it runs. */
  cli: string;
  protocol: ProtocolName;
  /** An ACP agent: the library's client drives it, started from the preset of this name (acpAgents). */
  agent?: string;
  /** Requests the CLI makes besides the scenario's conversation, and their answers. */
  side?: readonly Conversation[];
  /** Programs the CLI's tools need on PATH: without them the row is skipped, with a message. */
  needs?: readonly string[];
}

/** OpenCode and Kilo name each session with a request of its own. */
const titleRequest: Conversation = {
  name: 'title',
  match: { system: 'title generator' },
  reply: { text: 'Lab session' },
};

export const liveHarnesses: readonly LiveHarness[] = [
  { id: 'claude-code', harness: 'claude-code', cli: 'claude', protocol: 'anthropic' },
  { id: 'codex', harness: 'codex', cli: 'codex', protocol: 'responses' },
  { id: 'opencode', harness: 'opencode', cli: 'opencode', protocol: 'chat', needs: ['rg'], side: [titleRequest] },
  { id: 'gemini', harness: 'gemini', cli: 'gemini', protocol: 'gemini' },
  { id: 'qwen', harness: 'qwen', cli: 'qwen', protocol: 'chat' },
  { id: 'pi', harness: 'pi', cli: 'pi', protocol: 'chat', needs: ['rg'] },
  { id: 'copilot', harness: 'copilot', cli: 'copilot', protocol: 'chat' },
  { id: 'kilo', harness: 'kilo', cli: 'kilo', protocol: 'chat', needs: ['rg'], side: [titleRequest] },
  { id: 'cline', harness: 'cline', cli: 'cline', protocol: 'chat' },
  { id: 'copilot-acp', harness: 'acp', cli: 'copilot', protocol: 'chat', agent: 'copilot' },
  { id: 'qwen-acp', harness: 'acp', cli: 'qwen', protocol: 'chat', agent: 'qwen' },
  { id: 'claude-acp', harness: 'acp', cli: 'claude-agent-acp', protocol: 'anthropic', agent: 'claude' },
  { id: 'codex-acp', harness: 'acp', cli: 'codex-acp', protocol: 'responses', agent: 'codex' },
  {
    id: 'opencode-acp',
    harness: 'acp',
    cli: 'opencode',
    protocol: 'chat',
    agent: 'opencode',
    needs: ['rg'],
    side: [titleRequest],
  },
  // Their presets' defaults only (the permissions issue): what each asks, on the real binary.
  { id: 'gemini-acp', harness: 'acp', cli: 'gemini', protocol: 'gemini', agent: 'gemini' },
  { id: 'kilo-acp', harness: 'acp', cli: 'kilo', protocol: 'chat', agent: 'kilo', needs: ['rg'], side: [titleRequest] },
];

/**
 * What a row's run adds to spawnHarness's options: every tool call approved, as the lab ran them (the library's
 * default approves nothing) unless the scenario says otherwise, its offline setup, written into the place, and the
 * scenario's arguments.
 */
export function launch(
  row: LiveHarness,
  place: Place,
  url: string,
  scenarioArgs: readonly string[] = [],
  permissions: Permissions = 'bypass',
): Pick<AcpRunOptions, 'agent' | 'model' | 'extraArgs' | 'permissions'> & { env: Record<string, string> } {
  const setup = offline[row.id](place, url);
  return {
    agent: row.agent,
    model: setup.model,
    extraArgs: [...(setup.args ?? []), ...scenarioArgs],
    permissions,
    env: setup.env,
  };
}
