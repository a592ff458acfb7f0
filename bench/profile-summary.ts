import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, this project's source, or Node itself. */
function ownerOf(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes('/src/')) return `src/${url.split('/src/')[1]}`;
  if (url.startsWith('node:')) return url;
  return url === '' ? '(native)' : url;
}

/**
 * Self time of the newest `.cpuprofile` in a directory, by function and by owner (package or source
 * file): `npm run bench:profile-summary -- <dir>`. What `docs/performance.md` reports as top costs.
 */
function main(): void {
  const dir = process.argv[2] ?? '.';
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;
  const tally = (keyOf: (n: ProfileNode) => string) => {
    const sums = new Map<string, number>();
    for (const [id, us] of selfUs) {
      const node = byId.get(id);
      if (!node || node.callFrame.functionName === '(idle)') continue;
      const key = keyOf(node);
      sums.set(key, (sums.get(key) ?? 0) + us);
    }
    return [...sums].sort((a, b) => b[1] - a[1]).slice(0, 15);
  };
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  console.log(`${file}: ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s\n\nby owner:`);
  for (const [owner, us] of tally((n) => ownerOf(n.callFrame.url))) console.log(`  ${pct(us)}  ${owner}`);
  console.log('\nby function:');
  for (const [fn, us] of tally(
    (n) => `${n.callFrame.functionName || '(anonymous)'}  ${ownerOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`,
  ))
    console.log(`  ${pct(us)}  ${fn}`);
  console.log(
    '\nA native socket write (`writeBuffer`, `writev`) that wakes another process on this machine (the database,' +
      '\nthe load generator) is charged with the time the woken process runs before this one gets its core back:' +
      "\nV8 samples wall-clock time. The kernel's real share is the bench's `kernel` figure (from /proc).",
  );
}

main();
