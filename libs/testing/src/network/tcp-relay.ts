import * as net from 'node:net';

/**
 * A TCP relay on a loopback port of its own, in front of a real server (Postgres, Redis), that a
 * test can cut (open connections reset, new ones refused) and restore. Cutting the relay instead
 * of stopping the server keeps the port held, so no other test can take it in the meantime.
 */
export class TcpRelay {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  private open = true;
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      if (!this.open) {
        client.resetAndDestroy();
        return;
      }
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  cut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.open = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
