# A real SQLite writer for the reader's tests: opens DB (WAL mode, automatic checkpoints off) and
# runs one statement per stdin line, answering "ok" once it has run (each outside BEGIN commits
# by itself); "rows TABLE" answers the table's rows as JSON (a SELECT, its rows) (rowid first; blobs as hex, integers
# past 2^53 - 1 as strings), for the tests to compare with what the reader gives.
import json
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")


def plain(value):
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, int) and abs(value) > 2**53 - 1:
        return str(value)
    return value


for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("rows ") or line.startswith("SELECT "):
        query = f"SELECT rowid, * FROM {line[5:]} ORDER BY rowid" if line.startswith("rows ") else line
        rows = db.execute(query).fetchall()
        print(json.dumps([[plain(v) for v in row] for row in rows]), flush=True)
    else:
        db.execute(line).fetchall()
        print("ok", flush=True)
