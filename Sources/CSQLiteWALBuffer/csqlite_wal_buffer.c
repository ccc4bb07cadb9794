// A shim over SQLite's default VFS that gathers the write-ahead log's writes (see the header).
//
// Every file opened through it is a `BufferedFile` followed by the default VFS's own file
// object; each method forwards to the default VFS. For the WAL only, xWrite appends to a buffer
// when the write continues the buffered range, and the buffer is written out (one pwrite) before
// anything that must see the file as written: xSync, xRead, xTruncate, xFileSize, xFileControl,
// xClose, and any write that does not continue the range (SQLite rewriting an earlier frame).
// Writes thus reach the kernel in the order SQLite made them.
#include "csqlite_wal_buffer.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

const char *const csqlite_wal_buffer_vfs_name = "quire-wal-buffer";

// The default VFS writes at most 0x1ffff bytes a call (and reports a shorter write as a full
// disk): 31 pages, 30 frames of 4 KiB pages with their headers.
enum { BUFFER_CAPACITY = 0x1ffff & ~4095 };

typedef struct BufferedFile {
    sqlite3_file base;
    sqlite3_file *real;  // the default VFS's file object, right after this struct
    unsigned char *buffer;  // WAL only: NULL for every other file
    sqlite3_int64 bufferStart;
    int bufferLength;
    long long writesAsked;  // xWrite calls SQLite made on the WAL
    long long writesMade;  // writes handed to the default VFS for it
} BufferedFile;

static sqlite3_vfs bufferVFS;
static sqlite3_vfs *realVFS;

static int flushBuffer(BufferedFile *file) {
    if (file->bufferLength == 0) return SQLITE_OK;
    int length = file->bufferLength;
    file->bufferLength = 0;
    file->writesMade += 1;
    return file->real->pMethods->xWrite(file->real, file->buffer, length, file->bufferStart);
}

static int bufferedClose(sqlite3_file *handle) {
    BufferedFile *file = (BufferedFile *)handle;
    int flushed = file->buffer ? flushBuffer(file) : SQLITE_OK;
    int closed = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->buffer);
    file->buffer = NULL;
    return flushed != SQLITE_OK ? flushed : closed;
}

#define FLUSH_OR_RETURN(file)                          \
    do {                                               \
        if ((file)->buffer) {                          \
            int code = flushBuffer(file);              \
            if (code != SQLITE_OK) return code;        \
        }                                              \
    } while (0)

static int bufferedRead(sqlite3_file *handle, void *data, int amount, sqlite3_int64 offset) {
    BufferedFile *file = (BufferedFile *)handle;
    FLUSH_OR_RETURN(file);
    return file->real->pMethods->xRead(file->real, data, amount, offset);
}

static int bufferedWrite(sqlite3_file *handle, const void *data, int amount, sqlite3_int64 offset) {
    BufferedFile *file = (BufferedFile *)handle;
    if (!file->buffer) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    file->writesAsked += 1;
    int continues = file->bufferLength > 0 && offset == file->bufferStart + file->bufferLength;
    if (continues && file->bufferLength + amount <= BUFFER_CAPACITY) {
        memcpy(file->buffer + file->bufferLength, data, (size_t)amount);
        file->bufferLength += amount;
        return SQLITE_OK;
    }
    FLUSH_OR_RETURN(file);
    if (amount > BUFFER_CAPACITY / 2) {
        file->writesMade += 1;
        return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    memcpy(file->buffer, data, (size_t)amount);
    file->bufferStart = offset;
    file->bufferLength = amount;
    return SQLITE_OK;
}

static int bufferedTruncate(sqlite3_file *handle, sqlite3_int64 size) {
    BufferedFile *file = (BufferedFile *)handle;
    FLUSH_OR_RETURN(file);
    return file->real->pMethods->xTruncate(file->real, size);
}

static int bufferedSync(sqlite3_file *handle, int flags) {
    BufferedFile *file = (BufferedFile *)handle;
    FLUSH_OR_RETURN(file);
    return file->real->pMethods->xSync(file->real, flags);
}

static int bufferedFileSize(sqlite3_file *handle, sqlite3_int64 *size) {
    BufferedFile *file = (BufferedFile *)handle;
    FLUSH_OR_RETURN(file);
    return file->real->pMethods->xFileSize(file->real, size);
}

static int bufferedLock(sqlite3_file *handle, int level) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xLock(file->real, level);
}

static int bufferedUnlock(sqlite3_file *handle, int level) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int bufferedCheckReservedLock(sqlite3_file *handle, int *result) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int bufferedFileControl(sqlite3_file *handle, int op, void *argument) {
    BufferedFile *file = (BufferedFile *)handle;
    FLUSH_OR_RETURN(file);
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int bufferedSectorSize(sqlite3_file *handle) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xSectorSize(file->real);
}

static int bufferedDeviceCharacteristics(sqlite3_file *handle) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int bufferedShmMap(sqlite3_file *handle, int region, int size, int extend, void volatile **pointer) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, pointer);
}

static int bufferedShmLock(sqlite3_file *handle, int offset, int count, int flags) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void bufferedShmBarrier(sqlite3_file *handle) {
    BufferedFile *file = (BufferedFile *)handle;
    file->real->pMethods->xShmBarrier(file->real);
}

