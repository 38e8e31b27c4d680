# A session store being written, for the OpenCode/Kilo follow tests: replays the `session` rows and
# the `event` log of a real captured database (SOURCE) into a new WAL database (TARGET), holding the
# connection open with automatic checkpoints off, so every commit stays in TARGET-wal until asked.
# One command per stdin line, each answered on stdout once its transaction has committed:
#   next N        insert the next N event rows, one transaction each   -> "wrote <rows so far> <more|all>"
#   checkpoint    PRAGMA wal_checkpoint(TRUNCATE)                      -> "checkpointed"
#   quit          exit without checkpointing (the WAL stays)           -> (no answer)
import os
import sqlite3
import sys

source, target = sys.argv[1], sys.argv[2]
src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
db = sqlite3.connect(target, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name IN ('session','event')"):
    # The captured schema names foreign keys to tables not copied: foreign keys are off by default.
    db.execute(sql)
db.execute("BEGIN")
for row in src.execute("SELECT * FROM session ORDER BY rowid"):
    db.execute(f"INSERT INTO session VALUES ({','.join('?' * len(row))})", row)
db.execute("COMMIT")
# The schema and the session rows go into the main file; every event row after them stays in the WAL.
db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
events = src.execute("SELECT id, aggregate_id, seq, type, data FROM event ORDER BY rowid").fetchall()
written = 0
print("ready", len(events), flush=True)
for line in sys.stdin:
    command = line.split()
    if command[0] == "next":
        for row in events[written : written + int(command[1])]:
            db.execute("INSERT INTO event VALUES (?,?,?,?,?)", row)
            written += 1
        print("wrote", written, "all" if written >= len(events) else "more", flush=True)
    elif command[0] == "checkpoint":
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        print("checkpointed", flush=True)
    elif command[0] == "quit":
        os._exit(0)
