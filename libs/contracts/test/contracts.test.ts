import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BetaSignupRequest,
  CreateTestUserRequest,
  TestDataQuery,
  api,
  QUEUE_NAMES,
  SimulatorMessageRequest,
  type JobResult,
  type QueueName,
  jobDefinitions,
  jobResultSchemas,
  jobSchemas,
  parseJobPayload,
  parseJobResult,
} from '@sprout/contracts';

const id = '6f1c2d3e-1234-4cde-8f00-123456789012';
const samples = {
  'sms.inbound': { messageId: id },
  'sms.outbound': { messageId: id },
  'sms.status': { callbacks: [{ providerSid: 'SM0123456789abcdef0123456789abcdef', status: 'delivered' }] },
  'delivery.check': { conversationId: id, requestedAt: '2025-05-01T10:15:42.000Z' },
  'sms.inbound-sweep': {},
  'image.analyze': { messageId: id, mediaIndex: 0 },
  'conversation.summarize': { conversationId: id },
  'survey.lifecycle': {},
  'monitor.health': {},
  'calendar.plan': {},
  'calendar.send': {},
  'calendar.weather': {},
  'monitor.predict': {},
} as const;

const at = '2025-05-01T10:15:42.000Z';
const resultSamples: { [Q in QueueName]: JobResult<Q> } = {
  'sms.inbound': { outcome: 'replied', replyMessageId: id },
  'sms.outbound': 'sent',
  'sms.status': { updated: 1, unchanged: 0, unknownMessage: 0, ignored: 1 },
  'delivery.check': { checked: 3, changed: 1 },
  'sms.inbound-sweep': { enqueued: 1, retried: 0, inQueue: 2, settled: 0, abandoned: 0, expired: 0 },
  'image.analyze': {
    status: 'processed',
    messageId: id,
    mediaIndex: 0,
    analysis: 'A tomato leaf with early blight.',
    contentType: 'image/jpeg',
    tokensUsed: 420,
    cost: 0.0012,
    model: 'gpt-4o-mini',
    processingTime: 812,
    error: null,
  },
  'conversation.summarize': { outcome: 'summarized', writtenBy: 'rules' },
  'survey.lifecycle': {
    campaigns: 1,
    transitions: [{ campaignId: id, from: 'scheduled', to: 'live' }],
    newlyTargeted: 4,
  },
  'calendar.plan': { subscribers: 3, scheduled: 5, capped: 1, paused: false },
  'calendar.send': { sent: 2, skipped: 0, cancelled: 1, later: 4 },
  'calendar.weather': { grids: 2, failed: 1, alerts: 1, texts: 3 },
  'monitor.health': {
    overallHealth: 'healthy',
    timestamp: at,
    services: { database: { available: true, lastCheck: at, consecutiveFailures: 0 } },
  },
  'monitor.predict': {
    trends: {
      trends: { responseTimeHistory: [{ timestamp: at, value: 1.2 }], errorRateHistory: [] },
      timestamp: at,
    },
    predictions: { predictions: [], timestamp: at },
    system: {
      status: 'normal',
      timestamp: at,
      activePredictions: 0,
      metrics: {
        resourceUtilization: { heapUsed: 40, heapTotal: 64, rss: 120, external: 2 },
        averageResponseTime: 950,
        errorRate: 0,
        queueDepth: 0,
      },
    },
  },
};

describe('job definitions', () => {
  it('define every queue', () => {
    expect(Object.keys(jobDefinitions).sort()).toEqual([...QUEUE_NAMES].sort());
    expect(Object.keys(jobSchemas).sort()).toEqual([...QUEUE_NAMES].sort());
  });

  it.each(QUEUE_NAMES)('%s: parses a valid payload and makes ids BullMQ accepts', (queue) => {
    const definition = jobDefinitions[queue];
    const payload = parseJobPayload(queue, samples[queue]);
    const ids = [definition.jobId, definition.deduplicate?.id].flatMap((make) =>
      make === undefined ? [] : [(make as (p: unknown) => string)(payload)],
    );
    for (const jobId of ids) {
      expect(jobId).not.toContain(':');
      expect(jobId).toMatch(/^[A-Za-z][A-Za-z0-9_.-]*$/);
    }
    expect(definition.attempts).toBeGreaterThanOrEqual(1);
  });

  it('rejects payloads with bad or missing ids', () => {
    expect(() => parseJobPayload('sms.inbound', { messageId: 'x' })).toThrow();
    expect(() => parseJobPayload('sms.outbound', {})).toThrow();
    expect(() =>
      parseJobPayload('sms.status', { callbacks: [{ providerSid: 'SM1', status: 'teleported' }] }),
    ).toThrow();
    expect(() => parseJobPayload('sms.status', { callbacks: [] })).toThrow();
    expect(() => parseJobPayload('image.analyze', { messageId: id, mediaIndex: -1 })).toThrow();
  });

  it("declare every queue's result, and a result survives the JSON round trip BullMQ gives it", () => {
    expect(Object.keys(jobResultSchemas).sort()).toEqual([...QUEUE_NAMES].sort());
    for (const queue of QUEUE_NAMES) {
      expect(jobDefinitions[queue].result).toBe(jobResultSchemas[queue]);
      const stored: unknown = JSON.parse(JSON.stringify(resultSamples[queue]));
      expect(parseJobResult(queue, stored)).toEqual(resultSamples[queue]);
    }
  });

  it('rejects results that break the contract', () => {
    expect(() => parseJobResult('sms.inbound', { outcome: 'replied' })).toThrow(/replyMessageId/);
    expect(() => parseJobResult('delivery.check', { changed: 1 })).toThrow(/checked/);
    expect(() => parseJobResult('sms.outbound', 'teleported')).toThrow();
    expect(() =>
      parseJobResult('survey.lifecycle', {
        campaigns: 1,
        transitions: [{ campaignId: id, from: 'live', to: 'gone' }],
        newlyTargeted: 0,
      }),
    ).toThrow(/to/);
  });

  it('keys a delivery check by conversation and minute', () => {
    const make = jobDefinitions['delivery.check'].jobId;
    const at = (iso: string) => make?.({ conversationId: id, requestedAt: iso });
    expect(at('2025-05-01T10:15:01Z')).toBe(at('2025-05-01T10:15:59Z'));
    expect(at('2025-05-01T10:15:59Z')).not.toBe(at('2025-05-01T10:16:00Z'));
  });
});