static int bufferedShmUnmap(sqlite3_file *handle, int deleteFlag) {
    BufferedFile *file = (BufferedFile *)handle;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int bufferedFetch(sqlite3_file *handle, sqlite3_int64 offset, int amount, void **pointer) {
    BufferedFile *file = (BufferedFile *)handle;
    FLUSH_OR_RETURN(file);
    if (file->real->pMethods->iVersion < 3) {
        *pointer = NULL;  // SQLite then reads the page instead
        return SQLITE_OK;
    }
    return file->real->pMethods->xFetch(file->real, offset, amount, pointer);
}

static int bufferedUnfetch(sqlite3_file *handle, sqlite3_int64 offset, void *pointer) {
    BufferedFile *file = (BufferedFile *)handle;
    if (file->real->pMethods->iVersion < 3) return SQLITE_OK;
    return file->real->pMethods->xUnfetch(file->real, offset, pointer);
}

static const sqlite3_io_methods bufferedMethods = {
    3,
    bufferedClose,
    bufferedRead,
    bufferedWrite,
    bufferedTruncate,
    bufferedSync,
    bufferedFileSize,
    bufferedLock,
    bufferedUnlock,
    bufferedCheckReservedLock,
    bufferedFileControl,
    bufferedSectorSize,
    bufferedDeviceCharacteristics,
    bufferedShmMap,
    bufferedShmLock,
    bufferedShmBarrier,
    bufferedShmUnmap,
    bufferedFetch,
    bufferedUnfetch,
};

static int bufferedOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *handle, int flags, int *outFlags) {
    (void)vfs;
    BufferedFile *file = (BufferedFile *)handle;
    memset(file, 0, sizeof(BufferedFile));
    file->real = (sqlite3_file *)(file + 1);
    if (flags & SQLITE_OPEN_WAL) {
        file->buffer = malloc(BUFFER_CAPACITY);
        if (!file->buffer) return SQLITE_NOMEM;
    }
    int code = realVFS->xOpen(realVFS, name, file->real, flags, outFlags);
    if (code != SQLITE_OK) {
        free(file->buffer);
        file->buffer = NULL;
        // SQLite calls xClose only when pMethods is set; the real file may need closing too.
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        return code;
    }
    // The default VFS on Unix offers version 3 (shared memory, memory-mapped reads); one that
    // offers less gets no buffering (its shared-memory methods could not be forwarded).
    if (file->real->pMethods->iVersion < 2) {
        free(file->buffer);
        file->real->pMethods->xClose(file->real);
        return SQLITE_CANTOPEN;
    }
    handle->pMethods = &bufferedMethods;
    return SQLITE_OK;
}

static int forwardDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return realVFS->xDelete(realVFS, name, syncDir);
}

static int forwardAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return realVFS->xAccess(realVFS, name, flags, result);
}

static int forwardFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return realVFS->xFullPathname(realVFS, name, size, out);
}

static void *forwardDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return realVFS->xDlOpen(realVFS, name);
}

static void forwardDlError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    realVFS->xDlError(realVFS, size, out);
}

static void (*forwardDlSym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    (void)vfs;
    return realVFS->xDlSym(realVFS, library, symbol);
}

static void forwardDlClose(sqlite3_vfs *vfs, void *library) {
    (void)vfs;
    realVFS->xDlClose(realVFS, library);
}

static int forwardRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xRandomness(realVFS, size, out);
}

static int forwardSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return realVFS->xSleep(realVFS, microseconds);
}

static int forwardCurrentTime(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return realVFS->xCurrentTime(realVFS, out);
}

static int forwardGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xGetLastError(realVFS, size, out);
}

static int forwardCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return realVFS->xCurrentTimeInt64(realVFS, out);
}

static int registration = SQLITE_OK;
static pthread_once_t registerOnce = PTHREAD_ONCE_INIT;

static void registerNow(void) {
    realVFS = sqlite3_vfs_find(NULL);
    if (!realVFS || realVFS->iVersion < 2) {
        registration = SQLITE_ERROR;
        return;
    }
    bufferVFS.iVersion = 2;
    bufferVFS.szOsFile = (int)sizeof(BufferedFile) + realVFS->szOsFile;
    bufferVFS.mxPathname = realVFS->mxPathname;
    bufferVFS.zName = csqlite_wal_buffer_vfs_name;
    bufferVFS.xOpen = bufferedOpen;
    bufferVFS.xDelete = forwardDelete;
    bufferVFS.xAccess = forwardAccess;
    bufferVFS.xFullPathname = forwardFullPathname;
    bufferVFS.xDlOpen = forwardDlOpen;
    bufferVFS.xDlError = forwardDlError;
    bufferVFS.xDlSym = forwardDlSym;
    bufferVFS.xDlClose = forwardDlClose;
    bufferVFS.xRandomness = forwardRandomness;
    bufferVFS.xSleep = forwardSleep;
    bufferVFS.xCurrentTime = forwardCurrentTime;
    bufferVFS.xGetLastError = forwardGetLastError;
    bufferVFS.xCurrentTimeInt64 = forwardCurrentTimeInt64;
    registration = sqlite3_vfs_register(&bufferVFS, 0);
}

int csqlite_wal_buffer_register(void) {
    pthread_once(&registerOnce, registerNow);
    return registration;
}

int csqlite_wal_buffer_counts(sqlite3 *db, long long *writesAsked, long long *writesMade) {
    sqlite3_file *wal = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &wal) != SQLITE_OK) return 0;
    if (!wal || wal->pMethods != &bufferedMethods) return 0;
    BufferedFile *file = (BufferedFile *)wal;
    if (!file->buffer) return 0;
    *writesAsked = file->writesAsked;
    *writesMade = file->writesMade;
    return 1;
}
