/**
 * Issue 30 item 7: values from the run cannot forge Markdown (headings, an HTML comment hiding the tables, links), and
 * bidi and zero-width characters are shown, in the Markdown and HTML reports and in the view.
 */
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { buildReport, reportHtml, reportHtmlChunks, reportMarkdown } from '../../../lib/interfaces/report/index.js';
import { formatEvent } from '../../../lib/interfaces/view/format.js';
import picocolors from 'picocolors';

const at = '2026-12-01T00:00:00.000Z';
const forged = 'notes.txt\n\n## All checks passed\n\n<!--';
const events: HarnessEvent[] = [
  { type: 'read', timestamp: at, session_id: 's1\n\n# Forged session', path: `/ws/${forged}`, is_success: true },
  {
    type: 'command',
    timestamp: at,
    command: 'echo a\r## Forged by CR\u2028## by LS [x](https://evil.example)',
    exit_code: 1,
    is_success: false,
  },
  { type: 'error', timestamp: at, code: 'x', message: 'bad\r\n\r\n<!-- hidden\r## Forged failure' },
  { type: 'agent', timestamp: at, message: 'the \u202eevil\u202c file\u200b' },
];

describe('issue 30 item 7: Markdown made inert', () => {
  const markdown = reportMarkdown(buildReport(events, { cwd: '/ws' }));
  const lines = markdown.split('\n');

  test("the only headings are the report's own, and no line opens HTML", () => {
    expect(lines.filter((line) => line.startsWith('#'))).toEqual([
      '### Run report',
      '#### Files: 1 read, 0 written',
      '#### Commands: 1 run, 1 failed',
      '#### Failures and warnings: 2',
    ]);
    expect(lines.filter((line) => /^\s*</.test(line))).toEqual([]);
  });

  test('each value stays in its cell or item, on its line, its line breaks shown', () => {
    expect(lines).toContain('| Session | `s1 ⏎  ⏎ # Forged session` |');
    expect(lines).toContain('| `notes.txt ⏎  ⏎ ## All checks passed ⏎  ⏎ <!--` | 1 | 0 | 0 |');
    expect(lines).toContain('| `echo a ⏎ ## Forged by CR ⏎ ## by LS [x](https://evil.example)` | **1** |');
    expect(lines.filter((line) => line.startsWith('- '))).toEqual([
      '- $ echo a␍## Forged by CR ## by LS \\[x\\](https://evil.example) · exit 1',
      '- ✖ x: bad \\<!-- hidden␍## Forged failure',
    ]);
  });
});

describe('issue 30 item 7: bidi and zero-width characters shown', () => {
  const shown = 'the ⟨U+202E⟩evil⟨U+202C⟩ file⟨U+200B⟩';
  test('the view', () => {
    const colors = picocolors.createColors(false);
    expect(formatEvent(events[3]!, { colors, cwd: '/ws' }).join('\n')).toContain(shown);
  });
  test('the HTML report', () => {
    expect(reportHtml(buildReport(events, { cwd: '/ws' }))).toContain(shown);
  });
  test('the Markdown report', () => {
    expect(
      reportMarkdown(
        buildReport([{ type: 'error', timestamp: at, code: 'x', message: 'the \u202eevil\u202c file\u200b' }]),
      ),
    ).toContain(`- ✖ x: ${shown}`);
  });
});

describe('issue 30 item 12: the report caps what it embeds per event, and is written in pieces', () => {
  const big = 'w'.repeat(1_000_000);
  const warnings: HarnessEvent[] = Array.from({ length: 3 }, () => ({
    type: 'warning',
    timestamp: at,
    code: 'stderr',
    message: big,
  }));
  const report = buildReport(warnings);

  test(
    'HTML: each 1 MB warning embedded as 20,000 characters and a note ' + '(list, events, JSON), 200 on the timeline',
    () => {
      const html = reportHtml(report);
      // Its text is "stderr: " and the million characters; its JSON, 2-space indented, 1,000,103.
      const text = '\n… 980,010 more characters (the JSONL has the whole event)';
      const json = '\n… 980,103 more characters (the JSONL has the whole event)';
      expect([html.split(text).length - 1, html.split(json).length - 1]).toEqual([6, 3]);
      // A timeline mark's hover label: the text's first 200 characters.
      const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]!);
      expect(titles.filter((title) => title.startsWith('! stderr: ')).map((title) => title.length)).toEqual([
        201, 201, 201,
      ]);
      expect(html.length).toBeLessThan(300_000);
    },
  );

  test('HTML: one piece per event at least, joined the same', () => {
    const chunks = [...reportHtmlChunks(report)];
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.join('')).toBe(reportHtml(report));
  });

  test('Markdown: each cut at 2,000 characters', () => {
    const items = reportMarkdown(report)
      .split('\n')
      .filter((line) => line.startsWith('- '));
    expect(items.map((line) => line.length)).toEqual([2002, 2002, 2002]);
    expect(items.every((line) => line.endsWith('w…'))).toBe(true);
  });
});
