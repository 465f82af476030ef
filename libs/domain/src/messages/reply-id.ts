import { createHash } from 'node:crypto';

// Name-based UUID (RFC 9562 version 5) in a namespace of our own: the reply to an inbound message
// has an id derived from the inbound id, so a second run of the same job finds the primary key
// taken instead of writing a second reply.
const REPLY_NAMESPACE_HEX = '6b1f0a52c4d94e0f9a3d2f8e7c1b5a90';
const REPLY_NAMESPACE = Buffer.from(REPLY_NAMESPACE_HEX, 'hex');

export const replyIdFor = (inboundMessageId: string): string => {
  const hash = createHash('sha1').update(REPLY_NAMESPACE).update(`reply:${inboundMessageId}`).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * `replyIdFor` in SQL, for the inbound id the expression `inboundIdSql` gives (pgcrypto's digest):
 * lets a statement ask whether a text has its reply without a round trip per text.
 */
export const replyIdSql = (inboundIdSql: string): string =>
  `(SELECT encode(set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 80), 8, (get_byte(h, 8) & 63) | 128), 'hex')::uuid
      FROM (SELECT substring(digest('\\x${REPLY_NAMESPACE_HEX}'::bytea
                                    || convert_to('reply:' || ${inboundIdSql}::text, 'UTF8'), 'sha1') FROM 1 FOR 16) AS h) reply_hash)`;
