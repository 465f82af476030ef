import {
  adminConfigFields,
  ConfigError,
  coreConfigFields,
  defineConfig,
  loadConfig,
  portField,
  twilioConfigFields,
} from '@sprout/platform';

const definition = defineConfig({ ...coreConfigFields, port: portField(3001), ...twilioConfigFields });

describe('loadConfig', () => {
  it('works with no variables at all', () => {
    const config = loadConfig(definition, {});
    expect(config.port).toBe(3001);
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/postgres');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.bullmqPrefix).toBe('sprout');
    expect(config.twilioApiBaseUrl).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('parses typed values and treats empty strings as unset', () => {
    const config = loadConfig(definition, {
      PORT: '4000',
      LOG_LEVEL: 'debug',
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9/',
      BULLMQ_PREFIX: '',
    });
    expect(config.port).toBe(4000);
    expect(config.logLevel).toBe('debug');
    expect(config.twilioApiBaseUrl).toBe('http://127.0.0.1:9');
    expect(config.bullmqPrefix).toBe('sprout');
  });

  it('names every bad variable and what is wrong with it', () => {
    let error: unknown;
    try {
      loadConfig(definition, { PORT: 'abc', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('Invalid configuration: ');
    expect(message).toContain('PORT must be a number between 1 and 65535 (got "abc")');
    expect(message).toContain('REDIS_URL must be a URL starting with redis:// or rediss://');
    expect(message).toContain(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
  });

  it('never echoes a secret', () => {
    expect(() => loadConfig(definition, { DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(
      /DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\/ \(got a value of \d+ characters\)/,
    );
    expect(() => loadConfig(definition, { DATABASE_URL: 'mysql://user:hunter2@db/x' })).not.toThrow(
      /hunter2/,
    );
  });

  it('requires secrets with local defaults in production', () => {
    expect(() => loadConfig(definition, { NODE_ENV: 'production' })).toThrow(
      'TWILIO_AUTH_TOKEN must be set when NODE_ENV is production',
    );
    expect(
      loadConfig(definition, { NODE_ENV: 'production', TWILIO_AUTH_TOKEN: 'secret-token' }).twilioAuthToken,
    ).toBe('secret-token');
  });

  it('has no ADMIN_PASSWORD default: unset outside production, required in production', () => {
    const admin = defineConfig({ ...coreConfigFields, ...adminConfigFields });
    expect(loadConfig(admin, {}).adminPassword).toBeUndefined();
    expect(loadConfig(admin, { ADMIN_PASSWORD: 'chosen-password' }).adminPassword).toBe('chosen-password');
    expect(() => loadConfig(admin, { ADMIN_PASSWORD: 'short' })).toThrow(
      'ADMIN_PASSWORD must be at least 8 characters long (got a value of 5 characters)',
    );
    expect(() => loadConfig(admin, { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) })).toThrow(
      'ADMIN_PASSWORD must be set when NODE_ENV is production',
    );
  });

  it('applies typed overrides after validation', () => {
    const config = loadConfig(definition, { PORT: 'abc' }, { port: 0 });
    expect(config.port).toBe(0);
  });
});
