// Small helpers shared by the fake servers.
import http from 'node:http';
import { type AddressInfo } from 'node:net';

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export async function listen(server: http.Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${publicHost}:${address.port}`;
}

export async function closeServer(server: http.Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

export function randomHex(bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i += 1)
    out += Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0');
  return out;
}

/** Pending "wait until" promises with a deadline: each resolves when its check() returns a value. */
export class Waiters {
  private readonly waiters = new Map<() => boolean, (reason: Error) => void>();

  waitFor<T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    const ready = check();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise<T>((resolve, reject) => {
      const attempt = (): boolean => {
        const value = check();
        if (value === undefined) return false;
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const cancel = (reason: Error): void => {
        clearTimeout(timer);
        reject(reason);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(attempt);
        reject(new Error(`Timed out after ${timeoutMs} ms: ${describe()}`));
      }, timeoutMs);
      this.waiters.set(attempt, cancel);
    });
  }

  notify(): void {
    for (const attempt of [...this.waiters.keys()]) {
      if (attempt()) this.waiters.delete(attempt);
    }
  }

  cancelAll(reason: string): void {
    for (const cancel of this.waiters.values()) cancel(new Error(reason));
    this.waiters.clear();
  }
}
