#ifndef QUIRE_CSPAWN_H
#define QUIRE_CSPAWN_H

#include <spawn.h>

/// Adds "close every descriptor from `lowest` up" to `actions` (glibc 2.34's
/// posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare);
/// returns 0, or an errno value. Where the C library lacks it, returns ENOSYS.
int cspawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, so no child started meanwhile
/// on another thread inherits them. Returns 0, or -1 with errno set.
int cspawn_pipe_cloexec(int fds[2]);

#endif
