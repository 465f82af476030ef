// The pipeline benchmark's report: bench-results/pipeline.json and the same figures as Markdown
// (bench-results/pipeline.md, printed at the end), written after each phase so a run stopped midway
// still leaves what it measured.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { round, writeResult } from './harness';

/** Writes what has been measured so far; answers the Markdown. */
export const writeReport = (
  options: object,
  results: Record<string, unknown>,
  started: number,
  load1: number,
): string => {
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: round(os.totalmem() / 2 ** 30),
    loadAverage1mAtStart: round(load1, 2),
    loadAverage1mAtEnd: round(os.loadavg()[0] ?? 0, 2),
    node: process.version,
    date: new Date().toISOString(),
  };
  const report = { options, machine, ...results, seconds: round((performance.now() - started) / 1000) };
  writeResult('pipeline.json', report);
  const markdown = renderMarkdown(report);
  writeResult('pipeline.md', markdown);
  return markdown;
};

/** A latency summary of one side of the webhook (ms; null where every request timed out). */
interface Latencies {
  n: number;
  timedOut: number;
  p50: number | null;
  p99: number | null;
  p999: number | null;
  achievedPerSecond: number;
}

/** CPU-ms per request: the serving process and Postgres (total where both are summed). */
interface CpuMs {
  service: number;
  postgres: number;
  total?: number;
}

interface UsageFigures {
  cpuPercent: number;
  rssMbPeak?: number;
  rssMbEnd?: number;
}

interface ClosedLoopSide {
  perSecond: number;
  p50: number;
  cpuMsPerRequest: Required<CpuMs>;
}

interface Statements {
  perText: number;
  execMsPerText: number;
  top: { perText: number; execMsPerText: number; query: string }[];
}

interface Drain {
  label: string;
  backlog: number;
  replied: number;
  repliesPerSecond: number;
  overallPerSecond: number;
  cpuMsPerReply: Record<string, number> & { total: number };
  projectedRepliesPerSecondOn2Cores: number;
  usage: Record<string, UsageFigures>;
  statements: Statements | null;
  profiles: { service: string; busyMs: number; steps: { step: string; share: number }[] }[];
}

interface EdgePhase {
  clients: number;
  seconds: number;
  rounds: number;
  sides: {
    side: string;
    n: number;
    errors: number;
    perSecond: number;
    p50: number;
    p99: number;
    cpuMsPerRequest: Record<string, number>;
  }[];
  webhookOverLivenessViaEdge: { p50: number | null; p99: number | null };
  webhookEdgeOverDirect: { p50: number | null; p99: number | null };
  livenessEdgeOverDirect: { p50: number | null; p99: number | null };
  profiles: Drain['profiles'];
}

interface PipelinePhase {
  rate: number;
  texts: number;
  replied: number;
  webhookP50: number;
  overheadP50: number;
  overheadP95: number;
  overheadP99: number;
  hops: { hop: string; n: number; p50: number; mean: number; share: number }[];
  usage: Record<string, UsageFigures>;
  cpuMsPerText: Record<string, number>;
}

/**
 * The report JSON as the Markdown reads it (the phases hand in their figures as plain JSON): each phase
 * is there once the run has measured it.
 */
interface PipelineReport {
  options: { drainOnly?: boolean; edgeOnly?: boolean; quick?: boolean };
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    loadAverage1mAtStart: number;
    loadAverage1mAtEnd: number;
    node: string;
    date: string;
  };
  webhook?: {
    rates: {
      rate: number;
      sprout: Latencies;
      bare: Latencies;
      ratioP50: number | null;
      ratioP99: number | null;
      ratioP999: number | null;
      cpuMsPerRequest: { sprout: CpuMs; bare: CpuMs };
    }[];
    closedLoop: { sprout: ClosedLoopSide; bare: ClosedLoopSide; throughputRatio: number };
    usage: Record<string, UsageFigures>;
  };
  webhookSteps?: {
    steps: { step: string; p50: number }[];
    webhookP50At5PerSecond: number;
    restP50: number;
  };
  /** Worker and pool settings the services inherited from the run's environment. */
  serviceSettings?: Record<string, string>;
  edge?: EdgePhase;
  pipeline?: PipelinePhase;
  throughput?: Drain[];
}
const table = (header: string[], rows: (string | number)[][]): string =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const ms = (value: number | null): string =>
  value === null || !Number.isFinite(value) ? 'timed out' : `${value} ms`;

const modeOf = (options: PipelineReport['options']): string => {
  if (options.drainOnly) return 'drain only';
  if (options.edgeOnly) return 'edge only';
  return options.quick ? 'quick' : 'full';
};

