/**
 * How each agent CLI is run offline against the scripted model: its command line, the
 * environment and config files that point it at the loopback server and switch off updates,
 * telemetry and every other request, the wire protocol it then speaks, and the requests it makes
 * besides the conversation itself. One row per way of running a CLI (the same CLI through ACP is
 * a row of its own). The facts are the lab's (../shared/fixtures/<harness>/lab/LAB.md and
 * research/<harness>.md); issue 21 lifts these rows into the library's argument builders.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Conversation } from '../testing/index.js';
import type { ProtocolName } from '../testing/protocols/protocol.js';
import type { Place } from './workspace.js';

export interface Launch {
  /** Arguments after the executable. */
  args: string[];
  /** The environment besides the base one (PATH, HOME, LANG, SHELL, TERM). */
  env: Record<string, string>;
  /** An ACP agent: the suite is its client on stdin/stdout. */
  acp?: boolean;
}

export interface LaunchInput {
  place: Place;
  /** The scripted model's origin, `http://127.0.0.1:PORT`. */
  url: string;
  prompt: string;
  /** The scenario's own extra arguments, placed before the prompt. */
  args: readonly string[];
}

export interface LiveHarness {
  /** The row's name in the suite (`copilot-acp`). */
  id: string;
  /** The library harness that normalizes its output. */
  harness: string;
  /** The CLI of live/clis.ts it runs. */
  cli: string;
  protocol: ProtocolName;
  /** Writes the config files and returns the command line and environment. */
  launch(input: LaunchInput): Launch;
  /** Requests the CLI makes besides the scenario's conversation, and their answers. */
  side?: readonly Conversation[];
  /** Programs the CLI's tools need on PATH: without them the row is skipped, with a message. */
  needs?: readonly string[];
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
        models: { 'fake-model': { name: 'Fake Model', tool_call: true, reasoning: true, attachment: false, limit: { context: 128000, output: 8192 } } },
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

function qwenSettings(place: Place): void {
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
}

const qwenEnv = (url: string) => ({
  OPENAI_API_KEY: FAKE_KEY,
  OPENAI_BASE_URL: `${url}/v1`,
  OPENAI_MODEL: 'fake-model',
  QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
});

export const liveHarnesses: readonly LiveHarness[] = [
  {
    id: 'claude-code',
    harness: 'claude-code',
    cli: 'claude',
    protocol: 'anthropic',
    launch: ({ url, prompt, args }) => ({
      args: ['--print', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', ...args, prompt],
      env: {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: FAKE_KEY,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        // Root (CI) may use --dangerously-skip-permissions only in a declared sandbox.
        IS_SANDBOX: '1',
      },
    }),
  },
  {
    id: 'codex',
    harness: 'codex',
    cli: 'codex',
    protocol: 'responses',
    launch: ({ place, url, prompt, args }) => {
      const codexHome = join(place.home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          'model = "gpt-5.5"',
          'model_provider = "lab"',
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
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
      return { args: ['exec', '--json', ...args, prompt], env: { CODEX_HOME: codexHome, LAB_API_KEY: FAKE_KEY } };
    },
  },
  {
    id: 'opencode',
    harness: 'opencode',
    cli: 'opencode',
    protocol: 'chat',
    needs: ['rg'],
    launch: ({ place, url, prompt, args }) => {
      writeJson(place.path('opencode.json'), openaiCompatibleProject(url));
      return {
        args: ['run', '--format', 'json', ...args, prompt],
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
    side: [{ name: 'title', match: { system: 'title generator' }, reply: { text: 'Lab session' } }],
  },
  {
    id: 'gemini',
    harness: 'gemini',
    cli: 'gemini',
    protocol: 'gemini',
    launch: ({ place, url, prompt, args }) => {
      writeJson(join(place.home, '.gemini', 'settings.json'), {
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        ide: { enabled: false },
        model: { name: 'gemini-2.5-flash' },
      });
      return {
        args: ['-p', prompt, '--output-format', 'stream-json', '--yolo', ...args],
        env: { GEMINI_API_KEY: FAKE_KEY, GOOGLE_GEMINI_BASE_URL: url },
      };
    },
  },
  {
    id: 'qwen',
    harness: 'qwen',
    cli: 'qwen',
    protocol: 'chat',
    launch: ({ place, url, prompt, args }) => {
      qwenSettings(place);
      return { args: ['--auth-type', 'openai', '--approval-mode', 'yolo', '--output-format', 'stream-json', ...args, prompt], env: qwenEnv(url) };
    },
  },
  {
    id: 'pi',
    harness: 'pi',
    cli: 'pi',
    protocol: 'chat',
    needs: ['rg'],
    launch: ({ place, url, prompt, args }) => {
      writeJson(join(place.home, '.pi', 'agent', 'models.json'), {
        providers: {
          lab: { baseUrl: `${url}/v1`, api: 'openai-completions', apiKey: FAKE_KEY, models: [{ id: 'fake-model', reasoning: true }] },
        },
      });
      return {
        args: ['--mode', 'json', '--provider', 'lab', '--model', 'fake-model', ...args, prompt],
        env: { PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
      };
    },
  },
  {
    id: 'copilot',
    harness: 'copilot',
    cli: 'copilot',
    protocol: 'chat',
    launch: ({ url, prompt, args }) => ({
      args: ['-p', prompt, '--output-format', 'json', '--allow-all-tools', '--no-auto-update', '--no-color', ...args],
      env: copilotEnv(url),
    }),
  },
  {
    id: 'kilo',
    harness: 'kilo',
    cli: 'kilo',
    protocol: 'chat',
    needs: ['rg'],
    launch: ({ place, url, prompt, args }) => {
      // Only the lab provider: Kilo's own gateway provider would fetch its model list from its API.
      writeJson(place.path('kilo.json'), openaiCompatibleProject(url, { $schema: 'https://app.kilo.ai/config.json', enabled_providers: ['lab'] }));
      return {
        args: ['run', '--format', 'json', '--auto', ...args, prompt],
        env: {
          ...openaiCompatibleSetup(place, url, 'kilo'),
          ...Object.fromEntries(
            ['MODELS_FETCH', 'AUTOUPDATE', 'DEFAULT_PLUGINS', 'LSP_DOWNLOAD', 'SHARE', 'CODEBASE_INDEXING', 'SESSION_INGEST', 'PRESENCE', 'CHANNEL_DB'].map((name) => [`KILO_DISABLE_${name}`, 'true']),
          ),
          // PostHog telemetry is on unless this says otherwise ("all" is the only level that sends).
          KILO_TELEMETRY_LEVEL: 'off',
        },
      };
    },
    side: [{ name: 'title', match: { system: 'title generator' }, reply: { text: 'Lab session' } }],
  },
  {
    id: 'copilot-acp',
    harness: 'acp',
    cli: 'copilot',
    protocol: 'chat',
    launch: ({ url, args }) => ({ args: ['--acp', '--allow-all-tools', '--no-auto-update', ...args], env: copilotEnv(url), acp: true }),
  },
  {
    id: 'qwen-acp',
    harness: 'acp',
    cli: 'qwen',
    protocol: 'chat',
    launch: ({ place, url, args }) => {
      qwenSettings(place);
      return { args: ['--acp', '--auth-type', 'openai', '--approval-mode', 'yolo', ...args], env: qwenEnv(url), acp: true };
    },
  },
];
