import { api } from '@sprout/contracts';
import { quantile, readFlags, routeOf, summarize } from '../harness';
import { repeat } from '../load-client';

describe('readFlags', () => {
  it('reads values, bare flags and numbers with their fallbacks', () => {
    const flags = readFlags(['--scale=0.5', '--reseed', '--db=x']);
    expect(flags.has('reseed')).toBe(true);
    expect(flags.text('db')).toBe('x');
    expect(flags.positive('scale', 1)).toBe(0.5);
    expect(flags.positive('requests', 800)).toBe(800);
  });

  it('refuses what is not a flag, and numbers that are not positive (whole, where asked)', () => {
    expect(() => readFlags(['scale=1'])).toThrow('Unknown argument scale=1');
    expect(() => readFlags(['--scale=0']).positive('scale', 1)).toThrow('--scale must be a positive number');
    expect(() => readFlags(['--users=1.5']).whole('users', 1)).toThrow(
      '--users must be a positive whole number',
    );
    expect(() => readFlags(['--seconds']).positive('seconds', 1)).toThrow(
      '--seconds must be a positive number',
    );
  });
});

describe('percentiles', () => {
  it('takes the nearest rank, whatever the order', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(quantile(values, 0.5)).toBe(5);
    expect(quantile(values, 0.95)).toBe(10);
    expect(quantile([], 0.5)).toBeNaN();
    expect(summarize([1.234, 2.345, 9.876], 1)).toEqual({ n: 3, p50: 2.3, p95: 9.9, max: 9.9 });
  });
});

describe('routes and URLs', () => {
  it('names an endpoint by its contract, parameters in braces', () => {
    expect(routeOf(api.users.detail)).toBe('GET /api/admin/users/{id}');
    expect(routeOf(api.surveys.list, 'x=1')).toBe('GET /api/admin/survey-campaigns?x=1');
  });

  it('repeats one URL or takes several in turn', () => {
    expect(repeat(3, '/a')).toEqual(['/a', '/a', '/a']);
    expect(repeat(3, ['/a', '/b'])).toEqual(['/a', '/b', '/a']);
  });
});
