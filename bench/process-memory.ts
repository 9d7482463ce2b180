import { readFileSync } from 'node:fs';

/** VmRSS of a process in MB, from /proc (Linux); undefined elsewhere or once it has exited. */
export function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