const renderMarkdown = (report: PipelineReport): string => {
  const m = report.machine;
  const out: string[] = [
    `# Pipeline benchmark (${modeOf(report.options)})`,
    '',
    `${m.date.slice(0, 16).replace('T', ' ')} UTC, ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, Node ${m.node}; ` +
      `load average ${m.loadAverage1mAtStart} at start, ${m.loadAverage1mAtEnd} at end (the bench client, Postgres, Redis, ` +
      'the services and any other work share these cores). Fake Twilio, fake OpenAI answering at once.',
  ];
  const set = Object.entries(report.serviceSettings ?? {}).filter(([, value]) => value !== 'default');
  if (set.length > 0) out.push('', `Services' settings: ${set.map(([k, v]) => `${k}=${v}`).join(', ')}.`);
  // Each part is rendered when the run measured it (--drain-only measures the drain alone).
  if (report.webhook) out.push(...webhookSection(report.webhook, report.webhookSteps));
  if (report.edge) out.push(...edgeSection(report.edge));
  if (report.pipeline) out.push(...pipelineSection(report.pipeline));
  if (report.throughput) out.push(...throughputSection(report.throughput));
  return out.join('\n');
};

/** The webhook at each rate beside the bare handler, and its CPU per request. */
const webhookSection = (
  webhook: NonNullable<PipelineReport['webhook']>,
  steps: PipelineReport['webhookSteps'],
): string[] => [
  '',
  '## Inbound webhook (open loop; latency from the scheduled send time)',
  '',
  table(
    [
      'rate (req/s)',
      'Sprout p50',
      'p99',
      'p99.9',
      'answered/s',
      'timed out',
      'bare p50',
      'bare p99',
      'bare p99.9',
      'bare answered/s',
      'ratio p50',
      'ratio p99',
      'ratio p99.9',
    ],
    webhook.rates.map((r) => [
      r.rate,
      ms(r.sprout.p50),
      ms(r.sprout.p99),
      ms(r.sprout.p999),
      r.sprout.achievedPerSecond,
      `${r.sprout.timedOut}/${r.sprout.n}`,
      ms(r.bare.p50),
      ms(r.bare.p99),
      ms(r.bare.p999),
      r.bare.achievedPerSecond,
      r.ratioP50 ?? '-',
      r.ratioP99 ?? '-',
      r.ratioP999 ?? '-',
    ]),
  ),
  '',
  table(
    [
      'rate',
      'Sprout CPU-ms/request (sms-gateway + Postgres)',
      'bare CPU-ms/request (handler + Postgres)',
      'ratio',
    ],
    webhook.rates.map((r) => {
      const a = r.cpuMsPerRequest.sprout;
      const b = r.cpuMsPerRequest.bare;
      return [
        r.rate,
        `${a.service} + ${a.postgres}`,
        `${b.service} + ${b.postgres}`,
        round((a.service + a.postgres) / (b.service + b.postgres), 2),
      ];
    }),
  ),
  ...webhookNotes(webhook, steps),
];

/** The closed loop, the phase's usage and the webhook's steps. */
const webhookNotes = (
  webhook: NonNullable<PipelineReport['webhook']>,
  steps: PipelineReport['webhookSteps'],
): string[] => {
  const c = webhook.closedLoop;
  return [
    '',
    `Closed loop, 32 clients: Sprout ${c.sprout.perSecond} req/s (p50 ${c.sprout.p50} ms), bare ${c.bare.perSecond} req/s (p50 ${c.bare.p50} ms): **throughput ratio ${c.throughputRatio}**. ` +
      `CPU-ms per request: Sprout ${c.sprout.cpuMsPerRequest.total} (sms-gateway ${c.sprout.cpuMsPerRequest.service}, Postgres ${c.sprout.cpuMsPerRequest.postgres}), bare ${c.bare.cpuMsPerRequest.total} (handler ${c.bare.cpuMsPerRequest.service}, Postgres ${c.bare.cpuMsPerRequest.postgres}).`,
    '',
    `Webhook phase usage: ${Object.entries(webhook.usage)
      .map(([name, u]) => `${name} ${u.cpuPercent}% CPU, RSS peak ${u.rssMbPeak} MB`)
      .join('; ')}.`,
    '',
    ...(steps
      ? [
          'Webhook steps timed one by one (p50): ' +
            steps.steps.map((s) => `${s.step} ${s.p50} ms`).join(', ') +
            `; the webhook's p50 at 5 req/s ${steps.webhookP50At5PerSecond} ms, so the rest (HTTP, routing, form parsing and validation, TwiML) ${steps.restP50} ms.`,
          '',
        ]
      : []),
  ];
};

