import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface CpuTime {
  /** User and kernel time together, in ms. */
  total: number;
  /** Kernel time alone (system calls: socket reads and writes, among others), in ms. */
  kernel: number;
}

/** CPU time a process has used so far, in ms (Linux `/proc`; clock ticks of 10 ms). */
export function cpuTime(pid: number): CpuTime {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, kernel] = [Number(fields[11]) * 10, Number(fields[12]) * 10];
  return { total: user + kernel, kernel };
}

/** The local MySQL/MariaDB server's process, when the database runs on this machine (else null). */
export function localDatabasePid(databaseUrl: string): number | null {
  if (!/^(mysql|mariadb):\/\/[^/]*@?(127\.0\.0\.1|localhost)\b/.test(databaseUrl)) return null;
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      const pid = Number(execFileSync('pidof', ['-s', name], { encoding: 'utf8' }).trim());
      if (pid > 0) return pid;
    } catch {
      // not this one
    }
  }
  return null;
}
