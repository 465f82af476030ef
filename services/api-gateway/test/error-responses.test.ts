// How errors become answers: an unreachable Postgres or Redis is a 503 worth retrying, anything
// unknown a generic 500 that reveals nothing. The errors are the real ones pg and ioredis raise.
import * as net from 'node:net';
import { HttpException } from '@nestjs/common';
import { DEPENDENCY_UNAVAILABLE_MESSAGE, findFreePort } from '@sprout/platform';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { toErrorResponse } from '../src/common/all-exceptions.filter';

const closedPort = async (): Promise<number> => {
  const port = await findFreePort();
  // Nothing listens there: a connection is refused.
  expect(await new Promise((resolve) => net.connect(port, '127.0.0.1').on('error', resolve))).toBeTruthy();
  return port;
};

describe('error answers', () => {
  it('answers 503 when Postgres refuses the connection', async () => {
    const client = new Client({ host: '127.0.0.1', port: await closedPort(), user: 'postgres' });
    const error: unknown = await client.connect().catch((caught: unknown) => caught);
    expect(toErrorResponse(error)).toEqual({
      status: 503,
      body: { statusCode: 503, error: 'Service Unavailable', message: DEPENDENCY_UNAVAILABLE_MESSAGE },
    });
  });

  it('answers 503 when Redis is unreachable', async () => {
    const redis = new Redis({
      host: '127.0.0.1',
      port: await closedPort(),
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const error: unknown = await redis.get('x').catch((caught: unknown) => caught);
    redis.disconnect();
    expect(toErrorResponse(error).status).toBe(503);
  });

  it('keeps an HttpException and answers anything else 500', () => {
    expect(toErrorResponse(new HttpException('Slow down.', 429)).status).toBe(429);
    expect(toErrorResponse(new Error('boom'))).toEqual({
      status: 500,
      body: {
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Something went wrong on our side. Please try again.',
      },
    });
  });
});
