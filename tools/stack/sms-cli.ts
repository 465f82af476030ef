import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ConfigError,
  defineConfig,
  findRepoRoot,
  loadConfig,
  publicBaseUrlField,
  twilioConfigFields,
} from '@sprout/platform';
import { signTwilioWebhook } from '@sprout/testing';

// `npm run sms -- --from +15035550123 "When do I plant tomatoes?"`: texts the running stack the
// way Twilio delivers an SMS (a signed webhook) and prints the reply when it arrives. In the
// sandbox the reply is read from the fake Twilio; with real Twilio it goes to the phone.

export const DEFAULT_FROM = '+15035550123';

export const USAGE = `Usage: npm run sms -- [--from +15035550123] [options] "<message>"

Sends a signed Twilio webhook to the running stack and prints the reply.

Options:
  --from <number>   the sender's phone number, E.164 (default ${DEFAULT_FROM})
  --url <url>       the inbound webhook (default http://localhost:8080/webhooks/twilio/sms)
  --to <number>     Sprout's number (default TWILIO_PHONE_NUMBER, else the sandbox number)
  --zip <zip>       the carrier's ZIP code of the sender (Twilio's FromZip)
  --timeout <s>     seconds to wait for the reply (default 60)
  --help            this text

The settings of a running \`npm start\` sandbox are read from .data/ (sandbox.json and the
sandbox's auth token). Otherwise: TWILIO_AUTH_TOKEN signs the webhook; PUBLIC_BASE_URL, when
set, is the origin the signature is computed on (the gateway checks PUBLIC_BASE_URL + path);
with TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and no TWILIO_API_BASE_URL the reply goes to the
phone by real Twilio, else it is read from the fake Twilio at TWILIO_API_BASE_URL (default
http://127.0.0.1:3010).`;

const DEFAULT_TIMEOUT_SECONDS = 60;
/** After a reply, further messages arriving within this time belong to it (e.g. a multi-part answer). */
const QUIET_AFTER_REPLY_MS = 2_000;
const POLL_INTERVAL_MS = 500;
const E164 = /^\+[1-9]\d{7,14}$/;

export class UsageError extends Error {}

export interface SmsCommand {
  from: string;
  to: string;
  body: string;
  zip?: string;
  /** Where the webhook is posted. */
  url: string;
  /** The URL the signature is computed on (what Twilio would have called). */
  signedUrl: string;
  accountSid: string;
  authToken: string;
  /** The fake Twilio's origin in the sandbox; null with real Twilio. */
  fakeTwilioUrl: string | null;
  timeoutMs: number;
}

const cliConfig = defineConfig({ ...twilioConfigFields, publicBaseUrl: publicBaseUrlField });

/** What a running `npm start` sandbox leaves in .data/ for tools like this one. */
export interface RunningSandbox {
  fakeTwilioUrl: string;
  publicBaseUrl: string;
  phoneNumber: string;
  /** .data/twilio-sandbox-auth-token, when start generated it. */
  authToken?: string;
}

/** The running sandbox's settings from <repo>/.data, or null when no sandbox stack is running. */
export function readRunningSandbox(dataDir = path.join(findRepoRoot(), '.data')): RunningSandbox | null {
  let info: Partial<RunningSandbox>;
  try {
    info = JSON.parse(fs.readFileSync(path.join(dataDir, 'sandbox.json'), 'utf8')) as Partial<RunningSandbox>;
  } catch {
    return null;
  }
  if (
    typeof info.fakeTwilioUrl !== 'string' ||
    typeof info.publicBaseUrl !== 'string' ||
    typeof info.phoneNumber !== 'string'
  )
    return null;
  let authToken: string | undefined;
  try {
    authToken = fs.readFileSync(path.join(dataDir, 'twilio-sandbox-auth-token'), 'utf8').trim() || undefined;
  } catch {
    authToken = undefined;
  }
  return {
    fakeTwilioUrl: info.fakeTwilioUrl,
    publicBaseUrl: info.publicBaseUrl,
    phoneNumber: info.phoneNumber,
    ...(authToken === undefined ? {} : { authToken }),
  };
}

