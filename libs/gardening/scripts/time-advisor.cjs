// Times adviseOffline per call over the blind sets' study questions for two builds in one process:
// each question is asked of both, in alternating order, so load on a shared machine hits both
// alike. Reports wall and CPU microseconds per call and the candidate/baseline ratio per round.
// Usage: node scripts/time-advisor.cjs <baseline dist> <candidate dist> [rounds] [sets...]
const fs = require('node:fs');
const path = require('node:path');

const [baseDist, candDist, roundsArg, ...setArgs] = process.argv.slice(2);
if (!baseDist || !candDist) {
  console.error('usage: time-advisor.cjs <baseline dist> <candidate dist> [rounds] [sets...]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 6);
const evalDir = path.join(__dirname, '..', 'eval');
const sets = setArgs.length
  ? setArgs
  : ['blind-learn', 'blind-holdout', 'blind-holdout-2', 'blind-learn-3', 'blind-learn-4', 'blind-learn-5'];
const items = sets.flatMap((s) => JSON.parse(fs.readFileSync(path.join(evalDir, `${s}.json`), 'utf8')));

const load = (dist) => {
  const g = require(path.resolve(dist, 'index.js'));
  const requests = items.map((item) => ({
    question: item.question,
    zipCode: item.zipCode ?? null,
    region: item.zipCode ? null : (item.state ?? null),
    now: g.blindDate(item),
    history: (item.history ?? []).map((t) => ({
      role: t.role === 'advisor' ? 'assistant' : 'user',
      content: t.text,
    })),
  }));
  for (const r of requests) g.adviseOffline(r); // builds the index and warms up
  return (i) => {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    g.adviseOffline(requests[i]);
    const wall = Number(process.hrtime.bigint() - start) / 1000;
    const used = process.cpuUsage(cpu);
    return { wall, cpu: used.user + used.system };
  };
};

const base = load(baseDist);
const cand = load(candDist);
const ratios = { wall: [], cpu: [] };
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (let round = 0; round < rounds; round++) {
  const sum = { base: { wall: 0, cpu: 0 }, cand: { wall: 0, cpu: 0 } };
  for (let i = 0; i < items.length; i++) {
    const order = (i + round) % 2 === 0 ? ['base', 'cand'] : ['cand', 'base'];
    for (const which of order) {
      const t = (which === 'base' ? base : cand)(i);
      sum[which].wall += t.wall;
      sum[which].cpu += t.cpu;
    }
  }
  const per = (x) => (x / items.length).toFixed(0);
  for (const k of ['wall', 'cpu']) ratios[k].push(sum.cand[k] / sum.base[k]);
  console.log(
    `round ${round + 1}: wall ${per(sum.base.wall)} -> ${per(sum.cand.wall)} us/call (${(sum.cand.wall / sum.base.wall).toFixed(3)}), cpu ${per(sum.base.cpu)} -> ${per(sum.cand.cpu)} us/call (${(sum.cand.cpu / sum.base.cpu).toFixed(3)})`,
  );
}
console.log(
  `${items.length} questions, ${rounds} rounds: median ratio wall ${median(ratios.wall).toFixed(3)}, cpu ${median(ratios.cpu).toFixed(3)}; load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
);
