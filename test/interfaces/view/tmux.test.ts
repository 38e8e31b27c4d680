/**
 * The live view as a person sees it: the CLI typed into bash in a real terminal (tmux), fed by
 * a real capture that a replay prints step by step, on the test's word (a handshake over a Unix
 * socket, no sleeps), and the screen read back after each step: the events, the status line
 * under them and its updates, wrapped text, colors, and no escape sequence left visible.
 *
 * HARNESS_EVENTS_DOCS_IMAGES=1 also writes the screen capture to docs/images/view.svg.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fixturePath, onPath } from '../../helpers.js';
import { bin } from '../../cli.js';
import { readJsonlLines } from './fixtures.js';
import { screenSvg } from './screen-svg.js';
import { ReplayControl, Terminal, tmuxVersion } from './terminal.js';

const stepped = new URL('../../children/stepped-replay.mjs', import.meta.url).pathname;
const docsImages = new URL('../../../docs/images/', import.meta.url).pathname;

let dir: string;
let terminal: Terminal | undefined;
let control: ReplayControl;

beforeEach(async () => {
  tmuxVersion();
  dir = mkdtempSync(join(tmpdir(), 'harness-events-tmux-'));
  // What the person types: `harness-events ...`, and `replay <capture>` standing in for the agent.
  onPath(dir, 'harness-events', `exec "${process.execPath}" "${bin}" "$@"`);
  control = new ReplayControl(dir);
  onPath(dir, 'replay', `exec "${process.execPath}" "${stepped}" "${fixturePath('')}$1" "${control.path}"`);
  await control.listen();
});

afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  await control.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The status line: there is at most one on the screen, and it is the last line written. */
function status(screen: string[]): string | undefined {
  const lines = screen.filter((line) => line.startsWith('◷ '));
  expect(lines.length, screen.join('\n')).toBeLessThanOrEqual(1);
  if (lines.length === 1) expect(screen.at(-1), screen.join('\n')).toBe(lines[0]);
  return lines[0];
}

/**
 * An escape sequence the terminal did not take (a lost ESC, a sequence cut in two) shows as text like `[2K` or
 * `?2026h`.
 */
