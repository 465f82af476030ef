// A loopback TCP balancer in front of the sms-gateway replicas, as a Kubernetes Service or the
// compose network is in front of the two replicas there: each new connection goes to the next
// replica that accepts it (a dead replica refuses, and the next one is tried).
import net from 'node:net';

export class Balancer {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  private next = 0;
  port = 0;

  private constructor(private readonly ports: () => number[]) {
    this.server = net.createServer((client) => {
      client.pause();
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => undefined);
      const candidates = this.ports();
      const start = this.next++;
      const tryReplica = (i: number): void => {
        if (i >= candidates.length || client.destroyed) {
          client.destroy();
          return;
        }
        const upstream = net.connect(candidates[(start + i) % candidates.length] ?? 0, '127.0.0.1');
        let connected = false;
        upstream.on('error', () => {
          if (!connected) tryReplica(i + 1);
        });
        upstream.once('connect', () => {
          connected = true;
          this.sockets.add(upstream);
          upstream.on('close', () => {
            this.sockets.delete(upstream);
            client.destroy();
          });
          upstream.on('error', () => client.destroy());
          client.on('close', () => upstream.destroy());
          client.pipe(upstream).pipe(client);
          client.resume();
        });
      };
      tryReplica(0);
    });
  }

  static async start(ports: () => number[]): Promise<Balancer> {
    const balancer = new Balancer(ports);
    await new Promise<void>((resolve) => balancer.server.listen(0, '127.0.0.1', resolve));
    balancer.port = (balancer.server.address() as net.AddressInfo).port;
    return balancer;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
