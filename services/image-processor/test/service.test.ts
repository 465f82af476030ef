import { Module } from '@nestjs/common';
import {
  PlatformModule,
  type ServiceApp,
  WorkerConfigurationError,
  createServiceApp,
  loadConfig,
  securityHeaders,
} from '@sprout/platform';
import {
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
  securityHeaderGaps,
} from '@sprout/testing';
import { createApp } from '../src/app';
import { type ImageProcessorConfig, SERVICE_NAME, imageProcessorConfig } from '../src/config';

describe('image-processor service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let service: ServiceApp & { config: ImageProcessorConfig };

  beforeAll(async () => {
    [db, redis] = await Promise.all([createTestDatabase(), createTestRedis()]);
    service = await createApp(
      { databaseUrl: db.url, redisUrl: redis.url, bullmqPrefix: redis.prefix, logLevel: 'silent', port: 0 },
      {},
    );
  });

  afterAll(async () => {
    await service?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  it('defaults to port 3004, Twilio media hosts only, no sandbox hosts and the configured default model', () => {
    const defaults = loadConfig(imageProcessorConfig, {});
    expect(defaults.port).toBe(3004);
    expect(defaults.imageFetchAllowedHosts).toEqual([
      'api.twilio.com',
      'media.twiliocdn.com',
      '*.twiliocdn.com',
      's3-external-1.amazonaws.com',
    ]);
    expect(defaults.imageFetchSandboxMediaHosts).toEqual([]);
    expect(defaults.imageAnalysisModel).toBe('gpt-4o-mini');
  });

  it('reads the media host lists from the environment and names a bad value', () => {
    const config = loadConfig(imageProcessorConfig, {
      IMAGE_FETCH_ALLOWED_HOSTS: 'api.twilio.com, *.twiliocdn.com',
      IMAGE_FETCH_SANDBOX_MEDIA_HOSTS: '127.0.0.1:3010,[::1]:3010',
    });
    expect(config.imageFetchAllowedHosts).toEqual(['api.twilio.com', '*.twiliocdn.com']);
    expect(config.imageFetchSandboxMediaHosts).toEqual(['127.0.0.1:3010', '[::1]:3010']);
    expect(() => loadConfig(imageProcessorConfig, { IMAGE_FETCH_ALLOWED_HOSTS: 'http://x/' })).toThrow(
      /IMAGE_FETCH_ALLOWED_HOSTS must be a comma-separated list of hosts/,
    );
    // A sandbox entry names one port, never a whole host such as loopback.
    expect(() => loadConfig(imageProcessorConfig, { IMAGE_FETCH_SANDBOX_MEDIA_HOSTS: '127.0.0.1' })).toThrow(
      /IMAGE_FETCH_SANDBOX_MEDIA_HOSTS must be a comma-separated list of host:port/,
    );
    expect(() => loadConfig(imageProcessorConfig, { IMAGE_FETCH_SANDBOX_MEDIA_HOSTS: 'true' })).toThrow(
      /IMAGE_FETCH_SANDBOX_MEDIA_HOSTS/,
    );
  });

  it('answers liveness, readiness and metrics over HTTP', async () => {
    const live = await fetch(`${service.url}/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok' });
    const metrics = await fetch(`${service.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain(`service="${SERVICE_NAME}"`);
  });

  it('answers health, metrics, not-found and malformed URLs with the security-header policy', async () => {
    expect(await securityHeaderGaps(String(service.url), securityHeaders())).toEqual([]);
  });

  it('refuses to start when image.analyze has no handler', async () => {
    const config = loadConfig(
      imageProcessorConfig,
      {},
      {
        databaseUrl: db.url,
        redisUrl: redis.url,
        bullmqPrefix: redis.prefix,
        logLevel: 'silent',
      },
    );
    @Module({
      imports: [PlatformModule.forRoot({ name: SERVICE_NAME, config, workers: { owns: ['image.analyze'] } })],
    })
    class WithoutHandlers {}
    await expect(
      createServiceApp({ module: WithoutHandlers, name: SERVICE_NAME, config }),
    ).rejects.toBeInstanceOf(WorkerConfigurationError);
  });
});
