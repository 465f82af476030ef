// Summarises a V8 CPU profile of one service by step of the message path: each sample's time goes
// to the step of the innermost frame that belongs to one (so time in pg called from the message
// writer counts as "Postgres client", time in libs/gardening as "gardening logic"). Idle time is
// left out; the shares are of the CPU the process used.

/** [step, test on a frame's url and function name], first match wins, innermost frame first. */
const STEPS = [
  [
    'signature check',
    (url, fn) => url.includes('/libs/sms/src/signature') || fn === 'validateTwilioSignature',
  ],
  ['SMS fitting (segments, keywords)', (url) => url.includes('/libs/sms/src/')],
  ['gardening logic', (url) => url.includes('/libs/gardening/')],
  [
    'prompt building',
    (url) =>
      url.includes('/ai-responder/src/answering/system-prompt') ||
      url.includes('/ai-responder/src/answering/conversation-history') ||
      url.includes('/ai-responder/src/pipeline/compose-reply'),
  ],
  [
    'model client (OpenAI SDK, tokens)',
    (url) =>
      url.includes('/libs/llm/') ||
      url.includes('/node_modules/openai/') ||
      url.includes('tiktoken') ||
      url.includes('gpt-tokenizer'),
  ],
  [
    'Postgres client (pg, TypeORM)',
    (url) =>
      /\/node_modules\/(pg|pg-protocol|pg-pool|pg-types|typeorm)\//.test(url) ||
      url.includes('/libs/domain/'),
  ],
  [
    'queues (BullMQ, ioredis, msgpackr)',
    (url) =>
      /\/node_modules\/(bullmq|ioredis|msgpackr|cron-parser)\//.test(url) ||
      url.includes('/libs/platform/src/jobs/'),
  ],
  [
    'HTTP framework (Fastify, Nest, body parsing)',
    (url) =>
      /\/node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|@nestjs|rxjs|fast-querystring|fast-json-stringify|secure-json-parse)\//.test(
        url,
      ),
  ],
  ['validation (zod)', (url) => url.includes('/node_modules/zod/')],
  ['logging (pino)', (url) => /\/node_modules\/(pino|pino-std-serializers|sonic-boom)\//.test(url)],
  ['service code', (url) => url.includes('/services/') || url.includes('/libs/')],
];

const stepOf = (frame) => {
  for (const [name, test] of STEPS) if (test(frame.url ?? '', frame.functionName ?? '')) return name;
  return null;
};

export const summariseProfile = (profile, service) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stepCache = new Map();
  const stepOfNode = (id) => {
    if (stepCache.has(id)) return stepCache.get(id);
    const node = byId.get(id);
    const name = node.callFrame.functionName;
    let step;
    if (name === '(idle)') step = 'idle';
    else if (name === '(garbage collector)') step = 'garbage collection';
    else if (name === '(program)') step = 'V8 / native (program)';
    else {
      step = stepOf(node.callFrame);
      if (step === null) {
        const up = parent.get(id);
        step = up === undefined ? 'Node internals (net, streams, timers)' : stepOfNode(up);
        if (step === 'idle' || step === 'V8 / native (program)')
          step = 'Node internals (net, streams, timers)';
      }
    }
    stepCache.set(id, step);
    return step;
  };
  const selfMs = new Map();
  const fnMs = new Map();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i];
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const step = stepOfNode(id);
    selfMs.set(step, (selfMs.get(step) ?? 0) + ms);
    if (step !== 'idle') {
      const frame = byId.get(id).callFrame;
      const key = `${frame.functionName || '(anonymous)'} ${(frame.url ?? '').replace(/^.*\/(node_modules|services|libs)\//, '$1/')}:${frame.lineNumber + 1}`;
      fnMs.set(key, (fnMs.get(key) ?? 0) + ms);
    }
  }
  const busy = [...selfMs.entries()].filter(([step]) => step !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
  const steps = [...selfMs.entries()]
    .filter(([step]) => step !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(([step, ms]) => ({
      step,
      ms: Math.round(ms),
      share: busy > 0 ? Math.round((ms / busy) * 1000) / 10 : 0,
    }));
  const functions = [...fnMs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([fn, ms]) => ({
      fn,
      ms: Math.round(ms),
      share: busy > 0 ? Math.round((ms / busy) * 1000) / 10 : 0,
    }));
  return { service, busyMs: Math.round(busy), idleMs: Math.round(selfMs.get('idle') ?? 0), steps, functions };
};
