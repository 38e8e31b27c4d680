/**
 * The HTML report in a real browser: Debian's Chromium, headless, driven by playwright-core,
 * opens a report built from a real capture replayed live (so its events have real times), and
 * the test reads the rendered page: a screenshot (its size, and that it is not blank), the
 * summary figures, the timeline's marks, the event filters, and that the page asked the
 * network for nothing. CI installs chromium (.ci/run); where it is missing each test says so
 * and is skipped.
 *
 * HARNESS_EVENTS_DOCS_IMAGES=1 also writes the screenshot to docs/images/report.png.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { spawnHarness } from '../../../lib/index.js';
import { buildReport, reportHtml } from '../../../lib/interfaces/report/index.js';
import { fixturePath, runFixture } from '../../helpers.js';
import { retimed } from '../view/fixtures.js';
import { savedTrace } from '../saved-trace.js';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(executablePath)
  ? undefined
  : `Chromium is not installed at ${executablePath} (apt-get install -y chromium): the browser tests are skipped`;
if (missing) console.warn(missing);
const docsImages = new URL('../../../docs/images/', import.meta.url).pathname;
const replay = new URL('../../children/replay.mjs', import.meta.url).pathname;
const cwd = '/Users/pmihaylov/prg/ccpg/cc1/ccbackend';

let browser: Browser | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harness-events-browser-'));
  if (missing) return;
  browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the report in a new page and records every request the page makes. */
async function open(html: string, name: string): Promise<{ page: Page; requests: string[] }> {
  const file = join(dir, name);
  writeFileSync(file, html);
  const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`file://${file}`);
  return { page, requests };
}

/** A PNG's size and how many different byte values its pixel data holds (1 or 2 for a blank image). */
function pngFacts(png: Buffer): { width: number; height: number; distinctBytes: number } {
  expect(png.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    distinctBytes: new Set(inflateSync(Buffer.concat(idat))).size,
  };
}

