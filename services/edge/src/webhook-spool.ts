import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';

/** A Twilio webhook as the edge received it and would send it on: replayed byte for byte. */
export interface SpooledWebhook {
  method: string;
  /** Path and query, as received. */
  url: string;
  /** The headers sent to sms-gateway (X-Twilio-Signature, content type, the edge's X-Forwarded-*). */
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
  /** When the edge received it (ISO 8601). */
  receivedAt: string;
}

interface SpoolFile {
  method: string;
  url: string;
  headers: http.OutgoingHttpHeaders;
  bodyBase64: string;
  receivedAt: string;
}

export class SpoolFullError extends Error {
  constructor(limit: number) {
    super(`the webhook spool holds ${limit} files already`);
    this.name = 'SpoolFullError';
  }
}

/** fsync of a folder makes a rename in it durable; some file systems cannot, which is no worse. */
async function syncFolder(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // EISDIR / EINVAL / EPERM where folders cannot be synced
  } finally {
    await handle?.close();
  }
}

/**
 * Webhooks the edge answered but could not deliver, one file each, kept on disk until sms-gateway
 * takes them. A file is written under tmp/, fsynced, then renamed into pending/ (and the folder
 * fsynced), so pending/ holds only whole webhooks, even after a crash or power loss. Names sort
 * by arrival: replays go oldest first. A webhook sms-gateway refuses is moved to rejected/.
 */
export class WebhookSpool {
  readonly pendingDir: string;
  readonly rejectedDir: string;
  private readonly tmpDir: string;
  private sequence = 0;
  private count = 0;
  private readonly ready: Promise<void>;

  constructor(
    readonly dir: string,
    private readonly maxFiles: number,
  ) {
    this.pendingDir = path.join(dir, 'pending');
    this.rejectedDir = path.join(dir, 'rejected');
    this.tmpDir = path.join(dir, 'tmp');
    this.ready = this.prepare();
    // A failure surfaces on the first put() or list(); unobserved it must not crash the process.
    this.ready.catch(() => undefined);
  }

  private async prepare(): Promise<void> {
    for (const dir of [this.pendingDir, this.rejectedDir, this.tmpDir])
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    // Half-written files of a process that died mid-write: never answered 200, so never promised.
    for (const name of await fs.readdir(this.tmpDir))
      await fs.rm(path.join(this.tmpDir, name), { force: true });
    this.count = (await fs.readdir(this.pendingDir)).filter((n) => n.endsWith('.json')).length;
  }

  /** Resolves once the folders exist (rejects when they cannot be made or read). */
  opened(): Promise<void> {
    return this.ready;
  }

  /** Webhooks waiting for a replay. */
  get pending(): number {
    return this.count;
  }

  /** Keeps a webhook durably; resolves once it is on disk. */
  async put(webhook: SpooledWebhook): Promise<string> {
    await this.ready;
    if (this.count >= this.maxFiles) throw new SpoolFullError(this.maxFiles);
    this.sequence = (this.sequence + 1) % 1_000_000;
    const name = [
      String(Date.now()).padStart(15, '0'),
      String(process.pid).padStart(7, '0'),
      String(this.sequence).padStart(6, '0'),
      randomBytes(4).toString('hex'),
    ].join('-');
    const file: SpoolFile = {
      method: webhook.method,
      url: webhook.url,
      headers: webhook.headers,
      bodyBase64: webhook.body.toString('base64'),
      receivedAt: webhook.receivedAt,
    };
    const temporary = path.join(this.tmpDir, `${name}.json`);
    const handle = await fs.open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(file));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, path.join(this.pendingDir, `${name}.json`));
    await syncFolder(this.pendingDir);
    this.count += 1;
    return `${name}.json`;
  }

  /** The pending files' names, oldest first. */
  async list(): Promise<string[]> {
    await this.ready;
    const names = (await fs.readdir(this.pendingDir)).filter((n) => n.endsWith('.json')).sort();
    this.count = names.length;
    return names;
  }

  async read(name: string): Promise<SpooledWebhook> {
    const file = JSON.parse(await fs.readFile(path.join(this.pendingDir, name), 'utf8')) as SpoolFile;
    if (
      typeof file.method !== 'string' ||
      typeof file.url !== 'string' ||
      typeof file.bodyBase64 !== 'string'
    )
      throw new Error(`${name} is not a spooled webhook`);
    return {
      method: file.method,
      url: file.url,
      headers: file.headers,
      body: Buffer.from(file.bodyBase64, 'base64'),
      receivedAt: file.receivedAt,
    };
  }

  /** Delivered: gone for good. */
  async remove(name: string): Promise<void> {
    await fs.rm(path.join(this.pendingDir, name), { force: true });
    await syncFolder(this.pendingDir);
    this.count = Math.max(0, this.count - 1);
  }

  /** Refused by sms-gateway: kept aside with the reason beside it, never replayed again. */
  async reject(name: string, reason: string): Promise<void> {
    await fs.writeFile(path.join(this.rejectedDir, `${name}.reason.txt`), `${reason}\n`);
    await fs.rename(path.join(this.pendingDir, name), path.join(this.rejectedDir, name));
    await syncFolder(this.pendingDir);
    this.count = Math.max(0, this.count - 1);
  }
}
