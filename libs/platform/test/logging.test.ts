import { Writable } from 'node:stream';
import { NestPinoLogger, createLogger, maskPhoneNumbers, maskPhoneNumbersDeep } from '@sprout/platform';

const capture = () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines, destination };
};

describe('phone masking', () => {
  it('masks E.164, bare US and formatted US numbers', () => {
    expect(maskPhoneNumbers('from +15035550123 ok')).toBe('from +1503***0123 ok');
    expect(maskPhoneNumbers('call 5035550123 now')).toBe('call 503***0123 now');
    expect(maskPhoneNumbers('call 15035550123')).toBe('call 1503***0123');
    expect(maskPhoneNumbers('call (503) 555-0123 or 503.555.0123')).toBe('call 503***0123 or 503***0123');
    expect(maskPhoneNumbers('+447700900123')).toBe('+4477***0123');
  });

  it('leaves ids, sids and short numbers alone', () => {
    const text =
      'SM0123456789abcdef0123456789abcdef job 42 zip 97201 id 6f1c2d3e-1234-4cde-8f00-123456789012';
    expect(maskPhoneNumbers(text)).toBe(text);
  });

  it('masks nested objects, arrays and errors', () => {
    const masked = maskPhoneNumbersDeep({ user: { phone: '+15035550123' }, list: ['5035550123'], n: 5 }) as {
      user: { phone: string };
      list: string[];
      n: number;
    };
    expect(masked).toEqual({ user: { phone: '+1503***0123' }, list: ['503***0123'], n: 5 });
  });
});

describe('logger', () => {
  it('writes JSON lines with phones masked in messages and objects', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ name: 'test', level: 'info', destination });
    logger.info({ from: '+15035550123', nested: { to: '+15035550199' } }, 'message from +15035550123');
    logger.error({ err: new Error('failed for +15035550123') }, 'boom');
    const joined = lines.join('\n');
    expect(joined).not.toContain('5550123');
    expect(joined).not.toContain('5550199');
    const first = JSON.parse(lines[0] ?? '{}');
    expect(first).toMatchObject({
      level: 'info',
      service: 'test',
      from: '+1503***0123',
      msg: 'message from +1503***0123',
    });
    expect(JSON.parse(lines[1] ?? '{}').err.message).toBe('failed for +1503***0123');
  });

  it('routes Nest logs with their context', () => {
    const { lines, destination } = capture();
    const nest = new NestPinoLogger(createLogger({ name: 'test', level: 'debug', destination }));
    nest.log('started for 5035550123', 'Bootstrap');
    nest.error('failed', 'Error: failed\n    at x', 'Webhooks');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      msg: 'started for 503***0123',
      context: 'Bootstrap',
      level: 'info',
    });
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({
      msg: 'failed',
      context: 'Webhooks',
      level: 'error',
    });
  });
});
