// Load generator of the pipeline benchmark, in a worker thread so its clients do not share an event
// loop with the benchmark's fakes. Messages in:
// - { id, mode: 'open', port, rate, requests: [{ path, body?, signature? }] }: request i is sent at
//   start + i / rate whatever the answers do (open loop); its latency counts from that scheduled
//   time, so a server that falls behind is charged for the wait (no coordinated omission);
// - { id, mode: 'closed', port, concurrency, durationMs, requests }: as fast as `concurrency`
//   clients go, for the duration (throughput).
// A request without a body is sent as a GET, one with a body as a signed form POST.
// Out: { id, latencies (ms, -1 when failed, Infinity when unanswered 15 s after the last send),
// acceptedAt (epoch ms, float), errors, wallMs, sent, timedOut }.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';

let agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const epochNow = () => performance.timeOrigin + performance.now();

const post = (port, request) =>
  new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: request.body === undefined ? 'GET' : 'POST',
        path: request.path,
        headers:
          request.body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(request.body),
                'x-twilio-signature': request.signature,
              },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve(
            response.statusCode === 200 || response.statusCode === 204 ? null : `HTTP ${response.statusCode}`,
          ),
        );
        response.on('error', (error) => resolve(String(error.message)));
      },
    );
    req.on('error', (error) => resolve(String(error.message)));
    req.end(request.body);
  });

const runOpen = async ({ port, rate, requests, graceMs = 15_000 }) => {
  const n = requests.length;
  const latencies = new Array(n).fill(-1);
  const acceptedAt = new Array(n).fill(0);
  const errors = [];
  let sent = 0;
  const pending = [];
  const start = performance.now() + 20;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < n && start + (sent * 1000) / rate <= now) {
        const index = sent++;
        const scheduled = start + (index * 1000) / rate;
        pending.push(
          post(port, requests[index]).then((error) => {
            if (error === null) {
              latencies[index] = performance.now() - scheduled;
              acceptedAt[index] = epochNow();
            } else if (errors.length < 5) errors.push(error);
            else errors.push('');
          }),
        );
      }
      if (sent >= n) resolve();
      else setTimeout(tick, Math.max(0, Math.min(1, start + (sent * 1000) / rate - performance.now())));
    };
    tick();
  });
  // A server far behind its arrival rate would take minutes to answer everything: what has not
  // been answered `graceMs` after the last send counts as timed out (latency Infinity).
  let timedOut = 0;
  const grace = new Promise((resolve) => setTimeout(resolve, graceMs, 'grace'));
  if ((await Promise.race([Promise.all(pending), grace])) === 'grace') {
    // Drop what is still queued or in flight, so it does not weigh on the next run.
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
    for (let i = 0; i < n; i += 1) {
      if (latencies[i] === -1 && acceptedAt[i] === 0) {
        latencies[i] = Number.POSITIVE_INFINITY;
        timedOut += 1;
      }
    }
  }
  return { latencies, acceptedAt, errors, wallMs: performance.now() - start, sent, timedOut };
};

const runClosed = async ({ port, concurrency, durationMs, requests }) => {
  const latencies = [];
  const errors = [];
  let next = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const client = async () => {
    while (performance.now() < deadline && next < requests.length) {
      const index = next++;
      const began = performance.now();
      const error = await post(port, requests[index]);
      if (error === null) latencies.push(performance.now() - began);
      else errors.push(errors.length < 5 ? error : '');
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return { latencies, acceptedAt: [], errors, wallMs: performance.now() - start, sent: next };
};

parentPort.on('message', (message) => {
  if (message.mode === 'close') {
    agent.destroy();
    parentPort.postMessage({ id: message.id, closed: true });
    return;
  }
  (message.mode === 'open' ? runOpen(message) : runClosed(message)).then(
    (result) => parentPort.postMessage({ id: message.id, ...result }),
    (error) => parentPort.postMessage({ id: message.id, fatal: String(error?.stack ?? error) }),
  );
});
