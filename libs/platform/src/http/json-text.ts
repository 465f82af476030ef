// Answers whose JSON Postgres writes (json_build_object / json_agg): a list is then one string for
// the gateway to pass on, not rows to parse, map and re-serialise on every poll.
import type { FastifyReply } from 'fastify';

/**
 * JSON text Postgres built in the shape of T, answered as is: the type names the shape the text
 * must have (the API tests check it), without parsing and re-serialising it.
 */
export type JsonText<T> = string & { readonly __jsonOf?: T };

/** A timestamptz as JSON the way Date.toISOString() writes it (UTC, milliseconds). */
export const isoJson = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Marks the reply as JSON: a handler that returns a string would otherwise answer text/plain. */
export const asJson = <T>(reply: FastifyReply, json: JsonText<T>): JsonText<T> => {
  void reply.type('application/json; charset=utf-8');
  return json;
};
