/** `harness-events report` as users run it: the built CLI, real captures, the files it writes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { fixturePath } from '../../helpers.js';
import { harnessEvents } from '../../cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Checked by hand against claude-code/lab/read.jsonl: its result record (613 ms, 480 + 100 tokens,
// $0.00392, 4 turns), three reads of which missing.txt failed, three agent messages.
const readMarkdown = `### Run report: claude-code

| | |
|---|---|
| Outcome | succeeded |
| Harness | claude-code |
| Session | \`02d16f6d-0bf7-4aa4-bbd8-ba2366e57ce9\` |
| Duration | 613ms |
| Tokens | 480 input · 100 output · 0 cache read · 0 cache write · 0 reasoning |
| Cost | $0.0039 |
| Turns | 4 |
| Events | 6 (3 agent, 3 read) |

#### Files: 2 read, 0 written

| File | Reads | Writes | Failed |
|---|--:|--:|--:|
| \`README.md\` | 1 | 0 | 0 |
| \`missing.txt\` | 0 | 0 | 1 |
| \`notes.txt\` | 1 | 0 | 0 |

#### Commands: 0 run, 0 failed

None.

#### Failures and warnings: 1

- ◂ read missing.txt · failed
`;

describe('harness-events report', { timeout: 60_000 }, () => {
  test('--format md from the raw capture (--harness): the Markdown summary, exactly', async () => {
    const result = await harnessEvents([
      'report',
      '--harness',
      'claude-code',
      '--cwd',
      '/home/user/project',
      '--format',
      'md',
      fixturePath('claude-code/lab/read.jsonl'),
    ]);
    expect(result).toEqual({ code: 0, stderr: '', stdout: readMarkdown });
  });

  test('the same from the normalized events and the metrics file normalize wrote', async () => {
    const metrics = join(tmp, 'read.metrics.json');
    const normalized = await harnessEvents([
      'normalize',
      '--harness',
      'claude-code',
      '--metrics',
      metrics,
      fixturePath('claude-code/lab/read.jsonl'),
    ]);
    const events = join(tmp, 'read.events.jsonl');
    writeFileSync(events, normalized.stdout);
    const output = join(tmp, 'read.md');
    expect(
      await harnessEvents([
        'report',
        '--metrics',
        metrics,
        '--cwd',
        '/home/user/project',
        '--format',
        'md',
        '-o',
        output,
        events,
      ]),
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(output, 'utf8')).toBe(readMarkdown);
  });

  test("HTML by default: one file, no reference to anything outside it, the run's text escaped", async () => {
    const events = join(tmp, 'hostile.jsonl');
    const message = '</pre><script>alert(1)</script><img src="https://example.com/x.png">';
    writeFileSync(
      events,
      JSON.stringify({ type: 'agent', timestamp: '2026-11-30T03:00:00.000Z', session_id: 's"><b>', message }) + '\n',
    );
    const output = join(tmp, 'hostile.html');
    expect(await harnessEvents(['report', events, '-o', output])).toEqual({ code: 0, stdout: '', stderr: '' });
    const html = readFileSync(output, 'utf8');
    expect(html.startsWith('<!doctype html>\n')).toBe(true);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain(
      '● &lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=&quot;https://example.com/x.png&quot;&gt;',
    );
    // Every link is to a place in the page; nothing is loaded from anywhere.
    expect([...html.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((match) => match[1]!.startsWith('#'))).not.toContain(
      false,
    );
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`);
  });

  test(
    'usage errors exit 2: --metrics with --harness, a file that is not metrics, a format report does not write, ' +
      'a view option',
    async () => {
      const bad = join(tmp, 'bad-metrics.json');
      writeFileSync(bad, '{"harness":"claude-code"}');
      const cases: [string[], string][] = [
        [
          ['report', '--harness', 'claude-code', '--metrics', bad],
          'harness-events: --metrics reads the metrics of normalized events; with --harness they come from the input ' +
            'itself\n',
        ],
        [
          ['report', '--metrics', bad],
          `harness-events: ${bad} is not run metrics: metrics must have required property 'tokens'\n`,
        ],
        [
          ['report', '--metrics', join(tmp, 'none.json')],
          `harness-events: cannot read ${join(tmp, 'none.json')}: ENOENT\n`,
        ],
        [['report', '--format', 'pretty'], 'harness-events: --format takes html or md, got "pretty"\n'],
        [['report', '--color'], 'harness-events: report does not take --color (see harness-events --help)\n'],
      ];
      const results = await Promise.all(cases.map(([args]) => harnessEvents(args)));
      expect(results).toEqual(cases.map(([, stderr]) => ({ code: 2, stdout: '', stderr })));
    },
  );
});