/**
 * Reads the command line, the environment (the same variables and defaults as the stack) and a
 * running sandbox's settings: the environment wins, then the sandbox, then the defaults.
 */
export function parseSmsCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  sandbox: RunningSandbox | null = null,
): SmsCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      url: { type: 'string' },
      to: { type: 'string' },
      zip: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  const from = values.from?.trim() || DEFAULT_FROM;
  if (!E164.test(from))
    throw new UsageError(`--from must be an E.164 number such as +15035550123, got ${from}`);
  const body = positionals.join(' ').trim();
  if (body === '') throw new UsageError(`The message text is missing.\n\n${USAGE}`);
  if (body.length > 1600) throw new UsageError('The message is longer than 1600 characters.');

  const set = (name: string): string | undefined => env[name]?.trim() || undefined;
  const effective = {
    ...env,
    TWILIO_AUTH_TOKEN: set('TWILIO_AUTH_TOKEN') ?? sandbox?.authToken,
    TWILIO_PHONE_NUMBER: set('TWILIO_PHONE_NUMBER') ?? sandbox?.phoneNumber,
    PUBLIC_BASE_URL: set('PUBLIC_BASE_URL') ?? sandbox?.publicBaseUrl,
    TWILIO_API_BASE_URL: set('TWILIO_API_BASE_URL') ?? sandbox?.fakeTwilioUrl,
  };
  let config;
  try {
    config = loadConfig(cliConfig, effective);
  } catch (error) {
    throw new UsageError(error instanceof ConfigError ? error.message : String(error));
  }
  const to = values.to?.trim() || config.twilioPhoneNumber;
  if (!E164.test(to)) throw new UsageError(`--to must be an E.164 number, got ${to}`);

  const url = values.url ?? `http://localhost:${set('PORT') ?? '8080'}/webhooks/twilio/sms`;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new UsageError(`--url is not a URL: ${url}`);
  }
  const signedUrl = effective.PUBLIC_BASE_URL
    ? `${config.publicBaseUrl}${target.pathname}${target.search}`
    : target.toString();

  const timeoutSeconds = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UsageError(`--timeout must be a number of seconds, got ${values.timeout}`);

  const realTwilio =
    !config.twilioApiBaseUrl &&
    Boolean(env.TWILIO_ACCOUNT_SID?.trim()) &&
    Boolean(env.TWILIO_AUTH_TOKEN?.trim());
  const fakeTwilioUrl = realTwilio
    ? null
    : (config.twilioApiBaseUrl ?? `http://127.0.0.1:${env.FAKE_TWILIO_PORT?.trim() || '3010'}`);

  const zip = values.zip?.trim();
  return {
    from,
    to,
    body,
    ...(zip ? { zip } : {}),
    url: target.toString(),
    signedUrl,
    accountSid: config.twilioAccountSid,
    authToken: config.twilioAuthToken,
    fakeTwilioUrl,
    timeoutMs: timeoutSeconds * 1000,
  };
}

/** The form Twilio posts for an inbound SMS. */
export function inboundParams(command: SmsCommand, messageSid: string): Record<string, string> {
  return {
    ToCountry: 'US',
    FromCountry: 'US',
    SmsStatus: 'received',
    NumSegments: '1',
    ApiVersion: '2010-04-01',
    AccountSid: command.accountSid,
    SmsMessageSid: messageSid,
    SmsSid: messageSid,
    MessageSid: messageSid,
    From: command.from,
    To: command.to,
    Body: command.body,
    NumMedia: '0',
    ...(command.zip === undefined ? {} : { FromZip: command.zip }),
  };
}

interface FakeMessage {
  sid: string;
  to: string;
  body: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fakeMessagesTo(fakeTwilioUrl: string, to: string): Promise<FakeMessage[]> {
  const response = await fetch(`${fakeTwilioUrl}/_fake/messages`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`${fakeTwilioUrl}/_fake/messages answered ${response.status}`);
  const { messages } = (await response.json()) as { messages: FakeMessage[] };
  return messages.filter((m) => m.to === to);
}

const describeFailure = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
};

