import Redis from 'ioredis';
import { createTestRedis } from '@sprout/testing';

describe('createTestRedis', () => {
  it('gives each call its own prefix and removes only its own keys on cleanup', async () => {
    const [a, b] = await Promise.all([createTestRedis(), createTestRedis()]);
    expect(a.prefix).not.toBe(b.prefix);
    expect(a.prefix).toMatch(/^t[0-9a-f]+$/);
    expect(a.connection.options.maxRetriesPerRequest).toBeNull();

    for (let i = 0; i < 1200; i++) await a.connection.set(`${a.prefix}:key:${i}`, 'x');
    await b.connection.set(`${b.prefix}:key`, 'y');
    await a.cleanup();

    const observer = new Redis(a.url);
    try {
      expect(await observer.keys(`${a.prefix}:*`)).toEqual([]);
      expect(await observer.get(`${b.prefix}:key`)).toBe('y');
    } finally {
      await b.cleanup();
      expect(await observer.exists(`${b.prefix}:key`)).toBe(0);
      await observer.quit();
    }
    expect(a.connection.status).toBe('end');
  });

  it('explains how to set REDIS_URL when it is missing', async () => {
    const saved = process.env.REDIS_URL;
    delete process.env.REDIS_URL;
    try {
      await expect(createTestRedis()).rejects.toThrow(/export REDIS_URL=redis:\/\//);
    } finally {
      process.env.REDIS_URL = saved;
    }
  });

  it('fails fast with a clear error when Redis is unreachable', async () => {
    const saved = process.env.REDIS_URL;
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    try {
      await expect(createTestRedis()).rejects.toThrow(/Cannot reach Redis/);
    } finally {
      process.env.REDIS_URL = saved;
    }
  });
});