describe('the HTML report in headless Chromium', { timeout: 120_000 }, () => {
  test(
    'a real Claude Code session replayed live: summary figures, 86 timeline marks, filters, a screenshot; no ' +
      'request leaves the page',
    async ({ skip }) => {
      if (missing) return skip(missing);
      // The capture's 142 lines, 10 ms apart, through a real child process: events with real observation times.
      const run = spawnHarness({
        harness: 'claude-code',
        command: process.execPath,
        args: [replay, fixturePath('claude-code/ccagent-refactor-session.jsonl'), '10'],
        idleFlushMs: undefined,
      });
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      const { metrics } = await run.done;
      // The same events as the capture normalized at once: the replay changed only their times.
      const strip = (list: HarnessEvent[]) => list.map(({ timestamp: _timestamp, ...rest }) => rest);
      expect(strip(events)).toEqual(
        strip((await runFixture('claude-code/ccagent-refactor-session.jsonl', { harness: 'claude-code' })).events),
      );

      const { page, requests } = await open(reportHtml(buildReport(events, { metrics, cwd })), 'session.html');
      const figure = (name: string) => page.locator(`[data-figure="${name}"] dd`).textContent();
      // From the capture's result record: $2.4637935, 139 turns, 515,335 ms, its usage; the rest counted from its tool
      // calls.
      expect({
        harness: await figure('harness'),
        outcome: await figure('outcome'),
        exit: await figure('exit'),
        cost: await figure('cost'),
        turns: await figure('turns'),
        duration: await figure('duration'),
        input: await figure('tokens-input'),
        output: await figure('tokens-output'),
        cacheRead: await figure('tokens-cache_read'),
        cacheWrite: await figure('tokens-cache_write'),
        filesRead: await figure('files-read'),
        filesWritten: await figure('files-written'),
        commands: await figure('commands'),
        commandsFailed: await figure('commands-failed'),
        events: await figure('events'),
      }).toEqual({
        harness: 'claude-code',
        outcome: 'succeeded',
        exit: 'exit 0',
        cost: '$2.46',
        turns: '139',
        duration: '8m 35s',
        input: '193',
        output: '35,620',
        cacheRead: '4,940,732',
        cacheWrite: '118,318',
        filesRead: '9',
        filesWritten: '6',
        commands: '8',
        commandsFailed: '5',
        events: '86',
      });
      expect(await page.locator('#timeline .item').count()).toBe(86);
      expect(await page.locator('#timeline .lane text').allTextContents()).toEqual([
        'agent',
        'command',
        'read',
        'write',
        'search',
        'list',
        'unknown',
      ]);
      expect(await page.locator('#files tbody tr').count()).toBe(10);
      expect(await page.locator('#commands tbody tr.bad').count()).toBe(5);
      expect(await page.locator('#problems li').count()).toBe(7);

      // Filters: agent messages hidden and shown again; none; all.
      const visible = () => page.locator('#events li.event:visible').count();
      expect(await visible()).toBe(86);
      await page.getByRole('checkbox', { name: /^agent/ }).uncheck();
      expect(await visible()).toBe(86 - 33);
      expect(await page.locator('#shown').textContent()).toBe('53 of 86 shown');
      await page.getByRole('button', { name: 'none' }).click();
      expect(await visible()).toBe(0);
      // A timeline mark of a hidden type brings its type back and shows its event.
      await page.locator('#timeline .item[data-type="command"]').first().click();
      await expect.poll(() => page.locator('#events li.event[data-type="command"]:visible').count()).toBe(8);
      await page.getByRole('button', { name: 'all' }).click();
      expect(await visible()).toBe(86);

      await page.evaluate('window.scrollTo(0, 0)');
      const screenshot = await page.screenshot();
      const facts = pngFacts(screenshot);
      expect({ width: facts.width, height: facts.height }).toEqual({ width: 1200, height: 900 });
      expect(facts.distinctBytes).toBeGreaterThan(50);
      if (process.env.HARNESS_EVENTS_DOCS_IMAGES === '1') {
        mkdirSync(docsImages, { recursive: true });
        writeFileSync(join(docsImages, 'report.png'), screenshot);
      }
      const full = pngFacts(await page.screenshot({ fullPage: true }));
      expect(full.width).toBe(1200);
      expect(full.height).toBeGreaterThan(900);

      expect(requests).toEqual([`file://${join(dir, 'session.html')}`]);
      await page.close();
    },
  );

  test('a subagent drawn as one span between its start and end (Codex subagent.jsonl)', async ({ skip }) => {
    if (missing) return skip(missing);
    const { events } = await runFixture('codex/lab/subagent.jsonl', { harness: 'codex' });
    const { page } = await open(reportHtml(buildReport(retimed(events, 1000))), 'subagent.html');
    expect(await page.locator('#timeline .item').count()).toBe(4);
    const span = await page.locator('#timeline .item.span').boundingBox();
    const point = await page.locator('#timeline .item[data-type="agent"]').first().boundingBox();
    // The plot is 870 of the SVG's 1000 units; the span covers a quarter of it (217.5), a point 4.
    const ratio = span!.width / point!.width;
    expect(ratio).toBeGreaterThan(52);
    expect(ratio).toBeLessThan(57);
    await page.close();
  });

  test(
    "a trace: the subagent's lane under the run's, each call's bar as long as its duration, a click on it shows " +
      'its event (saved trace of claude-code/lab/subagent.jsonl)',
    async ({ skip }) => {
      if (missing) return skip(missing);
      const html = reportHtml(buildReport(savedTrace('claude-code-subagent'), { cwd: '/home/user/project' }));
      const { page, requests } = await open(html, 'trace.html');
      const tree = page.locator('#timeline svg').nth(1);
      expect(await tree.locator('.lane text').allTextContents()).toEqual(['claude-code', '  └ general-pur…']);
      expect(await tree.locator('text.took').allTextContents()).toEqual(['Agent 229ms', 'Read 42ms']);
      const agent = await tree.locator('rect.call').nth(0).boundingBox();
      const read = await tree.locator('rect.call').nth(1).boundingBox();
      // 229 ms and 42 ms of the same axis.
      expect(read!.width / agent!.width).toBeCloseTo(42 / 229, 2);
      expect(read!.y).toBeGreaterThan(agent!.y);
      await tree.locator('rect.call').nth(1).click();
      expect(new URL(page.url()).hash).toBe('#e2');
      expect(await page.locator('#events li:target .badge').textContent()).toBe('read · 42ms');
      expect(requests).toEqual([`file://${join(dir, 'trace.html')}`]);
      await page.close();
    },
  );
});
