import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BetaSignupRequest,
  ConversationListQuery,
  QUEUE_NAMES,
  SimulatorMessageRequest,
  jobDefinitions,
  jobSchemas,
  parseJobPayload,
} from '@sprout/contracts';

const id = '6f1c2d3e-1234-4cde-8f00-123456789012';
const samples = {
  'sms.inbound': { messageId: id },
  'sms.outbound': { messageId: id },
  'sms.status': { providerSid: 'SM0123456789abcdef0123456789abcdef', status: 'delivered' },
  'delivery.check': { conversationId: id, requestedAt: '2025-05-01T10:15:42.000Z' },
  'image.analyze': { messageId: id, mediaIndex: 0 },
  'conversation.summarize': { conversationId: id },
  'survey.lifecycle': {},
  'monitor.health': {},
  'monitor.predict': {},
} as const;

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
    expect(() => parseJobPayload('sms.status', { providerSid: 'SM1', status: 'teleported' })).toThrow();
    expect(() => parseJobPayload('image.analyze', { messageId: id, mediaIndex: -1 })).toThrow();
  });

  it('keys a delivery check by conversation and minute', () => {
    const make = jobDefinitions['delivery.check'].jobId;
    const at = (iso: string) => make?.({ conversationId: id, requestedAt: iso });
    expect(at('2025-05-01T10:15:01Z')).toBe(at('2025-05-01T10:15:59Z'));
    expect(at('2025-05-01T10:15:59Z')).not.toBe(at('2025-05-01T10:16:00Z'));
  });

  it('keys a status update by sid and status', () => {
    const make = jobDefinitions['sms.status'].jobId;
    const sid = 'SM0123456789abcdef0123456789abcdef';
    expect(make?.({ providerSid: sid, status: 'sent' })).not.toBe(
      make?.({ providerSid: sid, status: 'delivered' }),
    );
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

  it('read query strings', () => {
    expect(ConversationListQuery.parse({ page: '2', showTestData: 'true' })).toEqual({
      page: 2,
      limit: 20,
      showTestData: true,
    });
    expect(ConversationListQuery.parse({}).showTestData).toBe(false);
    expect(ConversationListQuery.safeParse({ limit: '1000' }).success).toBe(false);
  });

  it('need a message or an image to simulate', () => {
    expect(SimulatorMessageRequest.safeParse({ userId: id, messageContent: '  ' }).success).toBe(false);
    expect(
      SimulatorMessageRequest.safeParse({ userId: id, imageUrl: 'https://example.com/leaf.jpg' }).success,
    ).toBe(true);
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