function expectNoEscapeGarbage(screen: string[]): void {
  for (const line of screen) expect(line, screen.join('\n')).not.toMatch(/\x1b|\[\??[0-9;]*[A-HJKSTfhlm]/);
}

/** The screen once `text` is on it and the status line says `figure`. */
async function waitForEvent(text: string, figure: string): Promise<string[]> {
  return terminal!.waitFor(`"${text}" with "${figure}" in the status line`, (screen) =>
    screen.includes(text) && status(screen)?.includes(figure) ? screen : undefined,
  );
}

describe('the live view in a real terminal (tmux)', { timeout: 120_000 }, () => {
  test(
    'normalize --format pretty on a live stream: events as they come, the status line updated under them, text ' +
      'wrapped, colors',
    async () => {
      terminal = new Terminal(dir, 60, 20);
      await terminal.type(
        'replay claude-code/lab/read.jsonl | harness-events normalize --harness claude-code --cwd /home/user/project ' +
          '--format pretty',
      );
      await control.ready();

      // Line 1 is the session's init, line 2 the first text: shown once the agent pauses.
      await control.step(2);
      let screen = await waitForEvent("● I'll start by reading the README.", '0 files read');
      expect(status(screen)).toMatch(/^◷ [\d.]+m?s · 0 files read · 0 written · 0 commands failed$/);

      await control.step(2);
      await waitForEvent('◂ read README.md', '1 file read');
      await control.step(3);
      await waitForEvent('◂ read notes.txt:3-6', '2 files read');
      await control.step(2);
      screen = await waitForEvent('◂ read missing.txt · failed', '2 files read');
      expectNoEscapeGarbage(screen);

      const colored = await terminal.screenWithColors();
      expect(colored.find((line) => line.includes('read README.md'))).toContain('\x1b[34m◂');
      expect(colored.find((line) => line.includes('missing.txt'))).toMatch(/\x1b\[31m.*read missing\.txt · failed/);

      // The closing message, wrapped at word boundaries to the pane's 60 columns.
      await control.step(1);
      screen = await terminal.waitFor('the wrapped message', (lines) =>
        lines.includes('  zeta, and missing.txt does not exist.') ? lines : undefined,
      );
      const at = screen.indexOf('● The README says hello world, notes lines 3-6 are gamma to');
      expect(screen[at + 1]).toBe('  zeta, and missing.txt does not exist.');

      // While the agent is quiet the clock in the status line still moves.
      const before = status(screen)!;
      await terminal.waitFor('the elapsed time to change', (lines) => {
        const now = status(lines);
        return now !== undefined && now !== before ? now : undefined;
      });
      screen = await terminal.screen();
      expectNoEscapeGarbage(screen);
      const capture = screenSvg(await terminal.screenWithColors(), terminal.width);
      writeFileSync(join(dir, 'view.svg'), capture);
      if (process.env.HARNESS_EVENTS_DOCS_IMAGES === '1') {
        mkdirSync(docsImages, { recursive: true });
        writeFileSync(join(docsImages, 'view.svg'), capture);
      }
      // 60 columns by the 11 lines on the screen: the command line (3), 7 of events, the status line.
      expect(readFileSync(join(dir, 'view.svg'), 'utf8')).toMatch(/^<svg [^>]*width="528" height="222"/);

      // The result record, then the replay exits: the status line gives way to the summary and the prompt comes back.
      await control.step('rest');
      control.end();
      screen = await terminal.waitFor('the summary and the prompt', (lines) =>
        lines.at(-1) === '$' && lines.at(-3)?.startsWith('■') ? lines : undefined,
      );
      const output = screen.slice(screen.findIndex((line) => line.startsWith('● ')));
      expect(output).toEqual([
        ...readJsonlLines.slice(0, 5),
        '● The README says hello world, notes lines 3-6 are gamma to',
        '  zeta, and missing.txt does not exist.',
        '■ 6 events in 613ms · 580 tokens · $0.0039 · 2 files read ·',
        '0 written · 0 commands failed',
        '$',
      ]);
      expectNoEscapeGarbage(screen);
    },
  );

  test(
    'run --format pretty: tokens and cost in the ' + 'status line grow with each step; a failed command counted',
    async () => {
      terminal = new Terminal(dir, 100, 30);
      await terminal.type('harness-events run --harness opencode --format pretty -- replay opencode/lab/shell.jsonl');
      await control.ready();
      // Each step of this OpenCode run is three lines: step_start, the tool call, step_finish (with its tokens).
      await control.step(3);
      await waitForEvent('◂ read README.md', '1,240 tokens · $0.0000 · 1 file read');
      await control.step(3);
      await waitForEvent('◂ read notes.txt:2-4', '2,480 tokens · $0.0000 · 2 files read');
      for (let step = 3; step <= 6; step++) await control.step(3);
      const screen = await waitForEvent(
        '$ false · exit 1',
        '7,440 tokens · $0.0000 · 3 files read · 0 written · 1 command failed',
      );
      expectNoEscapeGarbage(screen);
      expect((await terminal.screenWithColors()).find((line) => line.includes('false · exit 1'))).toMatch(/\x1b\[31m/);
      await control.step('rest');
      control.end();
      const final = await terminal.waitFor('the summary and the prompt', (lines) =>
        lines.at(-1) === '$' && lines.at(-2)?.startsWith('■') ? lines : undefined,
      );
      expect(final.at(-2)).toMatch(
        /^■ 18 events in [\d.]+m?s · 11,160 tokens · \$0\.0000 · 3 files read · 0 written · 1 command failed$/,
      );
      expect(final.filter((line) => line.startsWith('◷'))).toEqual([]);
    },
  );

  test('run | view with NO_COLOR: the status line in view, no color at all', async () => {
    terminal = new Terminal(dir, 80, 24, { NO_COLOR: '1' });
    await terminal.type(
      'harness-events run --harness claude-code -- replay claude-code/lab/read.jsonl | harness-events view --cwd ' +
        '/home/user/project',
    );
    await control.ready();
    await control.step(4);
    await waitForEvent('◂ read README.md', '1 file read');
    for (const line of await terminal.screenWithColors()) expect(line).not.toMatch(/\x1b\[[0-9;]*[1-9][0-9;]*m/);
    await control.step('rest');
    control.end();
    const screen = await terminal.waitFor('the summary and the prompt', (lines) =>
      lines.at(-1) === '$' && lines.at(-2)?.startsWith('■') ? lines : undefined,
    );
    expect(screen.slice(-5)).toEqual([
      '◂ read missing.txt · failed',
      '● The README says hello world, notes lines 3-6 are gamma to zeta, and',
      '  missing.txt does not exist.',
      expect.stringMatching(/^■ 6 events in [\d.]+m?s · 2 files read · 0 written · 0 commands failed$/),
      '$',
    ]);
    expectNoEscapeGarbage(screen);
  });

  test('escape sequences inside an agent message are shown, not obeyed', async () => {
    terminal = new Terminal(dir, 80, 24);
    const event = { type: 'agent', timestamp: '2026-01-01T00:00:00.000Z', message: 'before\x1b[2J\x1b[H\x1b[31mafter' };
    writeFileSync(join(dir, 'hostile.jsonl'), JSON.stringify(event) + '\n');
    await terminal.type('harness-events view hostile.jsonl');
    const screen = await terminal.waitFor('the summary and the prompt', (lines) =>
      lines.at(-1) === '$' && lines.at(-2)?.startsWith('■') ? lines : undefined,
    );
    expect(screen[0]).toBe('$ harness-events view hostile.jsonl');
    expect(screen[1]).toBe('● before␛[2J␛[H␛[31mafter');
    expect((await terminal.screenWithColors())[1]).not.toContain('\x1b[31m');
  });
});