export interface SmsRunResult {
  status: 'replied' | 'sent-to-phone' | 'no-reply' | 'rejected';
  replies: string[];
}

/** Posts the webhook, then (sandbox) waits for the reply. `print` writes one line to the console. */
export async function sendSms(command: SmsCommand, print: (line: string) => void): Promise<SmsRunResult> {
  const sid = `SM${randomBytes(16).toString('hex')}`;
  const params = inboundParams(command, sid);

  // The sandbox's messages to this number before ours, so only new ones count as the reply.
  let seen = new Set<string>();
  if (command.fakeTwilioUrl !== null) {
    try {
      seen = new Set((await fakeMessagesTo(command.fakeTwilioUrl, command.from)).map((m) => m.sid));
    } catch (error) {
      throw new Error(
        `Cannot read the SMS sandbox's messages at ${command.fakeTwilioUrl} (${describeFailure(error)}). ` +
          'Is the stack running (npm start)? With real Twilio set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.',
      );
    }
  }

  print(`> ${command.from} to ${command.to}: ${command.body}`);
  let response: Response;
  try {
    response = await fetch(command.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': signTwilioWebhook(command.authToken, command.signedUrl, params),
        'User-Agent': 'TwilioProxy/1.1',
      },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new Error(
      `Could not reach ${command.url} (${describeFailure(error)}). Is the stack running (npm start)?`,
    );
  }
  await response.arrayBuffer();
  if (response.status === 403) {
    print(
      `The webhook's signature was rejected (403). The gateway checks it with TWILIO_AUTH_TOKEN against ` +
        `PUBLIC_BASE_URL + path; this command signed ${command.signedUrl}. Set TWILIO_AUTH_TOKEN and ` +
        'PUBLIC_BASE_URL as the stack has them.',
    );
    return { status: 'rejected', replies: [] };
  }
  if (!response.ok) {
    print(`The webhook answered ${response.status}.`);
    return { status: 'rejected', replies: [] };
  }
  print(`  delivered to ${command.url} (${response.status}, MessageSid ${sid})`);

  if (command.fakeTwilioUrl === null) {
    print(`  Real Twilio: the reply goes to ${command.from} by SMS.`);
    return { status: 'sent-to-phone', replies: [] };
  }

  print('  waiting for the reply...');
  const replies: string[] = [];
  const deadline = Date.now() + command.timeoutMs;
  let quietUntil = Number.POSITIVE_INFINITY;
  while (Date.now() < Math.min(deadline, quietUntil)) {
    await sleep(POLL_INTERVAL_MS);
    let fresh: FakeMessage[];
    try {
      fresh = (await fakeMessagesTo(command.fakeTwilioUrl, command.from)).filter((m) => !seen.has(m.sid));
    } catch (error) {
      print(`  could not read the sandbox's messages: ${describeFailure(error)}`);
      continue;
    }
    for (const message of fresh) {
      seen.add(message.sid);
      replies.push(message.body);
      print(`< ${message.body}`);
      quietUntil = Date.now() + QUIET_AFTER_REPLY_MS;
    }
  }
  if (replies.length === 0) {
    print(
      `No reply within ${Math.round(command.timeoutMs / 1000)} s. The admin console's Messages page ` +
        'shows what happened to the message.',
    );
    return { status: 'no-reply', replies };
  }
  return { status: 'replied', replies };
}

/** The whole command: exit code 0 with a reply (or a send to a real phone), 1 without, 2 on bad usage. */
export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  let command: SmsCommand;
  try {
    command = parseSmsCommand(argv, env, readRunningSandbox());
  } catch (error) {
    if (error instanceof UsageError) {
      (argv.includes('--help') ? out : err)(error.message);
      return argv.includes('--help') ? 0 : 2;
    }
    err(describeFailure(error));
    return 2;
  }
  try {
    const result = await sendSms(command, out);
    return result.status === 'replied' || result.status === 'sent-to-phone' ? 0 : 1;
  } catch (error) {
    err(describeFailure(error));
    return 1;
  }
}
