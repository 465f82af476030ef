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

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-template-expressions -- the report is the plain JSON written above, read back to render it */
const table = (header: string[], rows: (string | number)[][]): string =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const ms = (value: number | null): string =>
  value === null || !Number.isFinite(value) ? 'timed out' : `${value} ms`;

const renderMarkdown = (report: any): string => {
  const m = report.machine;
  const out: string[] = [
    `# Pipeline benchmark (${report.options.drainOnly ? 'drain only' : report.options.quick ? 'quick' : 'full'})`,
    '',
    `${m.date.slice(0, 16).replace('T', ' ')} UTC, ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, Node ${m.node}; ` +
      `load average ${m.loadAverage1mAtStart} at start, ${m.loadAverage1mAtEnd} at end (the bench client, Postgres, Redis, ` +
      'the services and any other work share these cores). Fake Twilio, fake OpenAI answering at once.',
  ];
  // Each part is rendered when the run measured it (--drain-only measures the drain alone).
  if (report.webhook) out.push(...webhookSection(report));
  if (report.pipeline) out.push(...pipelineSection(report.pipeline));
  if (report.throughput) out.push(...throughputSection(report.throughput));
  return out.join('\n');
};

/** The webhook at each rate beside the bare handler, and its CPU per request. */
const webhookSection = (report: any): string[] => [
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
    report.webhook.rates.map((r: any) => [
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
    report.webhook.rates.map((r: any) => {
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
  ...webhookNotes(report),
];

/** The closed loop, the phase's usage and the webhook's steps. */
const webhookNotes = (report: any): string[] => {
  const c = report.webhook.closedLoop;
  const steps = report.webhookSteps;
  return [
    '',
    `Closed loop, 32 clients: Sprout ${c.sprout.perSecond} req/s (p50 ${c.sprout.p50} ms), bare ${c.bare.perSecond} req/s (p50 ${c.bare.p50} ms): **throughput ratio ${c.throughputRatio}**. ` +
      `CPU-ms per request: Sprout ${c.sprout.cpuMsPerRequest?.total} (sms-gateway ${c.sprout.cpuMsPerRequest?.service}, Postgres ${c.sprout.cpuMsPerRequest?.postgres}), bare ${c.bare.cpuMsPerRequest?.total} (handler ${c.bare.cpuMsPerRequest?.service}, Postgres ${c.bare.cpuMsPerRequest?.postgres}).`,
    '',
    `Webhook phase usage: ${Object.entries(report.webhook.usage)
      .map(([name, u]: [string, any]) => `${name} ${u.cpuPercent}% CPU, RSS peak ${u.rssMbPeak} MB`)
      .join('; ')}.`,
    '',
    ...(steps
      ? [
          'Webhook steps timed one by one (p50): ' +
            steps.steps.map((s: any) => `${s.step} ${s.p50} ms`).join(', ') +
            `; the webhook's p50 at 5 req/s ${steps.webhookP50At5PerSecond} ms, so the rest (HTTP, routing, form parsing and validation, TwiML) ${steps.restP50} ms.`,
          '',
        ]
      : []),
  ];
};

/** The pipeline overhead at a steady rate, by hop. */
const pipelineSection = (p: any): string[] => [
  `## Pipeline overhead at ${p.rate} msg/s (webhook accepted -> Twilio API call)`,
  '',
  `${p.replied}/${p.texts} replied: **p50 ${p.overheadP50} ms, p95 ${p.overheadP95} ms** (p99 ${p.overheadP99} ms); webhook p50 ${p.webhookP50} ms.`,
  '',
  table(
    ['hop', 'n', 'p50', 'mean', 'share of mean'],
    p.hops.map((h: any) => [h.hop, h.n, `${h.p50} ms`, `${h.mean} ms`, `${h.share}%`]),
  ),
  '',
  `CPU-ms per text: ${Object.entries(p.cpuMsPerText)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.`,
  '',
  table(
    ['process', 'CPU (% of one core)', 'RSS peak'],
    Object.entries(p.usage).map(([name, u]: [string, any]) => [
      name,
      u.cpuPercent,
      u.rssMbPeak ? `${u.rssMbPeak} MB` : '',
    ]),
  ),
  '',
];

/** Replies per second draining a backlog, then each drain's CPU, memory, statements and profiles. */
const throughputSection = (throughput: any): string[] => [
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
    throughput.map((t: any) => [
      t.label + ' + 1 sms-gateway',
      t.backlog,
      t.replied,
      t.repliesPerSecond,
      t.overallPerSecond,
      t.cpuMsPerReply.total,
      t.projectedRepliesPerSecondOn2Cores,
    ]),
  ),
  ...throughput.flatMap((t: any) => drainSection(t)),
  '',
];

/** One drain: each process's CPU and memory, the statements per text, where each service's CPU went. */
const drainSection = (t: any): string[] => [
  '',
  `### ${t.label}: CPU and memory while draining`,
  '',
  table(
    ['process', 'CPU (% of one core)', 'CPU-ms per reply', 'RSS peak', 'RSS end'],
    Object.entries(t.usage).map(([name, u]: [string, any]) => [
      name,
      u.cpuPercent,
      t.cpuMsPerReply[name] ?? '(shared)',
      u.rssMbPeak ? `${u.rssMbPeak} MB` : '',
      u.rssMbEnd ? `${u.rssMbEnd} MB` : '',
    ]),
  ),
  ...(t.statements ? statementsNote(t.statements) : []),
  ...t.profiles.flatMap((profile: any) => [
    '',
    `Where ${profile.service}'s CPU went (${profile.busyMs} ms busy, CPU profile, innermost step): ` +
      profile.steps
        .filter((s: any) => s.share >= 1)
        .map((s: any) => `${s.step} ${s.share}%`)
        .join(', ') +
      '.',
  ]),
];

/** The SQL statements per text while draining, the most frequent first. */
const statementsNote = (statements: any): string[] => [
  '',
  `SQL statements per text while draining (pg_stat_statements, top level): **${statements.perText}**, ` +
    `${statements.execMsPerText} ms executing. Most frequent:`,
  '',
  table(
    ['per text', 'ms per text', 'statement'],
    statements.top
      .filter((r: any) => r.perText >= 0.05)
      .map((r: any) => [r.perText, r.execMsPerText, `\`${r.query.slice(0, 120).replace(/\|/g, '\\|')}\``]),
  ),
];
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-template-expressions */
