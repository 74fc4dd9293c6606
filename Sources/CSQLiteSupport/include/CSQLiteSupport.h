// What Swift cannot call directly in SQLite: sqlite3_config is variadic.
#ifndef CSQLITESUPPORT_H
#define CSQLITESUPPORT_H

#ifdef __cplusplus
extern "C" {
#endif

// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0): SQLite stops counting its memory use, so no
// allocation takes its global memory mutex. Takes effect only before SQLite's first use in the
// process; returns SQLITE_OK (0), or SQLITE_MISUSE (21) when SQLite is already in use.
int csqlite_stop_memory_statistics(void);

#ifdef __cplusplus
}
#endif

#endif