describe('API request schemas', () => {
  it('validate with readable messages', () => {
    const signup = BetaSignupRequest.safeParse({ email: 'not-an-email', region: '' });
    expect(signup.success).toBe(false);
    expect(signup.error?.issues.map((i) => i.message)).toEqual([
      'Please provide a valid email address.',
      'Please provide both email and region.',
    ]);
    expect(BetaSignupRequest.parse({ email: 'a@b.co', region: ' 97201 ' })).toEqual({
      email: 'a@b.co',
      region: '97201',
    });
  });

  it('read query strings as the browser sends them, or as the web apps pass them', () => {
    const query = api.messages.list.query;
    expect(query.parse({ page: '2', showTestData: 'true' })).toEqual({
      page: 2,
      limit: undefined,
      search: '',
      showTestData: true,
    });
    expect(query.parse({ page: 3, showTestData: true })).toMatchObject({ page: 3, showTestData: true });
    expect(query.parse({}).showTestData).toBe(false);
    expect(query.safeParse({ limit: '1000' }).success).toBe(false);
  });

  it('have one test-data flag: true/1 is test data, false/0/empty/absent real data, anything else refused', () => {
    for (const value of [true, 'true', '1'])
      expect(TestDataQuery.parse({ showTestData: value }).showTestData).toBe(true);
    for (const value of [false, 'false', '0', '', undefined])
      expect(TestDataQuery.parse({ showTestData: value }).showTestData).toBe(false);
    for (const value of ['yes', 'TRUE', 2])
      expect(TestDataQuery.safeParse({ showTestData: value }).success).toBe(false);
  });

  it('need a message or an image to simulate', () => {
    expect(SimulatorMessageRequest.safeParse({ userId: id, messageContent: '  ' }).success).toBe(false);
    expect(
      SimulatorMessageRequest.safeParse({ userId: id, imageUrl: 'https://example.com/leaf.jpg' }).success,
    ).toBe(true);
  });

  it('read a blank test user model or image type as none and refuse one of the wrong form', () => {
    const model = (testUserModel: unknown) =>
      CreateTestUserRequest.safeParse({ testUserName: 'Ann', testUserModel });
    const type = (contentType: unknown) =>
      SimulatorMessageRequest.safeParse({ userId: id, messageContent: 'hi', contentType });
    for (const blank of [undefined, null, '', '  ']) {
      expect(model(blank).data?.testUserModel).toBeNull();
      expect(type(blank).data?.contentType).toBeNull();
    }
    expect(model(' gpt-4o-mini ').data?.testUserModel).toBe('gpt-4o-mini');
    expect(type('image/png').data?.contentType).toBe('image/png');
    expect(model('gpt 4o').error?.issues[0]?.message).toBe('must be a model name such as gpt-4o-mini');
    expect(type('text/html').error?.issues[0]?.message).toBe('must be an image type such as image/jpeg');
    expect(model(`m${'x'.repeat(100)}`).error?.issues[0]?.message).toBe('must be at most 100 characters');
    expect(type(42).error?.issues[0]?.message).toBe('must be text');
  });
});

describe('browser safety', () => {
  it('imports nothing but zod and its own files', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts')) files.push(full);
      }
    };
    walk(path.join(__dirname, '..', 'src'));
    const imports = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? ''),
    );
    expect(imports.filter((spec) => spec !== 'zod' && !spec.startsWith('.'))).toEqual([]);
  });
});
