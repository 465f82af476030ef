import os from 'node:os';
import path from 'node:path';
import { EdgeConfigError, loadEdgeConfig } from '../src/config';

describe('edge configuration', () => {
  it('starts from the single-host defaults when nothing is set', () => {
    const config = loadEdgeConfig({});
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      metricsPort: 8081,
      edge: {
        apiGatewayUrl: 'http://127.0.0.1:3000',
        smsGatewayUrl: 'http://127.0.0.1:3001',
        trustedProxies: [],
        webhookRetryBudgetMs: 12_000,
        spoolDir: path.join(os.tmpdir(), 'sprout-edge-spool'),
        spoolMaxFiles: 50_000,
      },
    });
  });

  it('reads every named variable', () => {
    const config = loadEdgeConfig({
      PORT: '9090',
      HOST: '10.0.0.1',
      EDGE_HOST: '127.0.0.1',
      EDGE_METRICS_PORT: '9091',
      API_GATEWAY_URL: 'http://api-gateway:3000',
      SMS_GATEWAY_URL: 'https://sms-gateway:3001',
      EDGE_TRUSTED_PROXIES: ' 10.0.0.0/8 , ::1 ',
      EDGE_WEBHOOK_RETRY_BUDGET_MS: '0',
      EDGE_SPOOL_DIR: 'relative/spool',
      EDGE_SPOOL_MAX_FILES: '7',
    });
    expect(config.port).toBe(9090);
    expect(config.host).toBe('127.0.0.1');
    expect(config.metricsPort).toBe(9091);
    expect(config.edge).toEqual({
      apiGatewayUrl: 'http://api-gateway:3000',
      smsGatewayUrl: 'https://sms-gateway:3001',
      trustedProxies: ['10.0.0.0/8', '::1'],
      webhookRetryBudgetMs: 0,
      spoolDir: path.resolve('relative/spool'),
      spoolMaxFiles: 7,
    });
  });

  it('names every bad variable at once, with what it must be', () => {
    let caught: unknown;
    try {
      loadEdgeConfig({
        PORT: '80a',
        EDGE_METRICS_PORT: '70000',
        API_GATEWAY_URL: 'ftp://api',
        SMS_GATEWAY_URL: 'not a url',
        EDGE_TRUSTED_PROXIES: '10.0.0.1,proxy.example',
        EDGE_WEBHOOK_RETRY_BUDGET_MS: '15000',
        EDGE_SPOOL_MAX_FILES: '0',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EdgeConfigError);
    expect((caught as EdgeConfigError).problems).toEqual([
      'EDGE_TRUSTED_PROXIES: trusted proxy "proxy.example" is not an IP address or CIDR',
      'PORT must be a whole number between 1 and 65535 (got "80a")',
      'EDGE_METRICS_PORT must be a whole number between 1 and 65535 (got "70000")',
      'API_GATEWAY_URL must be a URL starting with http:// or https:// (got "ftp://api")',
      'SMS_GATEWAY_URL must be a URL starting with http:// or https:// (got "not a url")',
      'EDGE_WEBHOOK_RETRY_BUDGET_MS must be a whole number between 0 and 14000 (got "15000")',
      'EDGE_SPOOL_MAX_FILES must be a whole number between 1 and 10000000 (got "0")',
    ]);
    expect((caught as Error).message).toMatch(/^Invalid configuration: EDGE_TRUSTED_PROXIES: /);
  });
});
