import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of a process in bytes (Linux /proc), or undefined once it is gone. */
export function rssOf(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak seen. */
export function sampleRss(pid: number, everyMs = 50): { stop(): number } {
  let peak = rssOf(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid) ?? 0);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid) ?? 0);
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) of a process and its direct children, e.g. the PostgreSQL postmaster and its backends: its own, its
 * children's that have exited (cutime + cstime, counted once reaped) and the running children's.
 */
export function cpuMsOfTree(rootPid: number): number {
  const fieldsOf = (pid: number | string) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  };
  let total = 0;
  try {
    const root = fieldsOf(rootPid);
    total = (Number(root[11]) + Number(root[12]) + Number(root[13]) + Number(root[14])) * 10;
  } catch {
    return Number.NaN;
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = fieldsOf(entry);
      if (Number(fields[1]) === rootPid) total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
