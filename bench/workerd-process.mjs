/**
 * The workerd processes a `wrangler dev` runs, and what they use, read from /proc (Linux). wrangler
 * dev starts two: one that serves the Worker and its Durable Objects (the runtime), and a proxy in
 * front of it that listens on the dev port. Each is found among the descendants of the wrangler
 * process. Resident memory is VmRSS in /proc/<pid>/status; CPU time is utime + stime in
 * /proc/<pid>/stat, in clock ticks (10 ms each on common kernels), so it is read over many runs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** Milliseconds per clock tick of /proc/<pid>/stat. */
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** @typedef {{ pid: number, role: 'runtime' | 'proxy' }} WorkerdProcess */

/**
 * @param {number} wranglerPid
 * @param {number} port The dev port: the proxy's listening address names it.
 * @returns {Promise<WorkerdProcess[]>}
 */
export async function workerdProcesses(wranglerPid, port) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // The command name may hold spaces; the parent pid is the second field after its closing ")".
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  /** @type {WorkerdProcess[]} */
  const found = [];
  const pending = [wranglerPid];
  while (pending.length > 0) {
    const pid = /** @type {number} */ (pending.pop());
    for (const child of children.get(pid) ?? []) {
      pending.push(child);
      const command = (await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '')).split('\0');
      if (!command[0]?.endsWith('/workerd')) continue;
      const proxy = command.some((argument) => argument.endsWith(`entry=127.0.0.1:${port}`));
      found.push({ pid: child, role: proxy ? 'proxy' : 'runtime' });
    }
  }
  return found;
}

/**
 * VmRSS of a process, in MiB (0 once it is gone).
 * @param {number} pid
 */
export async function residentMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

/**
 * Samples a process's resident memory every `intervalMs` until stopped; returns the peak and the last.
 * @param {number} pid
 * @param {number} intervalMs
 */
export function sampleResident(pid, intervalMs) {
  let peak = 0;
  let last = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      last = await residentMiB(pid);
      peak = Math.max(peak, last);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      last = await residentMiB(pid);
      return { peak: Math.max(peak, last), last };
    },
  };
}

/**
 * CPU time a process has used so far (user and system), in ms; read synchronously so that taking it
 * around a run adds no turn of the event loop.
 * @param {number} pid
 */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name's closing ")": state is the first, utime the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
