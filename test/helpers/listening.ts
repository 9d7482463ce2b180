import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The TCP ports a process listens on, from Linux's own tables: its socket descriptors (/proc/<pid>/fd)
 * matched against the listening sockets of /proc/net/tcp and tcp6. Says what is open, whatever address or
 * port it was opened on, where a connection attempt could only say that one given port is closed.
 */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // Closed between the listing and the read.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      // 0A: TCP_LISTEN.
      if (state === '0A' && inode && inodes.has(inode)) ports.add(Number.parseInt(local!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
