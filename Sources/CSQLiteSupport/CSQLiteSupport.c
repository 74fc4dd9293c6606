#define _GNU_SOURCE
#include "CSQLiteSupport.h"
#include <fcntl.h>
#include <sqlite3.h>

int csqlite_stop_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int csqlite_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}
