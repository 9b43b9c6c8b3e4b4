/**
 * Whether a process id names a live process, for files that record their owner's
 * pid (spool folders, the local stack record): signal 0 checks without sending.
 * EPERM means the process lives but belongs to another user.
 */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
