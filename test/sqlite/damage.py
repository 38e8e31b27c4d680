# Damaged SQLite files for the reader's tests, made from a real database: python3 damage.py MODE DB
#   dag       table t (2,000 rows, 512-byte pages) whose interior pages all point at one child: pages reached twice
#   wal-1001  a healthy db beside a -wal whose header (valid checksum) names page size 1001
#   wal-huge  the same with page size 0xfffffff0 (a frame of it is more than a Buffer can hold)
import sqlite3
import struct
import sys

mode, path = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path)
db.execute("PRAGMA page_size=512")
db.execute("CREATE TABLE t (id integer, s text)")
db.executemany("INSERT INTO t VALUES (?, ?)", [(i, "x") for i in range(2000)])
db.commit()
root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 't'").fetchone()[0]
db.close()


def checksum(data, s0=0, s1=0):
    for i in range(0, len(data), 8):
        x0, x1 = struct.unpack(">II", data[i : i + 8])
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1


if mode == "dag":
    data = bytearray(open(path, "rb").read())

    def rewrite(page):
        at = (page - 1) * 512
        if data[at] != 5:  # not an interior table page
            return
        cells = struct.unpack(">H", data[at + 3 : at + 5])[0]
        first_cell = struct.unpack(">H", data[at + 12 : at + 14])[0]
        first = struct.unpack(">I", data[at + first_cell : at + first_cell + 4])[0]
        for i in range(cells):
            pointer = struct.unpack(">H", data[at + 12 + 2 * i : at + 14 + 2 * i])[0]
            data[at + pointer : at + pointer + 4] = struct.pack(">I", first)
        data[at + 8 : at + 12] = struct.pack(">I", first)
        rewrite(first)

    rewrite(root)
    open(path, "wb").write(data)
else:
    size = 1001 if mode == "wal-1001" else 0xFFFFFFF0
    header = struct.pack(">IIIIII", 0x377F0683, 3007000, size, 0, 1, 2)
    header += struct.pack(">II", *checksum(header))
    open(path + "-wal", "wb").write(header + b"\0" * 2000)
