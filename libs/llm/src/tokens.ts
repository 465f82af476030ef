// Token counts for the spend cap's reservations and the history budget, for the o200k_base
// encoding (gpt-4o, gpt-4.1, gpt-5 families), without loading its 200,000-token vocabulary (about
// 43 MB of a replica's memory). Text is split into pieces exactly as the encoding splits it; a
// piece the shipped table knows counts its tokens there (every one-token ASCII piece, and the
// longer words of the gardening advisor's knowledge with their exact counts), any other piece its
// UTF-8 bytes, since every token is at least one byte. So a count is never below the encoding's,
// and equals it for text made of known pieces (nearly all of the advisor's English).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { type ChatMessage } from './types';

/**
 * The shipped table, sorted: one line per piece, escaped (escapePiece), then a tab and its token
 * count when more than one.
 */
export const O200K_PIECES_FILE = path.join(__dirname, '..', 'data', 'o200k-pieces.txt');

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A piece as the table holds it: backslash, line feed, carriage return and tab escaped. */
export const escapePiece = (piece: string): string =>
  /[\\\n\r\t]/.test(piece) ? piece.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c] ?? c) : piece;

const NEWLINE = 10;
const TAB = 9;

interface PieceTable {
  /** The file's text (ASCII). */
  text: string;
  /** Where each line starts in `text`. */
  starts: Uint32Array;
}

let table: PieceTable | undefined;

const pieceTable = (): PieceTable => {
  if (table !== undefined) return table;
  const text = fs.readFileSync(O200K_PIECES_FILE, 'latin1');
  let lines = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === NEWLINE) lines++;
  const starts = new Uint32Array(lines);
  let line = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== NEWLINE) continue;
    starts[line++] = start;
    start = i + 1;
  }
  table = { text, starts };
  return table;
};

/** The line's piece at `start` against `piece`: negative when it sorts first, 0 when the same. */
const compareAt = (text: string, start: number, piece: string): number => {
  for (let i = 0; ; i++) {
    const a = text.charCodeAt(start + i);
    const end = a === NEWLINE || a === TAB;
    if (i === piece.length) return end ? 0 : 1;
    if (end) return -1;
    const b = piece.charCodeAt(i);
    if (a !== b) return a - b;
  }
};

/** The piece's tokens from the table, or undefined when it is not there. */
const knownTokens = (piece: string): number | undefined => {
  const { text, starts } = pieceTable();
  const escaped = escapePiece(piece);
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const start = starts[middle] ?? 0;
    const order = compareAt(text, start, escaped);
    if (order < 0) low = middle + 1;
    else if (order > 0) high = middle - 1;
    else {
      const after = start + escaped.length;
      return text.charCodeAt(after) === TAB ? Number(text.slice(after + 1, text.indexOf('\n', after))) : 1;
    }
  }
  return undefined;
};

/** At least the o200k_base tokens of `text` as plain text (special-token text such as "<|endoftext|>" included). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let tokens = 0;
  for (const [piece] of text.matchAll(O200K_TOKEN_SPLIT_REGEX))
    tokens += knownTokens(piece) ?? Buffer.byteLength(piece, 'utf8');
  return tokens;
}

/** Per-message framing of the chat format (role and separators), from OpenAI's cookbook. */
const TOKENS_PER_MESSAGE = 4;
/** Every reply is primed with <|start|>assistant<|message|>. */
const TOKENS_REPLY_PRIMING = 3;
/**
 * An image's cost depends on its size and detail, which we do not know here: 85 is the base cost
 * of a low-detail image (and the floor of a high-detail one), good enough for budgeting history.
 */
export const IMAGE_TOKEN_ESTIMATE = 85;

export function countMessageTokens(message: ChatMessage): number {
  const content =
    typeof message.content === 'string'
      ? countTokens(message.content)
      : message.content.reduce(
          (sum, part) => sum + (part.type === 'text' ? countTokens(part.text) : IMAGE_TOKEN_ESTIMATE),
          0,
        );
  return TOKENS_PER_MESSAGE + content;
}

/** Prompt tokens of a chat request as the chat completions API counts them, or a few more (images estimated). */
export function countChatTokens(messages: readonly ChatMessage[]): number {
  if (messages.length === 0) return 0;
  return messages.reduce((sum, m) => sum + countMessageTokens(m), TOKENS_REPLY_PRIMING);
}

/**
 * Trims a conversation to a prompt budget: system messages are always kept; of the others, the
 * newest ones that fit are kept (stopping at the first that does not, so no gap appears in the
 * history). Order is preserved.
 */
export function fitHistory(messages: readonly ChatMessage[], budgetTokens: number): ChatMessage[] {
  const keep = new Set<number>();
  let used = TOKENS_REPLY_PRIMING;
  messages.forEach((message, index) => {
    if (message.role === 'system') {
      keep.add(index);
      used += countMessageTokens(message);
    }
  });
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (!message || message.role === 'system') continue;
    const cost = countMessageTokens(message);
    if (used + cost > budgetTokens) break;
    used += cost;
    keep.add(index);
  }
  return messages.filter((_, index) => keep.has(index));
}