/** The webhook through the edge against the liveness route through it, and both straight. */
const edgeSection = (e: EdgePhase): string[] => {
  const processes = [...new Set(e.sides.flatMap((s) => Object.keys(s.cpuMsPerRequest)))];
  return [
    '',
    `## Through the edge (${e.clients} clients closed loop, ${e.rounds} alternating rounds of ${e.seconds} s each)`,
    '',
    table(
      ['request', 'answered/s', 'errors', 'p50', 'p99', ...processes.map((name) => `CPU-ms/request ${name}`)],
      e.sides.map((s) => [
        s.side,
        s.perSecond,
        s.errors,
        ms(s.p50),
        ms(s.p99),
        ...processes.map((name) => s.cpuMsPerRequest[name] ?? '-'),
      ]),
    ),
    '',
    `Webhook over liveness through the edge: p50 ${e.webhookOverLivenessViaEdge.p50 ?? '-'}, **p99 ${e.webhookOverLivenessViaEdge.p99 ?? '-'}** (target at most 1.5). ` +
      `Through the edge over straight: webhook p50 ${e.webhookEdgeOverDirect.p50 ?? '-'}, p99 ${e.webhookEdgeOverDirect.p99 ?? '-'}; ` +
      `liveness p50 ${e.livenessEdgeOverDirect.p50 ?? '-'}, p99 ${e.livenessEdgeOverDirect.p99 ?? '-'}.`,
    ...profileNotes('with webhooks through the edge', e.profiles),
    '',
  ];
};

/** The pipeline overhead at a steady rate, by hop. */
const pipelineSection = (p: PipelinePhase): string[] => [
  `## Pipeline overhead at ${p.rate} msg/s (webhook accepted -> Twilio API call)`,
  '',
  `${p.replied}/${p.texts} replied: **p50 ${p.overheadP50} ms, p95 ${p.overheadP95} ms** (p99 ${p.overheadP99} ms); webhook p50 ${p.webhookP50} ms.`,
  '',
  table(
    ['hop', 'n', 'p50', 'mean', 'share of mean'],
    p.hops.map((h) => [h.hop, h.n, `${h.p50} ms`, `${h.mean} ms`, `${h.share}%`]),
  ),
  '',
  `CPU-ms per text: ${Object.entries(p.cpuMsPerText)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.`,
  '',
  table(
    ['process', 'CPU (% of one core)', 'RSS peak'],
    Object.entries(p.usage).map(([name, u]) => [name, u.cpuPercent, u.rssMbPeak ? `${u.rssMbPeak} MB` : '']),
  ),
  '',
];

/** Replies per second draining a backlog, then each drain's CPU, memory, statements and profiles. */
const throughputSection = (throughput: Drain[]): string[] => [
  '',
  '## Largest sustained replies per second (backlog drained)',
  '',
  table(
    [
      'workers',
      'backlog',
      'replied',
      'replies/s (steady)',
      'replies/s (overall)',
      'CPU-ms per reply (all processes)',
      'projected replies/s on 2 dedicated cores',
    ],
    throughput.map((t) => [
      t.label + ' + 1 sms-gateway',
      t.backlog,
      t.replied,
      t.repliesPerSecond,
      t.overallPerSecond,
      t.cpuMsPerReply.total,
      t.projectedRepliesPerSecondOn2Cores,
    ]),
  ),
  ...throughput.flatMap((t) => drainSection(t)),
  '',
];

/** One drain: each process's CPU and memory, the statements per text, where each service's CPU went. */
const drainSection = (t: Drain): string[] => [
  '',
  `### ${t.label}: CPU and memory while draining`,
  '',
  table(
    ['process', 'CPU (% of one core)', 'CPU-ms per reply', 'RSS peak', 'RSS end'],
    Object.entries(t.usage).map(([name, u]) => [
      name,
      u.cpuPercent,
      t.cpuMsPerReply[name] ?? '(shared)',
      u.rssMbPeak ? `${u.rssMbPeak} MB` : '',
      u.rssMbEnd ? `${u.rssMbEnd} MB` : '',
    ]),
  ),
  ...(t.statements ? statementsNote(t.statements) : []),
  ...profileNotes('while draining', t.profiles),
];

/** Where each profiled service's CPU went, by step. */
const profileNotes = (during: string, profiles: Drain['profiles']): string[] =>
  profiles.flatMap((profile) => [
    '',
    `Where ${profile.service}'s CPU went ${during} (${profile.busyMs} ms busy, CPU profile, innermost step): ` +
      profile.steps
        .filter((s) => s.share >= 1)
        .map((s) => `${s.step} ${s.share}%`)
        .join(', ') +
      '.',
  ]);

/** The SQL statements per text while draining, the most frequent first. */
const statementsNote = (statements: Statements): string[] => [
  '',
  `SQL statements per text while draining (pg_stat_statements, top level): **${statements.perText}**, ` +
    `${statements.execMsPerText} ms executing. Most frequent:`,
  '',
  table(
    ['per text', 'ms per text', 'statement'],
    statements.top
      .filter((r) => r.perText >= 0.05)
      .map((r) => [r.perText, r.execMsPerText, `\`${r.query.slice(0, 120).replace(/\|/g, '\\|')}\``]),
  ),
];
