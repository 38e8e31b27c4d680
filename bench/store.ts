/**
 * The SQLite page reader (OpenCode's and Kilo's stores) against the floor on the same file, in CPU time: a store of
 * BENCH_STORE_MB written by python3's sqlite3 and checkpointed (no WAL), then the same with a WAL of updates left
 * beside it, as a store is while its agent runs. What the reader pays per page for never giving a page a checkpoint
 * changed under it (docs/sessions.md) is the difference.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const write = `
import os, sqlite3, sys
path, mb, wal = sys.argv[1], int(sys.argv[2]), sys.argv[3] == 'wal'
db = sqlite3.connect(path)
db.execute('pragma journal_mode=wal')
db.execute('create table event(id integer primary key, data text)')
rows = mb * 1024 * 1024 // 320
for start in range(0, rows, 10000):
    end = min(rows, start + 10000)
    db.executemany('insert into event(data) values (?)', [('x' * 300 + str(i),) for i in range(start, end)])
    db.commit()
db.execute('pragma wal_checkpoint(TRUNCATE)')
if wal:
    db.execute('pragma wal_autocheckpoint=0')
    db.executemany('update event set data = ? where id = ?', [('y' * 300, i) for i in range(1, rows, 97)])
    db.commit()
    os._exit(0)  # the WAL stays, as beside a running agent
db.close()
`;

export interface StoreRow {
  store: 'checkpointed' | 'with WAL';
  mb: number;
  cpuMs: number;
  floorCpuMs: number;
  /** The floor's CPU time over the reader's: 1 is the floor's speed. */
  ratioToFloor: number;
}

export function storeBench(tmp: string, runs: number): StoreRow[] {
  const mb = Number(process.env.BENCH_STORE_MB ?? 100);
  const here = new URL('.', import.meta.url).pathname;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cpuOf = (which: string, file: string) =>
    (
      JSON.parse(execFileSync(process.execPath, [join(here, 'store-read.mjs'), which, file], { encoding: 'utf8' })) as {
        cpuMs: number;
      }
    ).cpuMs;
  const rows: StoreRow[] = [];
  for (const store of ['checkpointed', 'with WAL'] as const) {
    const file = join(tmp, store === 'checkpointed' ? 'store.db' : 'store-wal.db');
    execFileSync('python3', ['-c', write, file, String(mb), store === 'with WAL' ? 'wal' : 'none']);
    const cpu: number[] = [];
    const floor: number[] = [];
    for (let run = 0; run < runs; run++) {
      floor.push(cpuOf('floor', file));
      cpu.push(cpuOf('pages', file));
    }
    const row = { store, mb, cpuMs: median(cpu), floorCpuMs: median(floor), ratioToFloor: median(floor) / median(cpu) };
    rows.push(row);
    console.error(`store: ${store} ${mb} MB: ${row.cpuMs.toFixed(0)} ms CPU, floor ${row.floorCpuMs.toFixed(0)} ms`);
  }
  return rows;
}
