/**
 * `node bin/run-ts.js bench/cpu-profile-summary.ts <file.cpuprofile> [--from S] [--to S] [--top N] [--timeline]`
 *
 * A text summary of a V8 CPU profile (`BENCH_CPU_PROFILE`, docs/benchmarks.md "Where the time goes"): the
 * functions by self time, the functions and the modules (a package of node_modules, a file of the
 * project, or V8/Node's own) by inclusive time (a sample counts once per function or module on its
 * stack), and the heaviest stacks folded to their project frames. `--from`/`--to` keep the samples of that
 * window (seconds from the profile's start) and `--timeline` prints the busy share of every second, to
 * find the window of the scenario under load (the profile spans the server's whole life, seeding too).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    top: { type: 'string', default: '30' },
    timeline: { type: 'boolean', default: false },
  },
});
const file = positionals[0];
if (!file) {
  console.error('usage: cpu-profile-summary.ts <file.cpuprofile> [--from S] [--to S] [--top N] [--timeline]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(values.top);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);
/** Where a frame's code lives: a package, a project file, or the runtime. */
function moduleOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const project = url.match(/\/(src|bench|scripts)\/(.*)$/);
  return project ? `${project[1]}/${project[2]}` : url;
}
const frameName = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${moduleOf(f)}:${f.lineNumber + 1}`;
const isProject = (f: CallFrame) => /\/(src|bench)\//.test(f.url) && !f.url.includes('/node_modules/');

const from = values.from === undefined ? 0 : Number(values.from) * 1e6;
const to = values.to === undefined ? Number.POSITIVE_INFINITY : Number(values.to) * 1e6;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const modules = new Map<string, number>();
const stacks = new Map<string, number>();
const seconds = new Map<number, { busy: number; all: number }>();
let total = 0;
let busy = 0;
let t = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  t += delta;
  const node = byId.get(id)!;
  const idle = node.callFrame.functionName === '(idle)';
  const second = Math.floor(t / 1e6);
  const s = seconds.get(second) ?? { busy: 0, all: 0 };
  s.all += delta;
  if (!idle) s.busy += delta;
  seconds.set(second, s);
  if (t < from || t > to) return;
  total += delta;
  if (idle) return;
  busy += delta;
  const selfName = IDLE.has(node.callFrame.functionName) ? node.callFrame.functionName : frameName(node.callFrame);
  self.set(selfName, (self.get(selfName) ?? 0) + delta);
  const names = new Set<string>();
  const mods = new Set<string>();
  const projectFrames: string[] = [];
  for (let n: ProfileNode | undefined = node; n; n = byId.get(parent.get(n.id) ?? -1)) {
    if (n.callFrame.functionName === '(root)') break;
    names.add(frameName(n.callFrame));
    mods.add(moduleOf(n.callFrame));
    if (isProject(n.callFrame) && projectFrames.at(-1) !== n.callFrame.functionName) projectFrames.push(n.callFrame.functionName || '(anonymous)');
  }
  for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
  for (const m of mods) modules.set(m, (modules.get(m) ?? 0) + delta);
  const folded = `${projectFrames.reverse().slice(-4).join(' > ') || '(outside the project)'} | ${moduleOf(node.callFrame)}`;
  stacks.set(folded, (stacks.get(folded) ?? 0) + delta);
});

const pct = (v: number) => `${((100 * v) / busy).toFixed(1).padStart(5)} %`;
const ms = (v: number) => `${(v / 1000).toFixed(0).padStart(7)} ms`;
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n## ${title}\n`);
  for (const [name, v] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)} ${ms(v)}  ${name}`);
};

if (values.timeline) {
  console.log('## Busy share per second (not idle)\n');
  for (const [second, s] of [...seconds.entries()].sort((a, b) => a[0] - b[0])) {
    console.log(`${String(second).padStart(4)} s ${'#'.repeat(Math.round((40 * s.busy) / Math.max(1, s.all))).padEnd(40)} ${((100 * s.busy) / Math.max(1, s.all)).toFixed(0)} %`);
  }
}
console.log(`\n${file}: window ${(from / 1e6).toFixed(1)}–${Number.isFinite(to) ? (to / 1e6).toFixed(1) : 'end'} s, ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (${((100 * busy) / Math.max(1, total)).toFixed(0)} %); shares below are of the busy time`);
print('Self time by function', self);
print('Inclusive time by module', modules);
print('Inclusive time by function', inclusive);
print('Heaviest stacks (project frames, outermost first | module of the sampled frame)', stacks);
