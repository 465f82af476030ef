import { Module } from '@nestjs/common';
import {
  PlatformModule,
  WorkerConfigurationError,
  createServiceApp,
  loadConfig,
  securityHeaders,
} from '@sprout/platform';
import { expectProbesAnswer, securityHeaderGaps, startOnStores, useClosable } from '@sprout/testing';
import { createApp } from '../src/app';
import { SERVICE_NAME, imageProcessorConfig } from '../src/config';

describe('image-processor service', () => {
  const h = useClosable(() => startOnStores((stores) => createApp({ ...stores.config, port: 0 }, {})));

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
    await expectProbesAnswer(h.service.url, SERVICE_NAME);
  });

  it('answers health, metrics, not-found and malformed URLs with the security-header policy', async () => {
    expect(await securityHeaderGaps(String(h.service.url), securityHeaders())).toEqual([]);
  });

  it('refuses to start when image.analyze has no handler', async () => {
    const config = loadConfig(imageProcessorConfig, {}, h.config);
    @Module({
      imports: [PlatformModule.forRoot({ name: SERVICE_NAME, config, workers: { owns: ['image.analyze'] } })],
    })
    class WithoutHandlers {}
    await expect(
      createServiceApp({ module: WithoutHandlers, name: SERVICE_NAME, config }),
    ).rejects.toBeInstanceOf(WorkerConfigurationError);
  });
});
