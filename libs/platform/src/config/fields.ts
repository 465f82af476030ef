import * as fs from 'node:fs';
import { isIP } from 'node:net';
import * as path from 'node:path';
import { DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS, isTimeZone } from '@sprout/domain';
import { z } from 'zod';
import { field } from './config';

// Reusable configuration pieces. Every default makes a local run work with no variables at all;
// secrets with a local default must be set explicitly in production.

/** The repository root: the nearest ancestor folder whose package.json declares workspaces. */
export const findRepoRoot = (from: string = __dirname): string => {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const parsed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { workspaces?: unknown };
      if (parsed.workspaces !== undefined) return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
};

const isUrl = (value: string, protocols: readonly string[]): boolean => {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

const protocolList = (protocols: readonly string[]): string => protocols.map((p) => `${p}//`).join(' or ');

export const urlSchema = (defaultValue: string, protocols: readonly string[]) =>
  z
    .string()
    .default(defaultValue)
    .refine((v) => isUrl(v, protocols), { error: `must be a URL starting with ${protocolList(protocols)}` })
    .transform((v) => v.replace(/\/+$/, ''));

export const optionalUrlSchema = (protocols: readonly string[]) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || isUrl(v, protocols), {
      error: `must be a URL starting with ${protocolList(protocols)}`,
    })
    .transform((v) => (v === undefined ? undefined : v.replace(/\/+$/, '')));

export const integerSchema = (defaultValue: number, min: number, max: number) =>
  z
    .string()
    .default(String(defaultValue))
    .refine((v) => /^-?\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max, {
      error: `must be a whole number between ${min} and ${max}`,
    })
    .transform((v) => Number(v));

export const numberSchema = (defaultValue: number, min: number, max: number) =>
  z
    .string()
    .default(String(defaultValue))
    .refine((v) => v.trim() !== '' && Number.isFinite(Number(v)) && Number(v) >= min && Number(v) <= max, {
      error: `must be a number between ${min} and ${max}`,
    })
    .transform((v) => Number(v));

export const booleanSchema = (defaultValue: boolean) =>
  z
    .string()
    .default(String(defaultValue))
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v.trim().toLowerCase()), {
      error: 'must be true or false',
    })
    .transform((v) => ['true', '1', 'yes'].includes(v.trim().toLowerCase()));

export const enumSchema = <const T extends readonly [string, ...string[]]>(
  values: T,
  defaultValue: T[number],
) =>
  z
    .string()
    .default(defaultValue)
    .refine((v): v is T[number] => (values as readonly string[]).includes(v), {
      error: `must be one of ${values.join(', ')}`,
    });

export const stringSchema = (defaultValue: string, minLength = 1) =>
  z
    .string()
    .default(defaultValue)
    .refine((v) => v.length >= minLength, {
      error: minLength > 1 ? `must be at least ${minLength} characters long` : 'must not be empty',
    });

export const optionalStringSchema = () => z.string().optional();

/** HTTP port of a service; each service passes its own default (3000..3005). */
export const portField = (defaultPort: number) =>
  field(
    'PORT',
    z
      .string()
      .default(String(defaultPort))
      .refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 65535, {
        error: 'must be a number between 1 and 65535',
      })
      .transform((v) => Number(v)),
  );

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const repoRoot = findRepoRoot();

const isAddressOrCidr = (entry: string): boolean => {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

const trustProxySchema = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e.length > 0),
  )
  .refine((entries) => entries.every(isAddressOrCidr), {
    error: 'must be a comma-separated list of IP addresses and CIDRs',
  });

/** Every service: environment, logging, Postgres, Redis and BullMQ. */
export const coreConfigFields = {
  nodeEnv: field('NODE_ENV', enumSchema(['development', 'production', 'test'] as const, 'development')),
  logLevel: field('LOG_LEVEL', enumSchema(LOG_LEVELS, 'info')),
  host: field('HOST', stringSchema('0.0.0.0')),
  databaseUrl: field(
    'DATABASE_URL',
    urlSchema('postgres://postgres@127.0.0.1:5432/postgres', ['postgres:', 'postgresql:']),
    {
      secret: true,
    },
  ),
  /**
   * The most Postgres connections one process opens (pg's own default). A job or request holds one
   * only while its statements run (never across a model or Twilio call), so a pool smaller than the
   * worker concurrency is fine; replicas x pool size, summed over services, must stay under the
   * server's max_connections.
   */
  databasePoolSize: field('DATABASE_POOL_SIZE', integerSchema(10, 1, 200)),
  redisUrl: field('REDIS_URL', urlSchema('redis://127.0.0.1:6379', ['redis:', 'rediss:']), { secret: true }),
  bullmqPrefix: field(
    'BULLMQ_PREFIX',
    z
      .string()
      .default('sprout')
      .refine((v) => /^[A-Za-z0-9_-]{1,64}$/.test(v), {
        error: 'must be 1 to 64 letters, digits, "-" or "_"',
      }),
  ),
  /** Seconds a graceful shutdown may take before the process exits anyway. */
  shutdownTimeoutSeconds: field('SHUTDOWN_TIMEOUT_SECONDS', integerSchema(25, 1, 600)),
  /**
   * Peers (IPs and CIDRs, comma-separated) whose X-Forwarded-For/Proto are believed: the edge.
   * Default none: the client IP is the socket's and a client cannot claim https.
   */
  trustProxy: field('TRUST_PROXY', trustProxySchema),
};

