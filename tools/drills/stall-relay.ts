// A loopback TCP relay in front of Redis for sms-gateway alone, that a drill can stall: while
// stalled, nothing the gateway writes reaches Redis (its commands wait, as on a hung network), so
// a webhook has committed its text to Postgres and waits in its queue add. Killing the gateway
// then leaves texts stored with no job, the case the inbound sweep recovers.
import net from 'node:net';

export class StallRelay {
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket; held: boolean }>();
  private readonly server: net.Server;
  private stalled = false;
  port = 0;

  private constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      const pair = { client, upstream, held: this.stalled };
      this.pairs.add(pair);
      const close = (): void => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.on('error', close);
        socket.on('close', close);
      }
      upstream.pipe(client);
      if (!this.stalled) client.pipe(upstream);
    });
  }

  static async start(redisUrl: string): Promise<StallRelay> {
    const url = new URL(redisUrl);
    const relay = new StallRelay({ host: url.hostname || '127.0.0.1', port: Number(url.port || 6379) });
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    relay.port = (relay.server.address() as net.AddressInfo).port;
    return relay;
  }

  /** REDIS_URL through the relay (same database and credentials). */
  urlFor(redisUrl: string): string {
    const url = new URL(redisUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Holds what clients write (their commands wait); Redis's answers still flow. */
  stall(): void {
    this.stalled = true;
    for (const pair of this.pairs) {
      if (pair.held) continue;
      pair.client.unpipe(pair.upstream);
      pair.client.pause();
      pair.held = true;
    }
  }

  /**
   * Drops the connections held now with what they wrote (as if their process had died before
   * writing it: a SIGKILLed process's unwritten commands never reach Redis), then lets new ones through.
   */
  dropHeld(): void {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    this.stalled = false;
  }

  /**
   * Lets held and new commands through again. Only held connections are piped again: piping a
   * flowing one a second time would send each of its commands to Redis twice.
   */
  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) {
      if (!pair.held) continue;
      pair.client.pipe(pair.upstream);
      pair.client.resume();
      pair.held = false;
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
