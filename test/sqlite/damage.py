# Damaged SQLite files for the reader's tests, made from a real database: python3 damage.py MODE DB
#   dag       table t (2,000 rows, 512-byte pages) whose interior pages all point at one child: pages reached twice
#   wal-1001  a healthy db beside a -wal whose header (valid checksum) names page size 1001
#   wal-huge  the same with page size 0xfffffff0 (a frame of it is more than a Buffer can hold)
#   dag-deep  table t's root is the top of 24 levels of interior pages, each two cells and its right child all
#             naming the next level's one page, the last an empty leaf: no loop, no row, 3^24 paths
#   huge-cell row 1 of t says its payload is 1.2 GB, its overflow page names itself, and a -wal (valid checksums)
#             commits page 1 again with a database size of 0xfffffff0 pages
#   bad-sql   an unused table whose definition has no column list (set through writable_schema)
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
elif mode == "dag-deep":
    data = bytearray(open(path, "rb").read())
    pages = len(data) // 512
    levels = 24
    for level in range(levels + 1):
        number = root if level == 0 else pages + level
        page = bytearray(512)
        if level < levels:
            child = pages + level + 1
            page[0] = 5
            page[3:5] = struct.pack(">H", 2)
            page[5:7] = struct.pack(">H", 502)
            page[8:12] = struct.pack(">I", child)
            page[12:16] = struct.pack(">HH", 502, 507)
            page[502:507] = struct.pack(">IB", child, 1)
            page[507:512] = struct.pack(">IB", child, 2)
        else:
            page[0] = 13
            page[5:7] = struct.pack(">H", 512)
        if number > len(data) // 512:
            data += bytes(512)
        data[(number - 1) * 512 : number * 512] = page
    open(path, "wb").write(data)
elif mode == "huge-cell":
    db = sqlite3.connect(path)
    db.execute("DELETE FROM t")
    db.execute("INSERT INTO t VALUES (1, ?)", ("y" * 3000,))
    db.commit()
    db.execute("VACUUM")
    db.close()
    data = bytearray(open(path, "rb").read())
    at = (root - 1) * 512

    def local_bytes(size, usable=512):
        max_local = usable - 35
        min_local = ((usable - 12) * 32 // 255) - 23
        k = min_local + ((size - min_local) % (usable - 4))
        return size if size <= max_local else (k if k <= max_local else min_local)

    cell = at + struct.unpack(">H", data[at + 8 : at + 10])[0]
    old_size = ((data[cell] & 0x7F) << 7) | data[cell + 1]  # a 2-byte varint: 3,000 bytes and the record header
    old_local = local_bytes(old_size)
    overflow_at = cell + 3 + old_local
    overflow = struct.unpack(">I", data[overflow_at : overflow_at + 4])[0]
    # The payload size as a 5-byte varint of 1.2e9; the local part as long as that size makes it.
    size = 1_200_000_000
    varint = bytes([0x80 | (size >> 28) & 0x7F, 0x80 | (size >> 21) & 0x7F, 0x80 | (size >> 14) & 0x7F,
                    0x80 | (size >> 7) & 0x7F, size & 0x7F])
    local = bytes(data[cell + 3 : cell + 3 + old_local]) + b"y" * 512
    new_cell = varint + bytes([1]) + local[: local_bytes(size)] + struct.pack(">I", overflow)
    start = 512 - len(new_cell)
    data[at + 5 : at + 7] = struct.pack(">H", start)
    data[at + 8 : at + 10] = struct.pack(">H", start)
    data[at + start : at + 512] = new_cell
    # The overflow page names itself as the next one.
    data[(overflow - 1) * 512 : (overflow - 1) * 512 + 4] = struct.pack(">I", overflow)
    open(path, "wb").write(data)
    page1 = bytes(data[0:512])
    header = struct.pack(">IIIIII", 0x377F0683, 3007000, 512, 0, 7, 9)
    sums = checksum(header)
    header += struct.pack(">II", *sums)
    frame = struct.pack(">IIII", 1, 0xFFFFFFF0, 7, 9)
    sums = checksum(frame[0:8], *sums)
    sums = checksum(page1, *sums)
    frame += struct.pack(">II", *sums)
    open(path + "-wal", "wb").write(header + frame + page1)
elif mode == "bad-sql":
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE junk (a)")
    db.execute("PRAGMA writable_schema=ON")
    db.execute("UPDATE sqlite_master SET sql = 'CREATE TABLE junk' WHERE name = 'junk'")
    db.commit()
    db.close()
else:
    size = 1001 if mode == "wal-1001" else 0xFFFFFFF0
    header = struct.pack(">IIIIII", 0x377F0683, 3007000, size, 0, 1, 2)
    header += struct.pack(">II", *checksum(header))
    open(path + "-wal", "wb").write(header + b"\0" * 2000)
