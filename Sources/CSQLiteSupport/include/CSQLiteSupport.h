// What Swift cannot call directly around SQLite: sqlite3_config is variadic, and
// sync_file_range is declared only under _GNU_SOURCE.
#ifndef CSQLITESUPPORT_H
#define CSQLITESUPPORT_H

#ifdef __cplusplus
extern "C" {
#endif

// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0): SQLite stops counting its memory use, so no
// allocation takes its global memory mutex. Takes effect only before SQLite's first use in the
// process; returns SQLITE_OK (0), or SQLITE_MISUSE (21) when SQLite is already in use.
int csqlite_stop_memory_statistics(void);

// Starts writing the file's dirty pages to the disk without waiting for them
// (sync_file_range with SYNC_FILE_RANGE_WRITE over the whole file), so that a later fsync
// finds less to write. It promises nothing about durability. Returns 0, or -1 with errno set.
int csqlite_start_writeback(int fd);

#ifdef __cplusplus
}
#endif

#endif