/**
 * A gap longer than this between a user's messages opens a new conversation (and is when the old
 * one is summarised). Every service that records messages reads the same variable.
 */
export const conversationIdleTimeoutField = field(
  'CONVERSATION_IDLE_TIMEOUT_MS',
  integerSchema(DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS, 1_000, 7 * 24 * 60 * 60 * 1000),
);

/** The public origin Twilio and browsers reach (the edge); webhook signatures are computed on it. */
export const publicBaseUrlField = field(
  'PUBLIC_BASE_URL',
  urlSchema('http://localhost:8080', ['http:', 'https:']),
);

export const twilioConfigFields = {
  twilioAccountSid: field(
    'TWILIO_ACCOUNT_SID',
    z
      .string()
      .default('AC00000000000000000000000000000000')
      .refine((v) => /^AC[0-9a-fA-F]{32}$/.test(v), {
        error: 'must be "AC" followed by 32 hexadecimal characters',
      }),
  ),
  twilioAuthToken: field('TWILIO_AUTH_TOKEN', stringSchema('sprout-sandbox-auth-token'), {
    secret: true,
    requiredInProduction: true,
  }),
  twilioPhoneNumber: field(
    'TWILIO_PHONE_NUMBER',
    z
      .string()
      .default('+15005550006')
      .refine((v) => /^\+[1-9]\d{7,14}$/.test(v), {
        error: 'must be an E.164 phone number such as +15035550123',
      }),
  ),
  /** The fake Twilio server (sandbox); unset means the real Twilio API. */
  twilioApiBaseUrl: field('TWILIO_API_BASE_URL', optionalUrlSchema(['http:', 'https:'])),
};

export const openAiConfigFields = {
  /** Without a key the offline advisor answers. */
  openaiApiKey: field('OPENAI_API_KEY', optionalStringSchema(), { secret: true }),
  openaiBaseUrl: field('OPENAI_BASE_URL', optionalUrlSchema(['http:', 'https:'])),
};

export const adminConfigFields = {
  adminUsername: field('ADMIN_USERNAME', stringSchema('admin')),
  /**
   * No default: unset outside production, api-gateway generates the first admin's password and
   * logs it once (`npm start` passes its own, kept in .data/admin-password).
   */
  adminPassword: field(
    'ADMIN_PASSWORD',
    z
      .string()
      .optional()
      .refine((v) => v === undefined || v.length >= 8, { error: 'must be at least 8 characters long' }),
    { secret: true, requiredInProduction: true },
  ),
  sessionSecret: field('SESSION_SECRET', stringSchema('sprout-local-session-secret-not-for-production', 32), {
    secret: true,
    requiredInProduction: true,
  }),
};

export const webConfigFields = {
  webPublicDist: field('WEB_PUBLIC_DIST', stringSchema(path.join(repoRoot, 'web-public', 'dist'))),
  webAdminDist: field('WEB_ADMIN_DIST', stringSchema(path.join(repoRoot, 'web-admin', 'dist'))),
};

/**
 * The most garden calendar tips a subscriber gets in a calendar month of their own time zone
 * (survey-scheduler holds to it; the TIPS confirmation says it). Weather alerts are not counted.
 */
export const gardenTipsPerMonthField = field('GARDEN_TIPS_PER_MONTH', integerSchema(4, 1, 31));

export const gardeningConfigFields = {
  /** A USDA ZIP-code zone CSV that replaces the table shipped in libs/gardening; unset: the shipped one. */
  hardinessZonesPath: field('HARDINESS_ZONES_PATH', optionalStringSchema()),
};

/** The day the daily spending limit counts: midnight to midnight in this IANA time zone. */
export const spendTimeZoneField = field(
  'SPEND_TIME_ZONE',
  z
    .string()
    .default('UTC')
    .refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or America/Los_Angeles' }),
);
