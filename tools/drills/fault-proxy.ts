// A loopback HTTP proxy in front of a fake (Twilio or OpenAI) that injects the faults the fakes
// themselves do not have: failing for a time window (an outage), failing the next N requests (a
// burst), and holding answers after the fake accepted the request (sends in flight).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The JSON body the real API answers a failure with (Twilio's and OpenAI's differ). */
export type ErrorBody = (status: number) => unknown;

export class FaultProxy {
  /** Requests answered with an injected failure. */
  failed = 0;
  /** Requests passed to the fake. */
  forwarded = 0;
  /** Answers of the fake held back right now (the fake has already acted on them). */
  inFlight = 0;

  private failUntil = 0;
  private windowStatus = 503;
  private burstLeft = 0;
  private burstStatus = 500;
  private holdMs = 0;
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private url_ = '';

  private constructor(
    private readonly target: URL,
    private readonly errorBody: ErrorBody,
    /** Which requests a fault applies to (the others always pass). */
    private readonly affects: (method: string, path: string) => boolean,
  ) {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
    });
  }

  static async start(
    targetUrl: string,
    errorBody: ErrorBody,
    affects: (method: string, path: string) => boolean = () => true,
  ): Promise<FaultProxy> {
    const proxy = new FaultProxy(new URL(targetUrl), errorBody, affects);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.server.address() as AddressInfo;
    proxy.url_ = `http://127.0.0.1:${port}`;
    return proxy;
  }

  get url(): string {
    return this.url_;
  }

  /** Every affected request fails with `status` for the next `ms`. */
  failFor(ms: number, status: number): void {
    this.failUntil = Date.now() + ms;
    this.windowStatus = status;
  }

  /** The next `count` affected requests fail with `status`. */
  failNext(count: number, status: number): void {
    this.burstLeft = count;
    this.burstStatus = status;
  }

  /** The fake acts on each affected request at once, but its answer reaches the caller `ms` later. */
  holdAnswers(ms: number): void {
    this.holdMs = ms;
  }

  get failing(): boolean {
    return Date.now() < this.failUntil || this.burstLeft > 0;
  }

  clear(): void {
    this.failUntil = 0;
    this.burstLeft = 0;
    this.holdMs = 0;
  }

  async close(): Promise<void> {
    this.clear();
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const affected = this.affects(method, path.split('?')[0] ?? '/');

    if (affected && (Date.now() < this.failUntil || this.burstLeft > 0)) {
      let status = this.windowStatus;
      if (Date.now() >= this.failUntil) {
        this.burstLeft -= 1;
        status = this.burstStatus;
      }
      this.failed += 1;
      const payload = JSON.stringify(this.errorBody(status));
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
      return;
    }

    const headers = { ...req.headers, host: this.target.host };
    const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const upstream = http.request(
          {
            hostname: this.target.hostname,
            port: this.target.port,
            method,
            path,
            headers,
            agent: this.agent,
          },
          (upstreamRes) => {
            const parts: Buffer[] = [];
            upstreamRes.on('data', (part: Buffer) => parts.push(part));
            upstreamRes.on('end', () =>
              resolve({
                status: upstreamRes.statusCode ?? 502,
                headers: upstreamRes.headers,
                body: Buffer.concat(parts),
              }),
            );
            upstreamRes.on('error', reject);
          },
        );
        upstream.on('error', reject);
        upstream.end(body);
      },
    );
    this.forwarded += 1;
    const hold = affected ? this.holdMs : 0;
    if (hold > 0) {
      this.inFlight += 1;
      await new Promise((resolve) => setTimeout(resolve, hold));
      this.inFlight -= 1;
    }
    if (res.destroyed) return;
    const {
      connection: _connection,
      'transfer-encoding': _encoding,
      'keep-alive': _keepAlive,
      ...rest
    } = answer.headers;
    res.writeHead(answer.status, { ...rest, 'content-length': answer.body.length });
    res.end(answer.body);
  }
}
