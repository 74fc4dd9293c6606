#include "CSQLiteSupport.h"
#include <sqlite3.h>

int csqlite_stop_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
