/**
 * The agent CLIs the live suite runs: the npm package, the version the suite is pinned to, and
 * where the executable lands inside the install folder (linux-x64). Each is installed into a
 * cache folder of its own (live/install.ts), never into the package's dependencies.
 */
export interface Cli {
  /** The install's name in the suite's messages. */
  readonly id: string;
  readonly pkg: string;
  /** The version `npm run test:live` runs; `LIVE_VERSIONS=latest` takes the registry's newest instead. */
  readonly pinned: string;
  /** The executable, relative to the install folder; a `.js` file runs with this Node. */
  readonly bin: string;
  /** The package holding the binary, when it is not `pkg` itself: its version must exist too. */
  readonly platformPkg?: string;
  /**
   * The environment variable naming where the CLI unpacks itself on its first start (Copilot:
   * 5 to 9 s): it points into the install folder, the install runs `--version` once to unpack,
   * and every run reuses it instead of unpacking into its fresh HOME.
   */
  readonly unpackEnv?: string;
}

export const clis: readonly Cli[] = [
  {
    id: 'claude',
    pkg: '@anthropic-ai/claude-code',
    pinned: '2.1.328',
    platformPkg: '@anthropic-ai/claude-code-linux-x64',
    bin: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude',
  },
  {
    id: 'codex',
    pkg: '@openai/codex',
    pinned: '0.169.0',
    bin: 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex',
  },
  {
    id: 'opencode',
    pkg: 'opencode-ai',
    pinned: '1.18.33',
    platformPkg: 'opencode-linux-x64',
    bin: 'node_modules/opencode-linux-x64/bin/opencode',
  },
  {
    id: 'gemini',
    pkg: '@google/gemini-cli',
    pinned: '0.61.0',
    bin: 'node_modules/@google/gemini-cli/bundle/gemini.js',
  },
  { id: 'qwen', pkg: '@qwen-code/qwen-code', pinned: '0.24.4', bin: 'node_modules/@qwen-code/qwen-code/cli.js' },
  {
    id: 'pi',
    pkg: '@mariozechner/pi-coding-agent',
    pinned: '0.73.1',
    bin: 'node_modules/@mariozechner/pi-coding-agent/dist/cli.js',
  },
  {
    id: 'copilot',
    pkg: '@github/copilot',
    pinned: '1.0.102',
    platformPkg: '@github/copilot-linux-x64',
    bin: 'node_modules/@github/copilot-linux-x64/copilot',
    unpackEnv: 'COPILOT_PKG_CACHE_HOME',
  },
  // Kilo's newest wrapper (7.8.1) needs @kilocode/cli-linux-x64@7.8.1, which the registry does not
  // have: 7.7.7 is the version whose binary installs (and the one the lab captured).
  {
    id: 'kilo',
    pkg: '@kilocode/cli',
    pinned: '7.7.7',
    platformPkg: '@kilocode/cli-linux-x64',
    bin: 'node_modules/@kilocode/cli-linux-x64/bin/kilo',
  },
  // ACP adapters: Zed's for Claude Code (the agent SDK inside it bundles Claude Code) and for Codex (a binary).
  {
    id: 'claude-agent-acp',
    pkg: '@zed-industries/claude-agent-acp',
    pinned: '0.23.1',
    bin: 'node_modules/@zed-industries/claude-agent-acp/dist/index.js',
  },
  {
    id: 'codex-acp',
    pkg: '@zed-industries/codex-acp',
    pinned: '0.16.0',
    platformPkg: '@zed-industries/codex-acp-linux-x64',
    bin: 'node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp',
  },
  // The npm `cline` script only picks this Bun-compiled binary (it needs no Node of its own).
  {
    id: 'cline',
    pkg: 'cline',
    pinned: '3.0.65',
    platformPkg: '@cline/cli-linux-x64',
    bin: 'node_modules/@cline/cli-linux-x64/bin/cline',
  },
];
