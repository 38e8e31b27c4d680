# A live writer for the checkpoint race test: python3's sqlite3 commits COMMITS rows into table t of DB (WAL mode,
# automatic checkpoints off, synchronous NORMAL: a checkpoint syncs the main file before it empties the WAL), one
# transaction each, as fast as it can, with a PASSIVE checkpoint every PASSIVE-th commit and a TRUNCATE one every
# TRUNCATE-th: the reader reads while the WAL is copied into the main file, emptied and restarted.
# python3 race-writer.py DB COMMITS PASSIVE TRUNCATE
#   stdin "go"    -> writes them all, then answers "done"
#   stdin "rows"  -> the table's rows as JSON, [rowid, n, s] each, in rowid order
import json
import sqlite3
import sys

path, commits, passive, truncate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("PRAGMA synchronous=NORMAL")
db.execute("CREATE TABLE t (n integer, s text)")
print("ready", flush=True)
for line in sys.stdin:
    if line.strip() == "go":
        for i in range(1, commits + 1):
            # 20 to 3,019 bytes: leaves split, rows spill onto overflow pages, interior pages change.
            db.execute("INSERT INTO t VALUES (?, ?)", (i, chr(97 + i % 26) * ((i * 7919) % 3000 + 20)))
            if i % truncate == 0:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            elif i % passive == 0:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        print("done", flush=True)
    elif line.strip() == "rows":
        print(json.dumps(db.execute("SELECT rowid, n, s FROM t ORDER BY rowid").fetchall()), flush=True)
