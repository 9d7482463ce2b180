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

/**
 * What a process has cost so far, from /proc (Linux): CPU seconds (user + system, every thread) and the bytes
 * it read and wrote through system calls (`rchar`/`wchar`: files and pipes, whether or not the page cache
 * served them). Undefined elsewhere or once it has exited.
 */
export function processCost(pid: number): { cpuSeconds: number; readMb: number; writtenMb: number } | undefined {
  try {
    // Fields after the command name (which may hold spaces), from the 3rd: utime and stime are the 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(io)?.[1] ?? Number.NaN);
    // USER_HZ is 100 on every Linux Node runs on.
    return { cpuSeconds: ticks / 100, readMb: field('rchar') / 1024 / 1024, writtenMb: field('wchar') / 1024 / 1024 };
  } catch {
    return undefined;
  }
}
