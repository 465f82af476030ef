// Answers whose JSON Postgres writes (json_build_object / json_agg): a list is then one string for
// the gateway to pass on, not rows to parse, map and re-serialise on every poll.
import type { JsonText } from '@sprout/domain';
import type { FastifyReply } from 'fastify';

export type { JsonText };

/** Marks the reply as JSON: a handler that returns a string would otherwise answer text/plain. */
export const asJson = <T>(reply: FastifyReply, json: JsonText<T>): JsonText<T> => {
  void reply.type('application/json; charset=utf-8');
  return json;
};
