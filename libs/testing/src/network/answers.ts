import http from 'node:http';

interface ProbedAnswer {
  /** What was asked, e.g. "GET /health/live". */
  label: string;
  status: number;
  headers: http.IncomingHttpHeaders;
}

/** One raw request (fetch refuses malformed URLs): its status and headers. */
const rawAnswer = (
  baseUrl: string,
  options: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; body?: string },
): Promise<ProbedAnswer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const method = options.method ?? 'GET';
    const req = http.request(
      { hostname, port, path: options.path, method, headers: options.headers },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ label: `${method} ${options.path}`, status: res.statusCode ?? 0, headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });

/** What a service answers besides its own routes: liveness, metrics, no route, a malformed URL. */
const SERVICE_PROBES = [
  { path: '/health/live', status: 200 },
  { path: '/metrics', status: 200 },
  { path: '/nothing-here', status: 404 },
  // Answered before any route or hook runs.
  { path: '/%zz', status: 400 },
] as const;

/**
 * Asks a service for its normal, not-found and error answers over HTTP and lists what is wrong:
 * an unexpected status, or a header of `expected` missing or different. Empty when all is well.
 */
export const securityHeaderGaps = async (
  baseUrl: string,
  expected: Readonly<Record<string, string>>,
): Promise<string[]> => {
  const gaps: string[] = [];
  for (const probe of SERVICE_PROBES) {
    const answer = await rawAnswer(baseUrl, { path: probe.path });
    if (answer.status !== probe.status)
      gaps.push(`${answer.label}: status ${answer.status}, not ${probe.status}`);
    for (const [name, value] of Object.entries(expected)) {
      if (answer.headers[name] !== value)
        gaps.push(`${answer.label}: ${name} is ${String(answer.headers[name])}`);
    }
  }
  return gaps;
};
